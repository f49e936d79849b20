package scene

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shakeTable is a block on a driven ground whose horizontal acceleration
// is a record: a (m/s^2, in g where scale is 9.81) for 0.3 s, then 0.
func shakeTable(t *testing.T, a float64, motion string) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# a shake table's record\ntime [s],a_x [g],a_y [g]\n")
	for k := 0; k <= 500; k++ {
		x := float64(k) * 1e-3
		ax := a / 9.81
		if x > 0.3 {
			ax = 0
		}
		fmt.Fprintf(&b, "%g,%.17g,0\n", x, ax)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ground.csv"), []byte(b.String()), 0o644))
	scene := strings.Replace(rigidMinimal, `motion = { type = "fixed" }`, motion, 1)
	scene = strings.Replace(scene, "radius = 0.1\n", "rectangle = [0.2, 0.1]\n", 1)
	scene = strings.Replace(scene, "position = [0.0, 0.1]", "position = [0.0, 0.05]", 1)
	scene = strings.Replace(scene, "duration = 1e-2", "duration = 0.4", 1)
	scene = strings.Replace(scene, "mu = 0.3\n", "mu = 0.5\n", 1)
	path := filepath.Join(dir, "table.toml")
	require.NoError(t, os.WriteFile(path, []byte(scene), 0o644))
	return path
}

// TestShakeTableRecord: a ground driven by a recorded acceleration (a CSV
// column in g, scaled) carries a block resting on it with mu = 0.5: at a
// = 0.3 g it sticks and moves with the ground (v = a t, to round-off
// against the record's exact integration), at 0.8 g it slides and
// accelerates at mu g only; the ground's own velocity at 0.3 s is the
// record's integral; the contact creates no energy. A record with a bad
// line, a missing column or file is refused naming them.
func TestShakeTableRecord(t *testing.T) {
	const g = 9.81
	motion := `motion = { type = "record", file = "ground.csv", column = "a_x [g]", scale = 9.81, direction = [1.0, 0.0] }`
	for _, tc := range []struct {
		a, want float64 // the ground's acceleration, the block's
	}{{0.3 * g, 0.3 * g}, {0.8 * g, 0.5 * g}} {
		path := shakeTable(t, tc.a, motion)
		sc, err := Load(path)
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		ground, block := m.Rigid.Bodies[0], m.Rigid.Bodies[1]
		e0 := sim.TotalEnergy().Balance()
		for range 300 {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		assert.InDelta(t, tc.a*0.3, ground.V[0], 1e-9, "a = %g: the ground at the record's velocity", tc.a)
		// The first step's unit is new and takes the block along at the
		// step's mean: the block lags by at most a step of the ground.
		assert.InDelta(t, tc.want*0.3, block.V[0], tc.a*2e-3, "a = %g: the block's velocity", tc.a)
		assert.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9*math.Max(1, math.Abs(e0)), "a = %g: no energy created", tc.a)
	}
	for _, tc := range []struct{ edit, want string }{
		{strings.Replace(motion, `column = "a_x [g]"`, `column = "a_z"`, 1), `no column "a_z" (it has time [s], a_x [g], a_y [g])`},
		{strings.Replace(motion, `file = "ground.csv"`, `file = "none.csv"`, 1), "none.csv: no such file: expected ground motion record (CSV)"},
		{strings.Replace(motion, `direction = [1.0, 0.0]`, `direction = [0.0, 0.0]`, 1), "motion.direction = [0 0]: expected a non-zero [dx, dy]"},
		{strings.Replace(motion, `, file = "ground.csv"`, ``, 1), "motion.file is missing"},
	} {
		path := shakeTable(t, g, tc.edit)
		sc, err := Load(path)
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		assert.ErrorContains(t, err, tc.want)
	}
	path := shakeTable(t, 2*g, strings.Replace(motion, "scale = 9.81", "scale = 1e6", 1)) // 2e6 m/s^2
	sc, err := Load(path)
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, "within +-1e+06 m/s^2")
	path = shakeTable(t, g, motion)
	csv := filepath.Join(filepath.Dir(path), "ground.csv")
	data, err := os.ReadFile(csv)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(csv, []byte(strings.Replace(string(data), "0.1,", "0.1x,", 1)), 0o644))
	sc, err = Load(path)
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, `ground.csv line 103: "0.1x", "1": expected a time and an acceleration, finite numbers`)
}

// TestForceAndMomentOnARigidBody: a free block (no contact, no gravity)
// under force = [3, -4] N/m and moment = 0.5 N m/m moves at F t / m and
// turns at M t / I exactly (the theta-method is exact for constant
// loads); their work, booked as external work, is its kinetic energy; on
// a driven body they are refused.
func TestForceAndMomentOnARigidBody(t *testing.T) {
	text := `[time]
h = 1e-3
duration = 0.1
[[rigid]]
name = "block"
rectangle = [0.2, 0.1]
position = [0.0, 0.0]
rho = 1000
force = [3.0, -4.0]
moment = 0.5
`
	sc, err := Decode(strings.NewReader(text), "push.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	b := m.Rigid.Bodies[0]
	for range 100 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	const T = 0.1
	assert.InDelta(t, 3*T/b.Mass, b.V[0], 1e-12)
	assert.InDelta(t, -4*T/b.Mass, b.V[1], 1e-12)
	assert.InDelta(t, 0.5*T/b.Inertia, b.V[2], 1e-12)
	assert.InDelta(t, 3*T*T/2/b.Mass, b.Q[0], 1e-12, "x = F t^2 / 2m")
	e := sim.TotalEnergy()
	assert.InDelta(t, e.Kinetic, e.External, 1e-12*e.Kinetic, "the loads' work is the kinetic energy")
	_, err = Decode(strings.NewReader(strings.Replace(rigidMinimal, `motion = { type = "fixed" }`, "motion = { type = \"fixed\" }\nforce = [1.0, 0.0]", 1)), "x.toml")
	assert.ErrorContains(t, err, "a driven body (motion) takes its velocity from the motion: leave velocity, omega, gravity, force, moment and load_time out")
}

// TestBlockPushedOnARoughFloor: a block on a rough floor (mu 0.4) pushed
// by a horizontal force F stays while F <= mu m g and slides at (F - mu
// m g) / m beyond (from its second step: a new unit takes the static
// coefficient, here the same), the friction work mu m g times the way.
func TestBlockPushedOnARoughFloor(t *testing.T) {
	const g, mu = 9.81, 0.4
	for _, ratio := range []float64{0.5, 0.99, 1.5, 3} {
		scene := strings.Replace(rigidMinimal, "radius = 0.1\n", "rectangle = [0.2, 0.1]\n", 1)
		scene = strings.Replace(scene, "position = [0.0, 0.1]", "position = [0.0, 0.05]", 1)
		scene = strings.Replace(scene, "mu = 0.3\n", fmt.Sprintf("mu = %g\n", mu), 1)
		scene = strings.Replace(scene, "duration = 1e-2", "duration = 0.5", 1)
		w := 1000 * 0.2 * 0.1 * g
		scene = strings.Replace(scene, "gravity = [0.0, -9.81]\n", fmt.Sprintf("gravity = [0.0, -9.81]\nforce = [%.17g, 0.0]\n", ratio*mu*w), 1)
		sc, err := Decode(strings.NewReader(scene), "push.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		b := m.Rigid.Bodies[1]
		for range sc.Steps() {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		a := max(0, (ratio-1)*mu*g)
		assert.InDelta(t, a*0.5, b.V[0], 1e-9+a*2e-3, "F = %g mu m g: the speed after 0.5 s", ratio)
		assert.InDelta(t, 0, b.V[2], 1e-9, "F = %g mu m g: no turning", ratio)
		if a > 0 {
			assert.InEpsilon(t, -mu*w*b.Q[0], sim.FrictionWork, 1e-3, "F = %g mu m g: the friction work", ratio)
		}
	}
}

// TestRecordOfVelocityOrDisplacement: a record's column may be the
// ground's velocity or displacement (quantity), scaled like an
// acceleration: the driven ground then passes through the displacement
// samples exactly, or moves at the velocity samples; a quantity the
// record does not know, or one given to another motion, is refused.
func TestRecordOfVelocityOrDisplacement(t *testing.T) {
	dir := t.TempDir()
	csv := "time [s],u [mm]\n0,0\n0.1,2\n0.2,-1\n0.3,0\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "u.csv"), []byte(csv), 0o644))
	for _, tc := range []struct {
		quantity string
		check    func(t float64, x, v [2]float64)
	}{
		{"displacement", func(tm float64, x, v [2]float64) {
			want := map[float64]float64{0.1: 2e-3, 0.2: -1e-3, 0.3: 0}[tm]
			assert.InDelta(t, want, x[0], 1e-15, "the ground at the sample of %g s", tm)
		}},
		{"velocity", func(tm float64, x, v [2]float64) {
			want := map[float64]float64{0.1: 2e-3, 0.2: -1e-3, 0.3: 0}[tm]
			assert.InDelta(t, want, v[0], 1e-15, "the ground's velocity at the sample of %g s", tm)
		}},
	} {
		motion := fmt.Sprintf(`motion = { type = "record", file = "u.csv", scale = 1e-3, direction = [1.0, 0.0], quantity = %q }`, tc.quantity)
		text := strings.Replace(rigidMinimal, `motion = { type = "fixed" }`, motion, 1)
		path := filepath.Join(dir, tc.quantity+".toml")
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		sc, err := Load(path)
		require.NoError(t, err, tc.quantity)
		m, err := sc.Model(Variant{})
		require.NoError(t, err, tc.quantity)
		ground := m.Rigid.Bodies[0].Motion
		for _, tm := range []float64{0.1, 0.2, 0.3} {
			tc.check(tm, ground.Offset(tm), ground.Velocity(tm))
		}
	}
	for motion, want := range map[string]string{
		`motion = { type = "record", file = "u.csv", direction = [1.0, 0.0], quantity = "jerk" }`: `motion.quantity = "jerk": expected "acceleration", "velocity" or "displacement"`,
		`motion = { type = "velocity", velocity = [1.0, 0.0], quantity = "velocity" }`:            `motion.quantity is given, but a motion of type "velocity" does not use it`,
	} {
		_, err := Decode(strings.NewReader(strings.Replace(rigidMinimal, `motion = { type = "fixed" }`, motion, 1)), "q.toml")
		assert.ErrorContains(t, err, want)
	}
}
