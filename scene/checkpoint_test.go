package scene

import (
	"bytes"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/timestep"
)

// TestCheckpointExact: a simulation saved after n steps and loaded into
// one built afresh from the same scene goes on bit for bit as the one it
// was saved from: every step's statistics over the next n steps, and at
// the end every body's state and the energy ledger, compared with ==.
// For every kind of body and state the step carries: the colliding blocks
// (elastic; nodal and pairing bases: the warm start of both), the pillar
// (rigid, warm starts, a moving ground), the disc (hyperelastic under
// modified Newton, whose kept factor is made again, and under full
// Newton), the klarbring example (point masses) and a mixed scene.
func TestCheckpointExact(t *testing.T) {
	cases := []struct {
		name, example string
		set           [][2]string
		n             int
	}{
		{"colliding blocks, nodal", "colliding-blocks", nil, 150},
		{"colliding blocks, pairing", "colliding-blocks", [][2]string{{"contact.upper-on-lower.basis", `"pairing"`}}, 150},
		{"pillar", "pillar", nil, 200},
		{"disc, modified Newton", "disc-impact", nil, 40},
		{"disc, full Newton", "disc-impact", [][2]string{{"solver.newton", `"full"`}}, 30},
		{"klarbring", "klarbring", nil, 1000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := examples.Scene(tc.example)
			require.NoError(t, err)
			text := string(data)
			for _, kv := range tc.set {
				text, err = Override(text, kv[0], kv[1])
				require.NoError(t, err)
			}
			files, err := examples.Files(tc.example)
			require.NoError(t, err)
			checkpointExact(t, text, files, tc.n)
		})
	}
	t.Run("mixed", func(t *testing.T) {
		text, err := os.ReadFile(filepath.Join("testdata", "mixed.toml"))
		require.NoError(t, err)
		checkpointExact(t, string(text), nil, 300)
	})
}

func checkpointExact(t *testing.T, text string, files fs.FS, n int) {
	t.Helper()
	build := func() (*Model, *timestep.Simulation) {
		sc, err := Decode(strings.NewReader(text), "checkpoint.toml")
		require.NoError(t, err)
		sc.Files = files
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		return m, sim
	}
	_, a := build()
	_, b := build()
	for i := range n {
		_, err := a.Step()
		require.NoError(t, err)
		_, err = b.Step()
		require.NoError(t, err, "step %d", i+1)
	}
	var buf bytes.Buffer
	st := b.Contacts()
	t.Logf("units at the checkpoint: %d", len(st))
	require.NoError(t, b.SaveState(&buf))
	size := buf.Len()
	mc, c := build()
	require.NoError(t, c.LoadState(&buf))
	for i := range n {
		sa, err := a.Step()
		require.NoError(t, err)
		sc, err := c.Step()
		require.NoError(t, err)
		require.Equal(t, sa, sc, "step %d after the checkpoint", n+i+1)
	}
	assert.Equal(t, a.TotalEnergy(), c.TotalEnergy())
	assert.Equal(t, a.Time(), c.Time())
	for i := range a.Stepper.NumBodies() {
		assert.Equal(t, a.Stepper.Body(i).Q, c.Stepper.Body(i).Q, "body %d", i)
		assert.Equal(t, a.Stepper.Body(i).V, c.Stepper.Body(i).V, "body %d", i)
	}
	if a.Rigid != nil {
		assert.Equal(t, a.Rigid.State(), c.Rigid.State())
	}
	if a.Points != nil {
		assert.Equal(t, a.Points.State(), c.Points.State())
	}
	assert.Equal(t, a.NormalWork, c.NormalWork)
	assert.Equal(t, a.FrictionWork, c.FrictionWork)
	assert.False(t, math.IsNaN(a.TotalEnergy().Balance()))
	t.Logf("%d steps, then %d more from a state of %d bytes: the same bits (%d bodies)", n, n, size, len(mc.Bodies))
}
