package scene

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/timestep"
)

// simulate builds a scene's simulation from text (its folder dir, for a
// table's CSV) and takes n steps, checking the ledger closes.
func simulate(t *testing.T, dir, text string, n int) *timestep.Simulation {
	t.Helper()
	sc, err := Decode(strings.NewReader(text), filepath.Join(dir, "scene.toml"))
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	e0 := sim.TotalEnergy()
	for range n {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	e := sim.TotalEnergy()
	assert.InDelta(t, e0.Balance(), e.Balance(), 1e-12*math.Max(1, math.Abs(e.External)), "the ledger closes: %+v", e)
	assert.NotZero(t, e.External, "the load's work is booked")
	return sim
}

// TestLoadTimeClosedForms: a load's time function, on each kind that
// takes one, against the closed form of the motion it drives, with no
// contact and no gravity: the theta-weighted factor over each step's ends
// integrates a ramp and a table's linear pieces exactly (round-off), a
// sine to second order.
//
//   - a mass of 0.5 kg pushed by 2 N ramped over T = 0.1 s: v = F t^2 / (2 m T)
//     and, the trapezoid's position, x = F / (m T) (t^3 / 6 + t h^2 / 12);
//   - the same mass by a table 0 -> 1 -> 1 -> 0 at 0, 0.05, 0.1, 0.15 s: v = F/m 0.1 at 0.15 s;
//   - a rigid disk turned by a moment M sin(2 pi t / P): omega(P/4) = M P / (2 pi I);
//   - an elastic bar pulled by a traction ramped over 20 ms: its momentum
//     tx L_edge T / 2 at T (per m of thickness).
func TestLoadTimeClosedForms(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "push.csv"), []byte("t,f\n0,0\n0.05,1\n0.1,1\n0.15,0\n"), 0o644))
	const mass = `[time]
h = 1e-3
duration = 1.0
[[mass]]
name = "m"
mass = 0.5
position = [0.0, 0.0]
force = [2.0, 0.0]
`
	t.Run("ramp on a mass", func(t *testing.T) {
		sim := simulate(t, dir, mass+`load_time = { type = "ramp", duration = 0.1 }`+"\n", 100)
		m := sim.Points.Masses[0]
		tt, h := 0.1, 1e-3
		assert.InDelta(t, 2*tt*tt/(2*0.5*0.1), m.V[0], 1e-14)
		assert.InDelta(t, 2/(0.5*0.1)*(tt*tt*tt/6+tt*h*h/12), m.X[0], 1e-15)
	})
	t.Run("table on a mass", func(t *testing.T) {
		sim := simulate(t, dir, mass+`load_time = { type = "table", file = "push.csv", column = "f" }`+"\n", 150)
		assert.InDelta(t, 2/0.5*0.1, sim.Points.Masses[0].V[0], 1e-14)
	})
	t.Run("sine on a rigid body", func(t *testing.T) {
		sim := simulate(t, dir, `[time]
h = 1e-4
duration = 1.0
[[rigid]]
name = "disk"
radius = 0.1
position = [0.0, 0.0]
rho = 1000
moment = 3.0
load_time = { type = "sine", period = 0.2 }
`, 500)
		b := sim.Rigid.Bodies[0]
		want := 3.0 * 0.2 / (2 * math.Pi * b.Inertia)
		assert.InDelta(t, want, b.V[2], 1e-6*want, "omega at a quarter period")
	})
	t.Run("ramp on a traction", func(t *testing.T) {
		text := strings.Replace(barScene("Q4", `{ group = "right", value = [1e5, 0.0], time = { type = "ramp", duration = 0.02 } }`), "ramp = 0.02\n", "", 1)
		text = strings.Replace(text, `fixed = [{ group = "left" }]`, "", 1)
		text = strings.Replace(text, "damping = { alpha = 200.0 }\n", "", 1)
		sim := simulate(t, dir, text, 200)
		b := sim.Stepper.Body(0)
		m, v := b.NodalMasses(), b.Velocity()
		var p float64
		for i, mi := range m {
			p += mi * v[2*i]
		}
		assert.InDelta(t, 1e5*0.1*0.02/2, p, 1e-9*100, "momentum: the ramp's impulse")
	})
}

// TestLoadTimeRefused: a time function out of its form is refused naming
// the key and the fix.
func TestLoadTimeRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "back.csv"), []byte("t,f\n0,0\n0.2,1\n0.1,0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nan.csv"), []byte("t,f\n0,0\n0.1,nan\n"), 0o644))
	base := "[time]\nh = 1e-3\nduration = 1.0\n[[mass]]\nname = \"m\"\nmass = 1.0\nposition = [0.0, 0.0]\n"
	for _, tc := range []struct{ add, want string }{
		{"force = [1.0, 0.0]\nload_time = { type = \"step\" }\n", `mass "m": load_time.type = "step": expected "ramp", "sine" or "table"`},
		{"force = [1.0, 0.0]\nload_time = { type = \"ramp\" }\n", `load_time.duration = 0: expected the ramp's positive duration in s`},
		{"force = [1.0, 0.0]\nload_time = { type = \"ramp\", duration = 1.0, period = 2.0 }\n", `load_time.period is given, but a time function of type "ramp" does not use it`},
		{"force = [1.0, 0.0]\nload_time = { type = \"sine\", period = -1.0 }\n", `load_time.period = -1: expected a positive period in s`},
		{"force = [1.0, 0.0]\nload_time = { type = \"table\" }\n", `load_time.file is missing`},
		{"force = [1.0, 0.0]\nload_time = { type = \"sine\", period = 1e-300 }\n", `mass "m": load_time: period = 1e-300: a sine shorter than two steps of h = 0.001 s`},
		{"load_time = { type = \"ramp\", duration = 1.0 }\n", `load_time is given without a force for it to vary`},
		{"force = [1.0, 0.0]\nload_time = { type = \"table\", file = \"back.csv\" }\n", `back.csv: row 3's time 0.1 is not after the one before (0.2)`},
		{"force = [1.0, 0.0]\nload_time = { type = \"table\", file = \"nan.csv\" }\n", `nan.csv line 3: "0.1", "nan": expected a time and a factor`},
		{"force = [1.0, 0.0]\nload_time = { type = \"table\", file = \"none.csv\" }\n", `load_time.file: `},
		{"force = [1.0, 0.0]\nload_time = { type = \"table\", file = \"back.csv\", column = \"g\" }\n", `no column "g" (it has t, f): give load_time.column`},
	} {
		sc, err := Decode(strings.NewReader(base+tc.add), filepath.Join(dir, "scene.toml"))
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		require.Error(t, err, tc.add)
		assert.Contains(t, err.Error(), tc.want)
	}
	_, err := Decode(strings.NewReader("[time]\nh = 1e-3\nduration = 1.0\n[[rigid]]\nname = \"g\"\nradius = 1.0\nposition = [0.0, 0.0]\nrho = 1000\nload_time = { type = \"ramp\", duration = 1.0 }\n"), "r.toml")
	assert.ErrorContains(t, err, `rigid body "g": load_time is given without a force or a moment`)
}
