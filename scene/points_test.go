package scene

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pointsMinimal is a mass on an anchored spring above a floor.
const pointsMinimal = `
[time]
h = 1e-3
duration = 0.01

[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]

[[mass]]
name = "bob"
mass = 2.0
position = [0.0, 0.1]
gravity = [0.0, -9.81]

[[spring]]
name = "hanger"
masses = ["bob"]
anchor = [0.0, 0.6]
stiffness = 100.0

[[point_contact]]
name = "on floor"
obstacle = "floor"
mu = 0.3
`

// TestPointErrors: each mistake in masses, springs and point contacts is
// refused with an error naming the file, the entity and the value.
func TestPointErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{`mass = 2.0`, `mass = 0.0`, `points.toml: mass 1 "bob": mass 0 kg/m: expected a positive number`},
		{`mass = 2.0`, `mass = -1.0`, `mass 1 "bob": mass -1 kg/m: expected a positive number`},
		{`mass = 2.0`, `mass = nan`, `mass 1 "bob": mass NaN kg/m`},
		{`position = [0.0, 0.1]`, `position = [0.0]`, `mass "bob": position = [0]: expected [x, y], finite`},
		{`gravity = [0.0, -9.81]`, `gravity = [0.0, inf]`, `mass "bob": gravity = [0 +Inf]: expected [x, y], finite`},
		{`masses = ["bob"]`, `masses = ["rob"]`, `spring "hanger": masses = ["rob"]: "rob" is not a [[mass]]`},
		{`masses = ["bob"]`, `masses = ["bob", "bob"]`, `spring "hanger": anchor = [0 0.6]: a spring joins two masses or a mass and an anchor`},
		{`anchor = [0.0, 0.6]`, `anchor = [0.0, 0.1]` + "\nrest_length = 0.5", `spring 1 "hanger": its ends are at the same point, so it has no direction for a rest length of 0.5 m`},
		{`stiffness = 100.0`, `stiffness = -100.0`, `spring 1 "hanger": stiffness -100 N/m: expected 0 or a positive number`},
		{`stiffness = 100.0`, `stiffness_matrix = [[100.0, 80.0], [70.0, 100.0]]`, `spring 1 "hanger": stiffness matrix [[100 80] [70 100]] is not symmetric`},
		{`stiffness = 100.0`, `stiffness_matrix = [[100.0, 200.0], [200.0, 100.0]]`, `spring 1 "hanger": stiffness matrix [[100 200] [200 100]] is not positive semi-definite`},
		{`stiffness = 100.0`, `stiffness_matrix = [[100.0, 0.0]]`, `spring "hanger": stiffness_matrix = [[100 0]]: expected [[K_t, W], [W, K_n]]`},
		{`obstacle = "floor"`, `obstacle = "flor"`, `point_contact "on floor": obstacle = "flor": expected the name of an [[obstacle]]`},
		{`obstacle = "floor"`, `obstacle = "floor"` + "\nrigid = \"x\"", `point_contact "on floor": give exactly one of obstacle`},
		{`mu = 0.3`, `mu = -0.3`, `point contact 1 "on floor": friction coefficient -0.3: expected 0 or a positive number up to 1000`},
		{`mu = 0.3`, `mu = 2e3`, `point contact 1 "on floor": friction coefficient 2000: expected 0 or a positive number up to 1000 (1000 already sticks)`},
		{`mu = 0.3`, "mu = 0.3\nlaw = \"elastic\"", `point_contact "on floor": law = "elastic": expected shock or signorini`},
		{`mu = 0.3`, "mu = 0.3\nmasses = [\"bobby\"]", `point_contact "on floor": masses = ["bobby"]: "bobby" is not a [[mass]]`},
		{`name = "bob"`, `name = "a/b"`, `mass 1: name`},
	}
	for _, tc := range cases {
		text := strings.Replace(pointsMinimal, tc.from, tc.to, 1)
		require.NotEqual(t, pointsMinimal, text, tc.from)
		sc, err := Decode(strings.NewReader(text), "points.toml")
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		if assert.Error(t, err, tc.to) {
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "points.toml"), "names the file: %v", err)
		}
	}
}

// TestPointScene: the minimal scene steps, and a chain of more masses
// than discrete.MaxComponent is refused by name (its matrices would be
// dense).
func TestPointScene(t *testing.T) {
	sc, err := Decode(strings.NewReader(pointsMinimal), "points.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	for range 10 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	var b strings.Builder
	b.WriteString("[time]\nh = 1e-3\nduration = 0.01\n")
	for i := range 501 {
		b.WriteString("[[mass]]\nname = \"m" + strconv.Itoa(i) + "\"\nmass = 1.0\nposition = [" + strconv.Itoa(i) + ".0, 0.0]\n")
		if i > 0 {
			b.WriteString("[[spring]]\nmasses = [\"m" + strconv.Itoa(i-1) + "\", \"m" + strconv.Itoa(i) + "\"]\nstiffness = 1.0\n")
		}
	}
	sc, err = Decode(strings.NewReader(b.String()), "chain.toml")
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, "chain.toml: springs join 501 masses into one body")
}

// TestRestitutionAsUsersReadIt: a mass hitting a rough plane (mu 0.9) at
// (1, -2) m/s sticks: under restitution = 0.5 (Newton's, the tangential
// default 0) it leaves at (0, 1), the contact point stopped; with
// tangential_restitution = 0.5, at (-0.5, 1); under the dissipation index
// of e = 0.5 ([JM91]: both components), at (-0.5, 1) too. Contact creates
// no energy under any. (restitution reversed the tangential velocity too,
// which the guide did not say.)
func TestRestitutionAsUsersReadIt(t *testing.T) {
	for _, tc := range []struct {
		law  string
		want [2]float64
	}{
		{"restitution = 0.5", [2]float64{0, 1}},
		{"restitution = 0.5\ntangential_restitution = 0.5", [2]float64{-0.5, 1}},
		{"dissipation_index = 0.3333333333333333", [2]float64{-0.5, 1}},
		{"restitution = 1\ntangential_restitution = 0.25", [2]float64{-0.25, 2}},
	} {
		text := `title = "a mass on a rough plane"
[time]
h = 1e-4
duration = 2e-3
[[obstacle]]
name = "plane"
points = [[-1.0, 0.0], [1.0, 0.0]]
[[mass]]
name = "m"
mass = 1
position = [0, 1e-6]
velocity = [1, -2]
[[point_contact]]
obstacle = "plane"
law = "shock"
mu = 0.9
` + tc.law + "\n"
		sc, err := Decode(strings.NewReader(text), "rough.toml")
		require.NoError(t, err, tc.law)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		for range 3 {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		v := m.Points.Masses[0].V
		assert.InDelta(t, tc.want[0], v[0], 1e-9, "%s: tangential velocity after", tc.law)
		assert.InDelta(t, tc.want[1], v[1], 1e-9, "%s: normal velocity after", tc.law)
		assert.LessOrEqual(t, sim.TotalEnergy().Contact, 1e-12, "%s: contact creates no energy", tc.law)
	}
	_, err := Decode(strings.NewReader(pointsMinimal+"\n[[point_contact]]\nobstacle = \"floor\"\nlaw = \"shock\"\ndissipation_index = 0.5\ntangential_restitution = 0.2\n"), "x.toml")
	assert.ErrorContains(t, err, "tangential_restitution = 0.2: applies with restitution = e (Newton's); a dissipation index's law is on both components alike")
}
