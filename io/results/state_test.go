package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// goodState is a state of two bodies as fecontact run writes it.
const goodState = `{"scene": "s.toml", "step": 10, "time": 0.01, "rigid": [
 {"name": "ground", "q": [0, -0.1, 0], "v": [0, 0, 0]},
 {"name": "ball", "q": [0, 0.1, 0.5], "v": [1, 0, 2]}]}`

func stateSystem(t testing.TB) *rigid.System {
	shape, err := rigid.Rectangle(2, 0.2)
	require.NoError(t, err)
	ground, err := rigid.NewBody("ground", shape, [2]float64{0, -0.1}, 0)
	require.NoError(t, err)
	ground.Motion = contact.Fixed{}
	ball, err := rigid.NewBody("ball", rigid.Disk{R: 0.1}, [2]float64{0, 0.1}, 1000)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{ground, ball}, nil, 0)
	require.NoError(t, err)
	return sys
}

// TestReadState: a state as run writes it applies to its scene; a pose of
// two or four values, a body listed twice, a misspelt key, a value out of
// range, a state of another scene are errors naming the state file and
// the body (they were accepted: the angle became 0, the extra value was
// dropped, the later body won).
func TestReadState(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "state.json")
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	st, err := ReadState(write(goodState))
	require.NoError(t, err)
	sys := stateSystem(t)
	require.NoError(t, st.Apply(sys))
	require.Equal(t, [3]float64{0, 0.1, 0.5}, sys.Bodies[1].Q)
	require.Equal(t, [3]float64{1, 0, 2}, sys.Bodies[1].V)
	for _, tc := range []struct{ text, want string }{
		{strings.Replace(goodState, `"q": [0, 0.1, 0.5]`, `"q": [0, 0.1]`, 1), `rigid body 2 "ball": q = [0 0.1], v = [1 0 2]: expected three values each`},
		{strings.Replace(goodState, `"q": [0, 0.1, 0.5]`, `"q": [0, 0.1, 0.5, 7]`, 1), `rigid body 2 "ball": q = [0 0.1 0.5 7], v = [1 0 2]: expected three values each`},
		{strings.Replace(goodState, `"ground"`, `"ball"`, 1), `rigid body 2 "ball": listed twice`},
		{strings.Replace(goodState, `"step"`, `"stepp"`, 1), `json: unknown field "stepp"`},
		{strings.Replace(goodState, `"q": [0, 0.1, 0.5]`, `"q": [1e300, 0.1, 0.5]`, 1), `rigid body 2 "ball": q = [1e+300 0.1 0.5], v = [1 0 2]: expected finite values within +-1e+15`},
		{strings.Replace(goodState, `"step": 10`, `"step": -3`, 1), `step -3 at t = 0.01: expected a step >= 0`},
		{"[1, 2]", `expected the JSON that fecontact run writes as state.json`},
	} {
		p := write(tc.text)
		_, err := ReadState(p)
		require.ErrorContains(t, err, "state "+p+": ")
		require.ErrorContains(t, err, tc.want)
	}
	st, err = ReadState(write(strings.Replace(goodState, `"ground"`, `"floor"`, 1)))
	require.NoError(t, err)
	require.EqualError(t, st.Apply(stateSystem(t)), `rigid body "ground" of the scene is not in the state: the state is of another scene`)
}

// FuzzDecodeState: whatever the bytes, DecodeState returns an error naming
// the file or a state that Apply takes or refuses with an error; never a
// panic.
func FuzzDecodeState(f *testing.F) {
	f.Add([]byte(goodState))
	f.Add([]byte(strings.Replace(goodState, `"q": [0, 0.1, 0.5]`, `"q": [0, 0.1]`, 1)))
	f.Add([]byte(strings.Replace(goodState, `"q": [0, 0.1, 0.5]`, `"q": [1e308, 1e308, NaN]`, 1)))
	f.Add([]byte(`{"rigid": [{"name": "ball", "q": [0, 0, 0], "v": [0, 0, 0]}]}`))
	f.Add([]byte(`{"rigid": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := DecodeState(data, "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "state fuzz.json: ") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		_ = st.Apply(stateSystem(t))
	})
}
