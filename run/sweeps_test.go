package run

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// TestSweepsCountEverySolve: a step whose contact problem is solved more
// than once (about its predicted end, with its impacts at the
// theta-method's time) counts every solve's sweeps in history.csv: with
// NLGS held to one sweep a solve (max_sweeps = 1, the run going on), a
// step's sweeps are its solves (it reported the last solve's alone).
func TestSweepsCountEverySolve(t *testing.T) {
	for _, name := range []string{"colliding-blocks", "disks-28"} {
		t.Run(name, func(t *testing.T) {
			solves := map[int]int{}
			dir := t.TempDir()
			sc := exampleScene(t, name, "solver.max_sweeps", "1", "solver.method", `"nlgs"`)
			_, err := Scene(context.Background(), sc, Options{Dir: dir, Steps: 400, Version: "v0",
				OnProblem: func(step int, _ *signorini.Problem) error { solves[step]++; return nil }})
			require.NoError(t, err)
			rows := readCSV(t, filepath.Join(dir, "history.csv"))
			col := -1
			for i, h := range rows[0] {
				if h == "sweeps" {
					col = i
				}
			}
			require.GreaterOrEqual(t, col, 0)
			again := 0
			for step, row := range rows[2:] { // the first row is t = 0
				sweeps, err := strconv.Atoi(row[col])
				require.NoError(t, err)
				n := solves[step+1]
				assert.Equal(t, n, sweeps, "step %d: %d solves", step+1, n)
				if n > 1 {
					again++
				}
			}
			t.Logf("%d steps solved more than once", again)
			assert.Positive(t, again, "steps solved again")
		})
	}
}

// landingDisk is a disk that starts touching a floor while it moves into
// it, with a second disk at rest on it: the first step resolves the impact
// at t = 0 (startImpact) before its own problem.
const landingDisk = `
title = "a disk landing"
[time]
h = 1e-3
duration = 0.01
[[rigid]]
name = "floor"
rectangle = [1.0, 0.1]
position = [0.0, -0.05]
motion = { type = "fixed" }
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
[[rigid]]
name = "disk"
radius = 0.1
position = [0.0, 0.1]
velocity = [0.0, -1.0]
rho = 1000
gravity = [0.0, -9.81]
[[rigid]]
name = "top"
radius = 0.1
position = [0.0, 0.3]
velocity = [0.0, -1.0]
rho = 1000
gravity = [0.0, -9.81]
`

// TestSweepsCountTheImpactAtTheStart: the impact resolved at a step's
// start is one of its solves: shown to OnProblem and its sweeps counted
// in history.csv (they were not, which hid most of a granular rain's
// cost). Solved to its tolerance, the landing's first step solves the
// impact and then its own problem; held to one sweep a solve, every step's
// sweeps are its solves.
func TestSweepsCountTheImpactAtTheStart(t *testing.T) {
	solved := func(set ...string) (map[int]int, [][]string) {
		sc := textScene(t, landingDisk, "landing.toml", set...)
		solves := map[int]int{}
		dir := t.TempDir()
		_, err := Scene(context.Background(), sc, Options{Dir: dir, Version: "v0",
			OnProblem: func(step int, _ *signorini.Problem) error { solves[step]++; return nil }})
		require.NoError(t, err)
		return solves, readCSV(t, filepath.Join(dir, "history.csv"))
	}
	solves, _ := solved()
	assert.Equal(t, 2, solves[1], "step 1: the impact at t = 0, then the step's own problem")
	solves, rows := solved("solver.max_sweeps", "1", "solver.method", `"nlgs"`)
	col := slices.Index(rows[0], "sweeps")
	require.GreaterOrEqual(t, col, 0)
	for step, row := range rows[2:] {
		sweeps, err := strconv.Atoi(row[col])
		require.NoError(t, err)
		assert.Equal(t, solves[step+1], sweeps, "step %d", step+1)
	}
}

// TestSolvesByReason: every contact solve of a step is counted under the
// reason it was made (timestep.StepStats.Solves), with its sweeps: a
// step's solves are those OnProblem is shown, their sweeps add up to
// the step's, a step with contact solves its own problem once, and each
// set-up meets the reason it exists for (an impact at t = 0, a
// correction about the predicted end, grains' impacts put at the
// theta-method's time, a hyperelastic body's Newton tangents, a stick
// attempt) and none it cannot.
func TestSolvesByReason(t *testing.T) {
	cases := []struct {
		name  string
		sc    func() *scene.Scene
		steps int
		want  timestep.SolveReason
		none  []timestep.SolveReason
	}{
		{"a disk landing on a floor", func() *scene.Scene { return textScene(t, landingDisk, "landing.toml") }, 10, timestep.StartImpact,
			[]timestep.SolveReason{timestep.NewtonTangent, timestep.StickAttempt}},
		{"colliding blocks", func() *scene.Scene { return exampleScene(t, "colliding-blocks") }, 400, timestep.AboutTheEnd,
			[]timestep.SolveReason{timestep.StartImpact, timestep.ImpactsAtTheta, timestep.NewtonTangent, timestep.StickAttempt}},
		{"disks-28", func() *scene.Scene { return exampleScene(t, "disks-28") }, 600, timestep.ImpactsAtTheta,
			[]timestep.SolveReason{timestep.NewtonTangent, timestep.StickAttempt}},
		{"disc impact (hyperelastic)", func() *scene.Scene { return exampleScene(t, "disc-impact") }, 40, timestep.NewtonTangent,
			[]timestep.SolveReason{timestep.StartImpact, timestep.ImpactsAtTheta, timestep.StickAttempt}},
		{"a mass thrown up an incline", func() *scene.Scene { return textScene(t, thrownUpIncline, "incline.toml") }, 400, timestep.StickAttempt,
			[]timestep.SolveReason{timestep.StartImpact, timestep.ImpactsAtTheta, timestep.NewtonTangent}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.sc().Model(scene.Variant{})
			require.NoError(t, err)
			shown := map[int]int{}
			sim, err := m.Simulation(func(step int, _ *signorini.Problem) error { shown[step]++; return nil })
			require.NoError(t, err)
			var total [timestep.NumSolveReasons]timestep.SolveCount
			for range tc.steps {
				st, err := sim.Step()
				require.NoError(t, err)
				solves, sweeps := 0, 0
				for r, c := range st.Solves {
					solves, sweeps = solves+c.Solves, sweeps+c.Sweeps
					total[r].Solves += c.Solves
					total[r].Sweeps += c.Sweeps
				}
				require.Equal(t, shown[st.Step], solves, "step %d: its solves are those shown", st.Step)
				require.Equal(t, st.Sweeps, sweeps, "step %d: its sweeps", st.Step)
				if st.Units > 0 {
					require.Equal(t, 1, st.Solves[timestep.OwnSolve].Solves, "step %d: its own problem, once", st.Step)
				}
			}
			t.Logf("%v", total)
			assert.Positive(t, total[tc.want].Solves, "%v", tc.want)
			assert.Positive(t, total[tc.want].Sweeps, "%v", tc.want)
			for _, r := range tc.none {
				assert.Zero(t, total[r].Solves, "%v", r)
			}
		})
	}
}
