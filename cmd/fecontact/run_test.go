package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/vtkcheck"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/signorini"
)

// TestExampleRun runs the README's first command, shortened, and opens what
// it wrote with VTK.
func TestExampleRun(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := fecontact("example", "colliding-blocks", "--steps", "120", "-o", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "done: 120 steps")
	assert.Contains(t, stdout, "0 unconverged")
	assert.Contains(t, stdout, `deepest node inside the other body or obstacle: at the start of step 62, contact pair 1 "upper-on-lower": node 332 of body "lower", at (0.0877939, 0.0387301), is 7.74e-06 m inside body "upper"`,
		"the reverse pass's nodes are measured too")
	bodies := vtkcheck.Read(t, filepath.Join(dir, "bodies.pvd"))
	require.Len(t, bodies, 2*13, "two bodies at t = 0 and every 10 steps")
	assert.Equal(t, 341, bodies[0].Points, "lower block: 31 x 11 nodes")
	assert.Equal(t, 121, bodies[1].Points, "upper block: 11 x 11 nodes")
	assert.Equal(t, []int{9}, bodies[1].Types)
	assert.Less(t, bodies[len(bodies)-1].U3[1], 0.0, "the upper block has moved down")
	contacts := vtkcheck.Read(t, filepath.Join(dir, "contacts.pvd"))
	require.Len(t, contacts, 13)
	// At t = 0 the blocks are apart: the piece holds the units found
	// within the alert distance (the upper block's 11 bottom nodes), with
	// no impulse, and declares every array the later pieces do.
	assert.Equal(t, 11, contacts[0].Points)
	assert.Zero(t, contacts[0].Sums["impulse_normal"])
	assert.Zero(t, contacts[0].Maxes["force"])
	assert.Equal(t, contacts[12].Arrays, contacts[0].Arrays)
	assert.Subset(t, contacts[0].Arrays, []string{"force", "normal", "impulse_normal", "status", "weight"})
	last := contacts[12]
	direct := float64(last.Points) - last.Sums["reverse"]
	assert.GreaterOrEqual(t, direct, 11.0, "the upper block's 11 bottom nodes against the lower block (and a second unit where one sits in a dent)")
	assert.LessOrEqual(t, direct, 22.0)
	assert.Equal(t, 0.0, last.Sums["pair"], "one pair")
	assert.Equal(t, direct, last.Sums["body"], "the direct units are nodes of the upper block (body 1), the reverse ones of the lower (body 0)")
	assert.Contains(t, last.Arrays, "node")
	assert.Equal(t, []int{1}, contacts[12].Types, "vertex cells")
	for _, f := range []string{"history.csv", "energy.png"} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
		assert.Greater(t, st.Size(), int64(1000), f)
	}
	hist, err := os.ReadFile(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	rows := strings.Split(strings.TrimSpace(string(hist)), "\n")
	assert.Len(t, rows, 122)
	header := strings.Split(rows[0], ",")
	depth := results.ColumnIndex(header, "depth")
	require.Positive(t, depth, rows[0])
	depthAt := func(step int) float64 { // at the start of the step
		d, err := strconv.ParseFloat(strings.Split(rows[step+1], ",")[depth], 64)
		require.NoError(t, err)
		return d
	}
	deepest := 0.0
	for step := 1; step <= 120; step++ {
		deepest = math.Max(deepest, depthAt(step))
	}
	assert.InDelta(t, 7.74e-6, deepest, 0.005e-6, "history's depth column")
	// bodies.pvd's nodal depth at the end of step 10k is the history's at
	// the start of step 10k + 1.
	for k := 0; k < 12; k++ {
		want := depthAt(10*k + 1)
		got := math.Max(bodies[2*k].Maxes["depth"], bodies[2*k+1].Maxes["depth"])
		assert.InDelta(t, want, got, 1e-5*want+1e-300, "t = %d us", 10*k)
	}
	assert.Positive(t, bodies[12].Maxes["depth"]+bodies[13].Maxes["depth"], "a node inside at step 60")
}

// TestPillarRun runs the pillar example briefly and opens its rigid bodies
// with VTK: 19 polygons (VTK type 7) with their velocities, the gap's
// column and picture.
func TestPillarRun(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := fecontact("example", "pillar", "--steps", "100", "-o", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, ": 19 rigid bodies, 100 steps")
	assert.Contains(t, stdout, "rigid.pvd")
	rigid := vtkcheck.Read(t, filepath.Join(dir, "rigid.pvd"))
	require.Len(t, rigid, 3, "t = 0, 0.05 and 0.1 s")
	assert.Equal(t, []int{7}, rigid[2].Types, "polygons")
	assert.Equal(t, 19, rigid[2].Cells)
	assert.Equal(t, 4*19, rigid[2].Points)
	assert.Contains(t, rigid[2].Arrays, "velocity")
	assert.NotZero(t, rigid[2].Sums["velocity"], "the ground moves")
	contacts := vtkcheck.Read(t, filepath.Join(dir, "contacts.pvd"))
	assert.Equal(t, -float64(contacts[2].Points), contacts[2].Sums["pair"], "contacts between rigid bodies have pair -1")
	hist, err := os.ReadFile(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	head := strings.SplitN(string(hist), "\n", 2)[0]
	assert.Contains(t, head, ",block01_cx [m],block01_cy [m],block01_angle [rad],block01_px [kg m/s per m],block01_py [kg m/s per m],block01_L [kg m^2/s per m],")
	assert.Contains(t, head, ",gap_block01_block02 [m]")
	assert.Contains(t, head, "step,time [s],kinetic [J],")
	for _, f := range []string{"gaps.png", "bodies.png"} {
		_, err := os.Stat(filepath.Join(dir, f))
		assert.NoError(t, err, f)
	}
}

func TestRunAndInfoErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[time]\nh = -1e-6\nduration = 1e-3\n"), 0o644))
	// A block 5 mm into a floor, whose alert distance is 1 mm.
	sunk := filepath.Join(dir, "sunk.toml")
	require.NoError(t, os.WriteFile(sunk, []byte(`[time]
h = 1e-5
duration = 1e-4
[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, -0.005], size = [0.1, 0.05], cells = [4, 2] }
E = 1e8
rho = 1000
[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]
[[contact]]
candidate = { body = "block", group = "bottom" }
obstacle = "floor"
alert = 0.001
`), 0o644))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", bad}, 1, "bad.toml: [time]: h = -1e-06: expected a positive time step in s"},
		{[]string{"info", bad}, 1, "bad.toml: [time]: h = -1e-06"},
		{[]string{"info", sunk}, 1, "sunk.toml: 1 contact pairs start with a node inside the other body deeper than the alert distance: run would refuse it"},
		{[]string{"run", sunk, "-o", filepath.Join(dir, "sunk")}, 1, `is 0.005 m inside obstacle "floor", deeper than the alert distance 0.001 m`},
		{[]string{"run"}, 2, "expected one scene file"},
		{[]string{"example", "nope"}, 2, `no example "nope" (examples: arch-shake, colliding-blocks, disc-impact, disc-on-block, disks-28, klarbring, pillar, pillar-staggered, pillar-taller-block, point-impact, poured-sample, repose-pile, resting-block, shake-wall, slope-flow)`},
		{[]string{"example", "colliding-blocks", "--refine", "0"}, 2, "--refine 0"},
		{[]string{"example", "colliding-blocks", "--steps", "-5"}, 2, "--steps -5: expected a number of steps >= 1"},
		{[]string{"example", "colliding-blocks", "--every", "-3"}, 2, "--every -3: expected a number of steps >= 1"},
		{[]string{"example", "colliding-blocks", "--export-step", "-1"}, 2, "--export-step -1: expected a step number >= 1"},
		{[]string{"example", "colliding-blocks", "--export-step", "800"}, 2, "--export-step 800: the scene has 750 steps"},
		{[]string{"example", "colliding-blocks", "--kind", "Q9", "-o", dir}, 1, `unknown cell kind "Q9"`},
		{[]string{"example", "colliding-blocks", "--checkpoint", "-3"}, 2, "--checkpoint every -3 steps: expected a number of steps >= 1, a time such as 10m, or off"},
		{[]string{"example", "colliding-blocks", "--checkpoint", "soon"}, 2, `--checkpoint "soon": expected a number of steps (500), a time (90s, 10m, 1h) or off`},
		{[]string{"run", "--resume", dir, "--refine", "2", "--every", "5"}, 2, "--resume " + dir + " goes on with the run as it was started: leave out --every, --refine (--until T runs it longer)"},
		{[]string{"run", "--resume", dir, bad}, 2, "takes the scene beside its checkpoint (scene-as-run.toml): leave out"},
		{[]string{"run", "--until", "1", bad}, 2, "--until 1: only with --resume DIR"},
		{[]string{"run", "--resume", dir, "--until", "nan"}, 2, "--until NaN: expected a time in s"},
		{[]string{"run", "--resume", dir, "--until", "0"}, 2, "--until 0: expected a time in s past the run's (leave --until out"},
		{[]string{"run", "--until", "0", bad}, 2, "--until 0: expected a time in s past the run's"},
		{[]string{"run", "--resume", filepath.Join(dir, "none")}, 1, filepath.Join(dir, "none") + ": no such folder: expected the folder of a fecontact run"},
	} {
		code, _, stderr := fecontact(tc.args...)
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

func TestInfo(t *testing.T) {
	code, stdout, stderr := fecontact("info", "../../examples/colliding-blocks/scene.toml")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{
		"time: h = 1e-06 s, theta = 0.5, 750 steps",
		"body lower: 341 nodes, 300 cells, 620 DOFs (62 fixed)",
		"body upper: 121 nodes, 100 cells, 242 DOFs (0 fixed); mass 12.48 kg",
		"wave speeds: P 430.3 m/s",
		`contact "upper-on-lower": 11 candidate nodes`,
		"size before building: 462 nodes, 924 DOFs, about",
	} {
		assert.Contains(t, stdout, want)
	}
	// The run time, from a second of trial steps (all 750 on a quiet
	// machine, fewer under the race detector).
	m := regexp.MustCompile(`run time: about ([\d.e+-]+) (s|min|h) on this machine \(setup \S+ s, then \S+ ms per step over the first (\d+) of 750 steps`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	trial, err := strconv.Atoi(m[3])
	require.NoError(t, err)
	assert.True(t, trial >= 1 && trial <= 750, "trial steps %d", trial)
	// A scene too large for any machine: info prints its size and does
	// not build it; run refuses it before allocating.
	code, stdout, stderr = fecontact("info", "../../examples/colliding-blocks/scene.toml", "--refine", "100000")
	require.Equal(t, 1, code, "info refuses what run refuses")
	assert.Contains(t, stdout, "size before building: 4e+12 nodes")
	assert.Contains(t, stdout, "too large: run would refuse it")
	assert.Contains(t, stderr, "the bodies would have 4e+12 nodes")
	code, _, stderr = fecontact("example", "colliding-blocks", "--refine", "100000", "-o", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "the bodies would have 4e+12 nodes, more than 1e+09")
}

// TestInfoRigidPair: a [[contact]] whose antagonist is a rigid body
// (rigid = "plate") names it (info printed "obstacle " and nothing).
func TestInfoRigidPair(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.toml")
	require.NoError(t, os.WriteFile(path, []byte(`
[time]
h = 1e-4
duration = 1e-3
[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.05, 0.051], size = [0.1, 0.05], cells = [8, 4] }
E = 1e7
rho = 1000
[[rigid]]
name = "plate"
rectangle = [0.3, 0.05]
position = [0.0, 0.025]
rho = 1000
[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "plate"
`), 0o644))
	code, stdout, stderr := fecontact("info", path)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `contact "": 9 candidate nodes (bottom of body block) against rigid body "plate"; mu 0`)
}

func TestSolve(t *testing.T) {
	files, _ := filepath.Glob("../../signorini/testdata/fc2d/FrictionContactProblem00*.json")
	require.Len(t, files, 6)
	code, stdout, stderr := fecontact(append([]string{"solve", "-K", "1"}, files...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "FrictionContactProblem00237.json")
	assert.NotContains(t, stdout, "not converged")
	code, _, stderr = fecontact("solve", "--order", "sideways", files[0])
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--order "sideways"`)
}

// TestExportStep exports the contact problem of a step of the colliding
// blocks and solves it again with the solve command and with NLGS: step
// 100 solves two problems (the second about the predicted end
// configuration), and the file holds the second, whose solution the step
// applied: solved anew, its normal impulses sum to those contacts.pvd
// gives for the step (it held the first, whose solution was discarded).
func TestExportStep(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := fecontact("example", "colliding-blocks", "--steps", "100", "--export-step", "100", "--quiet", "-o", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "problem_100.json (12 contacts; the last of the 2 problems step 100 solved, the one whose solution it applied)")
	code, stdout, stderr = fecontact("solve", "-K", "1", filepath.Join(dir, "problem_100.json"))
	require.Equal(t, 0, code, stderr)
	for _, tc := range [][]string{{"--tol", "nan", "--tol NaN: expected a positive, finite tolerance"}, {"--tol", "-1", "--tol -1: expected"},
		{"--max-sweeps", "-5", "--max-sweeps -5: expected at least 1"}} {
		code, _, stderr := fecontact("solve", tc[0], tc[1], filepath.Join(dir, "problem_100.json"))
		assert.Equal(t, 2, code, tc[0])
		assert.Contains(t, stderr, tc[2])
	}
	assert.Contains(t, stdout, "problem_100.json")
	p, _, err := signorini.ReadProblem(filepath.Join(dir, "problem_100.json"))
	require.NoError(t, err)
	res, err := signorini.NLGS(p, signorini.Options{Tol: 1e-12, ChangeTol: -1, MaxSweeps: 100000})
	require.NoError(t, err)
	var sum float64
	for a := range p.Mu {
		sum += res.R[2*a]
	}
	pieces := vtkcheck.Read(t, filepath.Join(dir, "contacts.pvd"))
	last := pieces[len(pieces)-1]
	require.InDelta(t, 1e-4, last.Time, 1e-15, "the piece of step 100")
	assert.InDelta(t, last.Sums["impulse_normal"], sum, 1e-6*math.Abs(sum), "the applied impulses")
}

// TestFailedRunLeavesNoCompleteHistory: a strict solver that cannot
// converge stops the run at the first contact; what was written is
// complete or marked partial.
func TestFailedRunLeavesNoCompleteHistory(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../examples/colliding-blocks/scene.toml")
	require.NoError(t, err)
	text := strings.Replace(string(data), "strict = false", "strict = true", 1)
	text = strings.Replace(text, "max_sweeps = 10000", "max_sweeps = 1", 1)
	scene := filepath.Join(dir, "strict.toml")
	require.NoError(t, os.WriteFile(scene, []byte(text), 0o644))
	out := filepath.Join(dir, "out")
	code, _, stderr := fecontact("run", scene, "--quiet", "-o", out)
	require.Equal(t, 1, code)
	assert.Contains(t, stderr, "the contact problem's solve did not converge")
	assert.Contains(t, stderr, "history.csv.partial")
	_, err = os.Stat(filepath.Join(out, "history.csv"))
	assert.True(t, os.IsNotExist(err), "no history.csv from a failed run")
	_, err = os.Stat(filepath.Join(out, "history.csv.partial"))
	assert.NoError(t, err)
	info := vtkcheck.Read(t, filepath.Join(out, "bodies.pvd"))
	assert.NotEmpty(t, info, "the pieces listed are complete and readable")
}

// TestRestingBlockBalance: a body that starts at rest has no initial
// energy; its ledger is measured against the work of gravity, not divided
// by zero. --quiet prints the summary and nothing else, even over an
// earlier run.
func TestRestingBlockBalance(t *testing.T) {
	dir := t.TempDir()
	var stdout string
	for range 2 {
		code, out, stderr := fecontact("example", "resting-block", "--steps", "200", "--quiet", "-o", dir)
		require.Equal(t, 0, code, stderr)
		summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
		require.NoError(t, err)
		require.Equal(t, string(summary), out)
		stdout = out
	}
	m := regexp.MustCompile(`balance error (\S+) J, (\S+) relative to (\S+) J`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	rel, err := strconv.ParseFloat(m[2], 64)
	require.NoError(t, err)
	scale, err := strconv.ParseFloat(m[3], 64)
	require.NoError(t, err)
	assert.Less(t, rel, 1e-9, "the ledger closes")
	assert.Greater(t, scale, 0.0, "the external work is the scale")
}

// TestHistoryForcesAndMomenta: the upper block is free and only contact
// acts on it, so the history's contact force times h, summed over the
// steps, is the change of its momentum (the impulse theorem), and the
// closed units never outnumber those within the alert distance.
func TestHistoryForcesAndMomenta(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := fecontact("example", "colliding-blocks", "--steps", "300", "--quiet", "-o", dir)
	require.Equal(t, 0, code, stderr)
	rows := readCSV(t, filepath.Join(dir, "history.csv"))
	col := map[string]int{}
	unitless := regexp.MustCompile(`^(step|contacts|open|stick|slide|sweeps|contact_newton|residual|complementarity_rel|cone_violation|converged|contact\d+_closed)$`)
	for i, name := range rows[0] {
		col[results.ColumnName(name)] = i
		assert.True(t, unitless.MatchString(name) || strings.HasSuffix(name, "]"), "column %q has no unit", name)
	}
	num := func(r []string, name string) float64 {
		i, ok := col[name]
		require.True(t, ok, name)
		v, err := strconv.ParseFloat(r[i], 64)
		require.NoError(t, err, name)
		return v
	}
	const h = 1e-6
	var impulse [2]float64
	for _, r := range rows[2:] {
		impulse[0] += h * num(r, "contact1_fx")
		impulse[1] += h * num(r, "contact1_fy")
		assert.LessOrEqual(t, num(r, "contact1_closed"), num(r, "contacts"))
	}
	first, last := rows[1], rows[len(rows)-1]
	dp := [2]float64{num(last, "upper_px") - num(first, "upper_px"), num(last, "upper_py") - num(first, "upper_py")}
	require.Greater(t, dp[1], 100.0, "the impact has turned the block")
	assert.InDelta(t, dp[0], impulse[0], 1e-6*math.Abs(dp[1]), "x impulse")
	assert.InDelta(t, dp[1], impulse[1], 1e-6*math.Abs(dp[1]), "y impulse")
	assert.Equal(t, 11.0, num(last, "contact1_closed"), "the 11 bottom nodes press on the lower block")
	assert.InDelta(t, -936.0, num(first, "upper_px"), 1e-9, "rho A v0 = 7800 x 0.0016 x -75")
}

func TestPlot(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b.csv")
	require.NoError(t, os.Mkdir(a, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(a, "history.csv"), []byte("step,time,gap\n0,0,0.001\n1,0.1,0.002\n"), 0o644))
	require.NoError(t, os.WriteFile(b, []byte("step,time,gap\n0,0,0.001\n1,0.1,x\n"), 0o644))
	out := filepath.Join(dir, "gap.png")
	code, stdout, stderr := fecontact("plot", "gap", a, "-o", out, "--scale", "1000", "--unit", "mm")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+out+": gap of 1 runs")
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plot", "gap"}, 2, "expected a column of history.csv and at least one run"},
		{[]string{"plot", "gap", a, "--scale", "nan"}, 2, "--scale NaN: expected a finite, non-zero factor"},
		{[]string{"plot", "gapp", a}, 1, `history.csv: no column "gapp" (columns: [step time gap])`},
		{[]string{"plot", "gap", b}, 1, `b.csv: line 3: time "0.1", gap "x": expected numbers`},
	} {
		code, _, stderr := fecontact(tc.args...)
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// grainOnTwo is a scene of a disk above two fixed disks, its centre at
// height y, run for duration at h = 1 ms.
func grainOnTwo(duration, y float64) string {
	return fmt.Sprintf(`
[time]
h = 1e-3
duration = %g

[[rigid]]
name = "A"
radius = 0.05
position = [-0.06, 0.0]
motion = { type = "fixed" }

[[rigid]]
name = "B"
radius = 0.05
position = [0.06, 0.0]
motion = { type = "fixed" }

[[rigid]]
name = "top"
radius = 0.05
position = [0.0, %g]
rho = 1000
gravity = [0.0, -9.81]

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
`, duration, y)
}

// TestExplore surveys a disk resting on two fixed disks (a scene of one
// step): the forces sampled in both modalities lie on the segment that its
// equilibrium allows, which explore.txt reports and solutions.csv lists.
func TestExplore(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "grain.toml")
	require.NoError(t, os.WriteFile(sc, []byte(grainOnTwo(1e-3, 0.08)), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := fecontact("explore", sc, "-o", out, "--solutions", "40")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "2 contacts, 3 bodies")
	assert.Contains(t, stdout, "random guess: 40 solutions (0 runs left out")
	assert.Contains(t, stdout, "0 dots lie outside them")
	assert.Contains(t, stdout, "top on two supports (contacts 1 and 2): at contact 1 its own equilibrium allows (R_T, R_N) from (-")
	csv, err := os.ReadFile(filepath.Join(out, "solutions.csv"))
	require.NoError(t, err)
	assert.Len(t, strings.Split(strings.TrimSpace(string(csv)), "\n"), 1+2*40*2, "header, 2 modalities x 40 runs x 2 contacts")
	for _, f := range []string{"contact_1.png", "forces.png", "explore.txt", "admissible.csv"} {
		_, err := os.Stat(filepath.Join(out, f))
		assert.NoError(t, err, f)
	}
	code, stdout, stderr = fecontact("explore", sc, "-o", filepath.Join(dir, "moving"), "--solutions", "10", "--moving", "--contacts", "1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "2 contacts, 3 bodies, in motion: the force fan of one step, in random order")
	assert.Contains(t, stdout, "random order: 10 solutions")
	assert.Regexp(t, `contact 1: \S+; R_N spreads over \S+ N/m, R_T over \S+ N/m`, stdout)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"explore", sc, "--modality", "all"}, 2, `--modality "all": expected guess, order or both`},
		{[]string{"explore", sc, "--contacts", "3", "-o", out}, 2, `--contacts: "3" is not a contact number in 1..2`},
		{[]string{"explore", "resting-block", "-o", out}, 1, "explore surveys rigid bodies at rest: the scene has no [[rigid]] body"},
		{[]string{"explore", "nope"}, 2, `nope is no scene file, and no example "nope"`},
		{[]string{"explore", sc, "--solutions", "-1", "-o", out}, 1, "explore: -1 solutions per modality: expected 1 to 1000000 (--solutions -1, --tol 1e-08)"},
		{[]string{"explore", sc, "--tol", "nan", "-o", out}, 1, "explore: tolerance NaN: expected a residual in (0, 1)"},
	} {
		code, _, stderr := fecontact(tc.args...)
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestExploreState: a run of a scene leaves state.json, and explore from
// it surveys exactly what explore running the scene itself does (the
// same solutions to the bit); a state of another scene, with a body the
// scene lacks, or with NaN, is an error that says which.
func TestExploreState(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "drop.toml")
	scene := grainOnTwo(0.05, 0.085)
	require.NoError(t, os.WriteFile(sc, []byte(scene), 0o644))
	run := filepath.Join(dir, "run")
	code, stdout, stderr := fecontact("run", sc, "-o", run, "--quiet")
	require.Equal(t, 0, code, stderr)
	state := filepath.Join(run, "state.json")
	assert.Contains(t, stdout, "wrote "+state+": the rigid bodies at t = 0.05 s")
	survey := func(want string, args ...string) string {
		out := filepath.Join(dir, fmt.Sprint("explore", len(args)))
		code, stdout, stderr := fecontact(append([]string{"explore", sc, "-o", out, "--solutions", "20"}, args...)...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, want)
		assert.Contains(t, stdout, "2 contacts, 3 bodies")
		csv, err := os.ReadFile(filepath.Join(out, "solutions.csv"))
		require.NoError(t, err)
		return string(csv)
	}
	assert.Equal(t, survey("running 50 steps"), survey("from "+state+" (step 50, t = 0.05 s)", "--state", state), "the same solutions")

	other := filepath.Join(dir, "other.toml")
	require.NoError(t, os.WriteFile(other, []byte(strings.Replace(scene, `name = "top"`, `name = "grain"`, 1)), 0o644))
	data, err := os.ReadFile(state)
	require.NoError(t, err)
	nan := filepath.Join(dir, "nan.json")
	require.NoError(t, os.WriteFile(nan, []byte(strings.Replace(string(data), `"v": [`, `"v": [NaN, `, 1)), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", other, "--state", state}, `rigid body "grain" of the scene is not in the state: the state is of another scene`},
		{[]string{"explore", sc, "--state", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{[]string{"explore", sc, "--state", nan}, "state " + nan + ": invalid character 'N'"},
	} {
		code, _, stderr := fecontact(append(tc.args, "-o", filepath.Join(dir, "x"))...)
		assert.Equal(t, 1, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestSlopeFlowProfile runs a small periodic slope flow (40 grains, 0.2
// s) twice with the same seed: the velocity profiles are identical to the
// bit, and every strip the grains reach has its mean.
func TestSlopeFlowProfile(t *testing.T) {
	data, err := os.ReadFile("../../examples/slope-flow/scene.toml")
	require.NoError(t, err)
	pairs := []string{"count = 450", "count = 40", "every = 250\n", "every = 2000\n", "pictures = [0.0, 0.2]", "pictures = [0.0]",
		"[[0.0, 0.016], [0.2, 0.42]]", "[[0.0, 0.016], [0.2, 0.2]]", "y = [0.0, 0.3]", "y = [0.0, 0.12]"}
	for i := 0; i < len(pairs); i += 2 {
		require.Contains(t, string(data), pairs[i], "the slope-flow example")
	}
	small := strings.NewReplacer(pairs...).Replace(string(data))
	dir := t.TempDir()
	sc := filepath.Join(dir, "flow.toml")
	require.NoError(t, os.WriteFile(sc, []byte(small), 0o644))
	var profiles [2]string
	for k := range profiles {
		out := filepath.Join(dir, fmt.Sprint("run", k))
		code, _, stderr := fecontact("run", sc, "-o", out, "--quiet")
		require.Equal(t, 0, code, stderr)
		p, err := os.ReadFile(filepath.Join(out, "profile.csv"))
		require.NoError(t, err)
		profiles[k] = string(p)
	}
	require.Equal(t, profiles[0], profiles[1], "reproducible with a seed")
	lines := strings.Split(strings.TrimSpace(profiles[0]), "\n")
	require.Len(t, lines, 13, "header and 12 strips")
	reached := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		n, err := strconv.Atoi(f[3])
		require.NoError(t, err, l)
		if n > 0 {
			reached++
			_, err := strconv.ParseFloat(f[2], 64)
			require.NoError(t, err, l)
			require.NotEqual(t, "NaN", f[2], l)
		}
	}
	assert.GreaterOrEqual(t, reached, 3, "strips with grains")
}

// writeBar writes the scene of a bar 10 um from a wall, moving at 1 m/s,
// into dir and returns its path.
func writeBar(t *testing.T, dir string) string {
	t.Helper()
	sc := filepath.Join(dir, "bar.toml")
	require.NoError(t, os.WriteFile(sc, []byte(`
[time]
h = 1e-6
duration = 8e-4

[[body]]
name = "bar"
rectangle = { kind = "Q4", origin = [1e-5, 0.0], size = [0.1, 0.01], cells = [40, 1] }
E = 1e8
nu = 0.0
rho = 1000
plane = "stress"
velocity = [-1.0, 0.0]

[[obstacle]]
name = "wall"
points = [[0.0, 1.0], [0.0, -1.0]]

[[contact]]
candidate = { body = "bar", group = "left" }
obstacle = "wall"
`), 0o644))
	return sc
}

// TestSweep: a bar hitting a wall at 1, 2 and 3 m/s (the 1D wave: contact
// for 2L/c whatever the speed, a force rho c v A) swept on the cores:
// sweep.csv has a row per speed with the same contact duration (2L/c
// within 1.5 %), the same share of kinetic energy kept (within 1 %) and a
// peak force of at least rho c v A, each run in its folder, and
// sweep.png; bad --set values are usage errors that say what is expected.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	sc := writeBar(t, dir)
	out := filepath.Join(dir, "sweep")
	code, stdout, stderr := fecontact("sweep", sc, "--set", "body.bar.velocity=[-1,0]..[-3,0]", "-o", out)
	require.Equal(t, 0, code, stderr+stdout)
	assert.Contains(t, stdout, "3 variants")
	data, err := os.ReadFile(filepath.Join(out, "sweep.csv"))
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 4, string(data))
	assert.Equal(t, "[-1.0, 0.0]", rows[1][2])
	assert.Equal(t, []string{"contact_duration [s]", "peak_force [N/m]", "kinetic_ratio"}, rows[0][3:6])
	var dur, peak, kept [3]float64
	for k, r := range rows[1:] {
		for i, dst := range []*float64{&dur[k], &peak[k], &kept[k]} {
			*dst, err = strconv.ParseFloat(r[3+i], 64)
			require.NoError(t, err)
		}
		_, err = os.Stat(filepath.Join(out, r[1], "history.csv"))
		assert.NoError(t, err)
	}
	for k := range 3 {
		assert.InDelta(t, dur[0], dur[k], 0.01*dur[0], "durations")
		assert.InDelta(t, kept[0], kept[k], 0.01, "kinetic energy kept")
		// The per-step force's peak is the first contact step's: the end
		// node stopped within a step (1.6 to 2 times the plateau rho c v0 A
		// measured, with the phase of the first touch in the step).
		plateau := 1000 * math.Sqrt(1e8/1000) * float64(k+1) * 0.01
		assert.GreaterOrEqual(t, peak[k], plateau, "peak force")
		assert.LessOrEqual(t, peak[k], 2.1*plateau, "peak force")
	}
	assert.InDelta(t, 2*0.1/math.Sqrt(1e8/1000), dur[0], 0.015*2*0.1/math.Sqrt(1e8/1000), "2L/c")
	_, err = os.Stat(filepath.Join(out, "sweep.png"))
	assert.NoError(t, err)
	// A first key of words: the plot takes the first key of numbers.
	out = filepath.Join(dir, "orders")
	code, stdout, stderr = fecontact("sweep", sc, "--set", `solver.order="natural"|"random"`, "--set", "body.bar.velocity=[-1,0]|[-2,0]", "-o", out)
	require.Equal(t, 0, code, stderr+stdout)
	_, err = os.Stat(filepath.Join(out, "sweep.png"))
	assert.NoError(t, err, stderr)
	// Only words: sweep.csv, and no picture to draw.
	out = filepath.Join(dir, "words")
	code, stdout, stderr = fecontact("sweep", sc, "--set", `solver.order="natural"|"random"`, "-o", out)
	require.Equal(t, 0, code, stderr+stdout)
	assert.Contains(t, stdout, "wrote "+out+": sweep.csv and variant_*/")
	_, err = os.Stat(filepath.Join(out, "sweep.png"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", sc, "--set", "body.bar.velocity"}, `expected KEY=V1|V2|... or KEY=A..B or KEY=A..B/N`},
		{[]string{"sweep", sc, "--set", "time.h=1e-6..2e-6"}, "range 1e-6..2e-6: give the number of values, as 1e-6..2e-6/N"},
		{[]string{"sweep", sc, "--set", "body.rod.velocity=[1.0, 0.0]"}, `no [[body]] named "rod" (there are bar; or a number from 1 to 1)`},
		{[]string{"sweep", sc}, "expected at least one --set KEY=VALUES"},
		// Sizes refused before the value lists are made (issue 30: 16 GB
		// for the first, minutes of silence for the others).
		{[]string{"sweep", sc, "--set", "contact.1.mu=0..1000000000"}, "range 0..1000000000: 1e+09 values by steps of 1, more than the 10000 variants a sweep runs: give the number of values, as 0..1000000000/N"},
		{[]string{"sweep", sc, "--set", "contact.1.mu=0..1/1000000000"}, "range 0..1/1000000000: /1000000000: expected a count from 2 to 10000"},
		{[]string{"sweep", sc, "--set", "contact.1.mu=0..1/1000", "--set", "time.h=1e-6..2e-6/1000"}, "time.h: the --set flags make 1e+06 variants, more than the 10000 a sweep runs"},
		{[]string{"sweep", sc, "--set", "contact.1.mu=nan..1/3"}, "range nan..1/3: expected two finite numbers"},
	} {
		code, _, stderr := fecontact(append(tc.args, "-o", filepath.Join(dir, "x"))...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestRunNewtonSummary: a run with a hyperelastic body reports its Newton
// iterations per step in the summary and per step in history.csv's newton
// column, with the factorisations: as many as iterations under newton =
// "full" (2 to 4 per step for the disc's first steps of contact at
// 8 m/s), fewer than half as many under the example's "modified"; a run
// without one reports neither.
func TestRunNewtonSummary(t *testing.T) {
	dir := t.TempDir()
	newton := regexp.MustCompile(`Newton: ([0-9.]+) iterations per step \(max ([0-9]+)\), ([0-9.]+) factorisations`)
	data, err := examples.Scene("disc-impact")
	require.NoError(t, err)
	require.Contains(t, string(data), "newton = \"modified\"\n")
	full := filepath.Join(dir, "full.toml")
	require.NoError(t, os.WriteFile(full, []byte(strings.Replace(string(data), "newton = \"modified\"\n", "newton = \"full\"\n", 1)), 0o644))
	files, err := examples.Files("disc-impact")
	require.NoError(t, err)
	msh, err := fs.ReadFile(files, "disc.msh")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "disc.msh"), msh, 0o644))
	code, stdout, stderr := fecontact("run", full, "--steps", "30", "--quiet", "-o", filepath.Join(dir, "full"))
	require.Equal(t, 0, code, stderr)
	m := newton.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	mean, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	assert.True(t, mean >= 2 && mean <= 4, "Newton iterations per step: %s", m[1])
	assert.Equal(t, m[1], m[3], "a factorisation per iteration")
	data, err = os.ReadFile(filepath.Join(dir, "full", "history.csv"))
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	require.NoError(t, err)
	col := results.ColumnIndex(rows[0], "newton")
	require.Positive(t, col, "a newton column")
	for _, r := range rows[2:] {
		n, err := strconv.Atoi(r[col])
		require.NoError(t, err)
		assert.True(t, n >= 1 && n <= 4, "step %s: %d Newton iterations", r[0], n)
	}
	code, stdout, stderr = fecontact("example", "disc-impact", "--steps", "30", "--quiet", "-o", filepath.Join(dir, "modified"))
	require.Equal(t, 0, code, stderr)
	m = newton.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	iters, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	factors, err := strconv.ParseFloat(m[3], 64)
	require.NoError(t, err)
	assert.Less(t, factors, iters/2, "modified Newton: %s", m[0])
	code, stdout, stderr = fecontact("example", "colliding-blocks", "--steps", "3", "--quiet", "-o", filepath.Join(dir, "blocks"))
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "Newton:")
	data, err = os.ReadFile(filepath.Join(dir, "blocks", "history.csv"))
	require.NoError(t, err)
	assert.NotContains(t, strings.SplitN(string(data), "\n", 2)[0], ",newton,", "no column of the hyperelastic bodies' Newton iterations")
}

// TestSweepRigid: a sweep of a rigid-only scene (a ball dropped on the
// ground at two speeds) gives each variant's contact duration from its
// rigid contacts (it gave 0), leaves the peak force empty (rigid contacts
// are in no [[contact]] pair's column; it gave 0) and the kinetic ratio
// empty where the ball starts at rest (it gave +Inf).
func TestSweepRigid(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "ball.toml")
	require.NoError(t, os.WriteFile(sc, []byte(`[time]
h = 1e-3
duration = 0.2
[[rigid]]
name = "ground"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }
[[rigid]]
name = "ball"
radius = 0.1
position = [0.0, 0.15]
rho = 1000
gravity = [0.0, -9.81]
[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
`), 0o644))
	out := filepath.Join(dir, "sweep")
	code, stdout, stderr := fecontact("sweep", sc, "--set", "rigid.ball.velocity=[0,0]|[0,-1]", "-o", out)
	require.Equal(t, 0, code, stderr+stdout)
	f, err := os.Open(filepath.Join(out, "sweep.csv"))
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	col := map[string]int{}
	for i, c := range rows[0] {
		col[results.ColumnName(c)] = i
	}
	for k, r := range rows[1:] {
		d, err := strconv.ParseFloat(r[col["contact_duration"]], 64)
		require.NoError(t, err)
		assert.Greater(t, d, 0.05, "variant %d: the ball rests on the ground from its landing on", k+1)
		assert.Empty(t, r[col["peak_force"]], "variant %d", k+1)
	}
	assert.Empty(t, rows[1][col["kinetic_ratio"]], "at rest at the start: no ratio")
	assert.NoFileExists(t, filepath.Join(out, "variant_001", "bodies.pvd"), "no empty bodies.pvd for rigid bodies alone")
	assert.FileExists(t, filepath.Join(out, "variant_001", "rigid.pvd"))
	assert.NotEmpty(t, rows[2][col["kinetic_ratio"]])
}

// TestExampleBesideFolder: after `fecontact example disks-28 -o
// disks-28`, as the README teaches, every command that takes a scene takes
// the name disks-28 for the example, not for the folder of that name (a
// folder is never a scene; explore failed on "read disks-28: is a
// directory"), and run and info take example names too.
func TestExampleBesideFolder(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	require.NoError(t, os.MkdirAll("resting-block", 0o755))
	code, stdout, stderr := fecontact("info", "resting-block")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "scene examples/resting-block/scene.toml")
	code, _, stderr = fecontact("run", "resting-block", "--steps", "3", "-o", "resting-block")
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join("resting-block", "summary.txt"))
	code, _, stderr = fecontact("run", "nope", "-o", "x")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `nope is no scene file, and no example "nope"`)
}

// TestProvenance: a run's folder says what made it: summary.txt names the
// version, the command line and the scene, and scene-as-run.toml is the
// scene as it ran (a sweep's variant, its overridden values); `fecontact
// version` prints the same version.
func TestProvenance(t *testing.T) {
	dir := t.TempDir()
	sc := writeBar(t, dir)
	out := filepath.Join(dir, "out")
	code, _, stderr := fecontact("run", sc, "--steps", "3", "-o", out)
	require.Equal(t, 0, code, stderr)
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	require.NoError(t, err)
	code, v, _ := fecontact("version")
	require.Equal(t, 0, code)
	require.True(t, strings.HasPrefix(v, "fecontact "), v)
	first, rest, _ := strings.Cut(v, "\n")
	assert.Contains(t, string(summary), "made by: "+first+", ")
	// A test binary records no commit: version says so and what tells
	// the build apart instead.
	assert.Contains(t, rest, "no commit recorded: built with -buildvcs=false")
	assert.Regexp(t, `executable: .*, sha256 [0-9a-f]{16}\n`, rest)
	assert.Contains(t, rest, "modules: ")
	assert.Contains(t, rest, "gonum.org/v1/gonum v")
	assert.Contains(t, rest, "outputs: format 2\n", "the format the Python package reads (python/fecontact/_binary.py)")
	assert.Contains(t, string(summary), "command: fecontact run "+sc+" --steps 3 -o "+out+"\n")
	assert.Contains(t, string(summary), "scene: "+sc+" (as run: scene-as-run.toml)")
	kept, err := os.ReadFile(filepath.Join(out, "scene-as-run.toml"))
	require.NoError(t, err)
	orig, err := os.ReadFile(sc)
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(kept))
	code, _, stderr = fecontact("sweep", sc, "--set", "time.duration=1e-5|2e-5", "-o", filepath.Join(dir, "sweep"))
	require.Equal(t, 0, code, stderr)
	kept, err = os.ReadFile(filepath.Join(dir, "sweep", "variant_002", "scene-as-run.toml"))
	require.NoError(t, err)
	assert.Contains(t, string(kept), "duration = 0.00002", "the overridden value (the scene re-encoded)")
	summary, err = os.ReadFile(filepath.Join(dir, "sweep", "variant_002", "summary.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(summary), "command: fecontact sweep, variant 2: time.duration = 2e-5")
}

// TestExampleScene: `fecontact example NAME --scene DIR` writes the
// example's annotated scene and its mesh into DIR without running it, and
// the scene runs from there (an installed binary has no examples folder).
func TestExampleScene(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "disc")
	code, stdout, stderr := fecontact("example", "disc-impact", "--scene", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+dir+": ")
	text, err := os.ReadFile(filepath.Join(dir, "scene.toml"))
	require.NoError(t, err)
	orig, err := examples.Scene("disc-impact")
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(text), "the scene with its comments")
	assert.FileExists(t, filepath.Join(dir, "disc.msh"))
	assert.NoFileExists(t, filepath.Join(dir, "summary.txt"), "not run")
	code, _, stderr = fecontact("run", filepath.Join(dir, "scene.toml"), "--steps", "2", "-o", filepath.Join(dir, "out"))
	require.Equal(t, 0, code, stderr)
	code, _, stderr = fecontact("example", "disc-impact", "--scene", "/dev/null")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--scene /dev/null: mkdir /dev/null: not a directory: give a folder to write the example's files into")
}

// TestObstaclesWritten: obstacles.pvd draws the obstacles of the pairs
// where their motion has taken them at each output time (they were in no
// output: a disc bounced off nothing in ParaView): a floor moving at 2
// m/s along x is a VTK poly-line whose bounds move by 2 m/s x t, and a
// disc a closed 64-gon, as VTK's reader sees them.
func TestObstaclesWritten(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "moving.toml")
	require.NoError(t, os.WriteFile(sc, []byte(`[time]
h = 1e-4
duration = 2e-3
[output]
every = 10
[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 0.0], size = [0.1, 0.05], cells = [4, 2] }
E = 1e7
rho = 1000
[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]
motion = { type = "velocity", velocity = [2.0, 0.0] }
[[obstacle]]
name = "ball"
center = [0.5, 0.5]
radius = 0.1
[[contact]]
candidate = { body = "block", group = "bottom" }
obstacle = "floor"
[[contact]]
candidate = { body = "block", group = "top" }
obstacle = "ball"
`), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := fecontact("run", sc, "-o", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "obstacles.pvd")
	pieces := vtkcheck.Read(t, filepath.Join(out, "obstacles.pvd"))
	require.Len(t, pieces, 3, "t = 0, 1 ms and 2 ms")
	for _, p := range pieces {
		require.Zero(t, p.Errors, p.File)
		assert.Equal(t, 2, p.Cells, "%s: the floor and the ball", p.File)
		assert.Equal(t, []int{4}, p.Types, "%s: poly-lines", p.File)
		assert.Equal(t, 2+65, p.Points, "%s: the floor's two points, the ball's 64-gon closed", p.File)
		assert.InDelta(t, -1+2*p.Time, p.Bounds[0], 1e-12, "%s at t = %g: the floor's left end moved", p.File, p.Time)
		assert.InDelta(t, 1+2*p.Time, p.Bounds[1], 1e-12, "%s: the floor's right end", p.File)
		assert.InDelta(t, 0.6, p.Bounds[3], 1e-12, "%s: the ball's top", p.File)
	}
	assert.InDelta(t, 2e-3, pieces[2].Time, 1e-15)
}

// TestPointMassRun: a run with point masses and springs writes
// masses.pvd (a point cloud with velocity, mass and radius) and
// springs.pvd (a line per spring with its force), which VTK's reader
// opens, and each mass's columns in history.csv; the two masses fall on
// their spring onto the floor, where they rest: the spring's force at the
// end pulls the first mass towards the second.
func TestPointMassRun(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "pair.toml")
	require.NoError(t, os.WriteFile(scene, []byte(`
[time]
h = 1e-3
duration = 0.3

[output]
every = 100

[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]

[[mass]]
name = "a"
mass = 1.0
position = [0.0, 0.05]
gravity = [0.0, -9.81]

[[mass]]
name = "b"
mass = 2.0
position = [0.2, 0.05]
gravity = [0.0, -9.81]

[[spring]]
name = "ab"
masses = ["a", "b"]
stiffness = 500.0
rest_length = 0.15
damping = 2.0

[[point_contact]]
name = "on floor"
obstacle = "floor"
mu = 0.5
`), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := fecontact("run", scene, "-o", out, "--quiet")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "masses.pvd, springs.pvd, obstacles.pvd")
	masses := vtkcheck.Read(t, filepath.Join(out, "masses.pvd"))
	require.Len(t, masses, 4, "t = 0 and every 100 steps")
	assert.Equal(t, 2, masses[3].Points)
	assert.Equal(t, []int{1}, masses[3].Types, "vertex cells")
	assert.Subset(t, masses[3].Arrays, []string{"id", "velocity", "mass", "radius"})
	assert.Equal(t, 3.0, masses[3].Sums["mass"])
	springs := vtkcheck.Read(t, filepath.Join(out, "springs.pvd"))
	require.Len(t, springs, 4)
	assert.Equal(t, 2, springs[3].Points)
	assert.Equal(t, []int{4}, springs[3].Types, "a poly-line")
	hist, err := os.ReadFile(filepath.Join(out, "history.csv"))
	require.NoError(t, err)
	rows := strings.Split(strings.TrimSpace(string(hist)), "\n")
	header := strings.Split(rows[0], ",")
	last := strings.Split(rows[len(rows)-1], ",")
	col := func(name string) float64 {
		i := results.ColumnIndex(header, name)
		require.Positive(t, i, name)
		v, err := strconv.ParseFloat(last[i], 64)
		require.NoError(t, err)
		return v
	}
	// The shock law (the masses' default) bounds velocities, not gaps: a
	// landing at 1 m/s sinks by a little of h |v| = 1 mm, and stays.
	assert.InDelta(t, 0, col("a_y"), 1e-5, "on the floor")
	assert.InDelta(t, 0, col("b_y"), 1e-5, "on the floor")
	assert.Less(t, col("b_x")-col("a_x"), 0.2, "the preloaded spring drew them together")
}

// TestSweepManifestDamaged: a sweep.json whose settings were edited into
// another count of variants (here a product of 10^8) is refused by name by
// the steps that read it, before anything of that size is made.
func TestSweepManifestDamaged(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := fecontact("sweep", "klarbring", "--set", "point_contact.plane.mu=0.2|0.4", "--set", "time.duration=0.5", "-o", dir)
	require.Equal(t, 0, code, stdout+stderr)
	path := filepath.Join(dir, "sweep.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	values := strings.Repeat(`"1.0",`, 9999) + `"1.0"`
	damaged := strings.Replace(string(data), `"values": [
        "0.5"
      ]`, `"values": [`+values+`]`, 1)
	damaged = strings.Replace(damaged, `"values": [
        "0.2",
        "0.4"
      ]`, `"values": [`+values+`]`, 1)
	require.NotEqual(t, string(data), damaged)
	require.NoError(t, os.WriteFile(path, []byte(damaged), 0o644))
	for _, args := range [][]string{{"sweep", "gather", dir}, {"sweep", "run", dir, "1"}} {
		code, _, stderr = fecontact(args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, stderr, path+": the settings make 1e+08 variants, more than the 10000 a sweep runs: fewer values, or several sweeps: damaged; plan the sweep again", "%v", args)
	}
}

// TestGranularCommand: fecontact granular measures a finished run's
// grains into another folder (never the run's own, whose summary
// describes its files), and refuses a region upside down, no -o, or a
// folder without rigid bodies with what to give instead.
func TestGranularCommand(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := fecontact("example", "pillar", "--steps", "100", "--every", "20", "--quiet", "-o", dir)
	require.Equal(t, 0, code, stderr)
	out := filepath.Join(t.TempDir(), "g")
	code, stdout, stderr := fecontact("granular", dir, "--window", "0.05,0.1", "-o", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "granular (mean of 3 output times from t = 0.05 s): 18.0 grains")
	assert.Contains(t, stdout, "wrote "+out+": granular.csv, forces.png, fabric.png")
	assert.FileExists(t, filepath.Join(out, "granular.csv"))
	assert.NoFileExists(t, filepath.Join(dir, "granular.csv"))
	for _, args := range [][]string{{"granular", dir}, {"granular", dir, "-o", dir}} {
		code, _, stderr = fecontact(args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, stderr, "the run's own", "%v", args)
	}
	code, _, stderr = fecontact("granular", dir, "--region", "0,1,1,0")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--region 0,1,1,0: expected xmin < xmax and ymin < ymax")
	code, _, stderr = fecontact("granular", dir, "--window", "a,b")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--window a,b: "a" is not a finite number`)
	elastic := t.TempDir()
	code, _, stderr = fecontact("example", "colliding-blocks", "--steps", "5", "--quiet", "-o", elastic)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = fecontact("granular", elastic, "-o", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "(a run with rigid bodies writes rigid.pvd)")
}

// TestSolveOut: fecontact solve --out writes each problem's solution: its
// impulses, velocities u = W r + q (recomputed here from the problem to
// 1e-12 of their scale), statuses and certificate, so that a user compares
// them with another code's; a special file as --out is refused.
func TestSolveOut(t *testing.T) {
	problem := filepath.Join("..", "..", "signorini", "testdata", "pillar-step116.json")
	out := filepath.Join(t.TempDir(), "solution.json")
	code, stdout, stderr := fecontact("solve", problem, "-K", "1", "--method", "auto", "--tol", "1e-10", "--out", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+out+": the solutions")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var got []struct {
		Contacts        int       `json:"contacts"`
		Converged       bool      `json:"converged"`
		R               []float64 `json:"r"`
		U               []float64 `json:"u"`
		Status          []string  `json:"status"`
		Complementarity float64   `json:"complementarity_rel"`
	}
	require.NoError(t, json.Unmarshal(data, &got))
	require.Len(t, got, 1)
	p, _, err := signorini.ReadProblem(problem)
	require.NoError(t, err)
	s := got[0]
	assert.True(t, s.Converged)
	assert.Equal(t, 72, s.Contacts)
	require.Len(t, s.R, 144)
	require.Len(t, s.Status, 72)
	u := make([]float64, len(s.R))
	signorini.Residual(p, s.R, u)
	scale := 0.0
	for _, v := range u {
		scale = max(scale, math.Abs(v))
	}
	for i := range u {
		require.InDelta(t, u[i], s.U[i], 1e-12*scale, "u = W r + q at %d", i)
	}
	assert.Less(t, s.Complementarity, 1e-8)
	code, _, stderr = fecontact("solve", problem, "-K", "1", "--out", "/dev/null")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "/dev/null: a device, not a file")
}
