package sweep

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// ball is a rigid ball (radius 0.1 m) whose lowest point is 0.05 m above a
// fixed ground, falling under gravity for 0.3 s; the shock law at
// dissipation index 1 keeps it on the ground once it lands.
const ball = `[time]
h = 1e-3
duration = 0.3
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
`

func ballPlan(t *testing.T, dir string, set ...string) *Plan {
	t.Helper()
	base, err := scene.Decode(strings.NewReader(ball), "ball.toml")
	require.NoError(t, err)
	var settings []Setting
	for _, s := range set {
		st, err := ParseSetting(s)
		require.NoError(t, err)
		settings = append(settings, st)
	}
	p, err := New(base, settings, dir, "test")
	require.NoError(t, err)
	_, err = p.Write(outdir.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// folder is a new study's folder in dir, held for the test.
func folder(t *testing.T, dir string) *outdir.Folder {
	t.Helper()
	f, _, err := outdir.Create(dir, "sweep", outdir.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// TestRunAndGather: a ball thrown down at 0, 1 and 2 m/s from 0.05 m lands
// at the time of free fall, d = v t + g t^2 / 2, and rests: each variant's
// contact duration is the rest of the run, within two steps. The table
// gathered from the folders afterwards (what a Slurm job does) is the one
// the run gave, figure for figure, and so is sweep.csv.
func TestRunAndGather(t *testing.T) {
	dir := t.TempDir()
	p := ballPlan(t, dir, "rigid.ball.velocity=[0,0]..[0,-2]")
	require.Equal(t, 3, p.Len())
	assert.Equal(t, "rigid.ball.velocity = [0.0, -1.0]", p.Describe(1))
	var ended []int
	ran := p.Run(t.Context(), 0, Options{Command: "test"}, func(k int, err error) { // 0: a worker per core
		assert.NoError(t, err)
		ended = append(ended, k)
	})
	assert.ElementsMatch(t, []int{0, 1, 2}, ended)
	require.Zero(t, ran.Failed+ran.Missing)
	for k, r := range ran.Rows {
		v, g, d := float64(k), 9.81, 0.05
		land := (-v + math.Sqrt(v*v+2*g*d)) / g
		assert.InDelta(t, 0.3-land, r.Figures.ContactDuration, 2e-3, "variant %d: lands at %.4f s", k+1, land)
		assert.FileExists(t, filepath.Join(r.Dir, "rigid.pvd"))
	}
	gathered := p.Gather()
	require.Len(t, gathered.Rows, 3)
	for k := range ran.Rows {
		assert.Equal(t, exact(ran.Rows[k].Figures), exact(gathered.Rows[k].Figures), "variant %d", k+1)
		assert.Equal(t, ran.Rows[k].Values, gathered.Rows[k].Values)
	}
	a, b := filepath.Join(dir, "ran"), filepath.Join(dir, "gathered")
	_, err := ran.Write(folder(t, a), nil)
	require.NoError(t, err)
	_, err = gathered.Write(folder(t, b), nil)
	require.NoError(t, err)
	ca, _ := os.ReadFile(filepath.Join(a, "sweep.csv"))
	cb, _ := os.ReadFile(filepath.Join(b, "sweep.csv"))
	assert.Equal(t, string(ca), string(cb))
}

// TestRunInterrupted: once the context is done (a signal), no variant
// starts and each says it was interrupted; gathered, they have no result.
func TestRunInterrupted(t *testing.T) {
	p := ballPlan(t, t.TempDir(), "time.h=1e-3|5e-4|2e-4")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	tab := p.Run(ctx, 2, Options{}, func(int, error) { t.Error("a variant ran") })
	assert.Equal(t, 3, tab.Failed)
	for k, r := range tab.Rows {
		assert.ErrorIs(t, r.Err, run.ErrInterrupted, "variant %d", k+1)
		assert.NoFileExists(t, filepath.Join(r.Dir, "history.csv"), "variant %d ran", k+1)
	}
	g := p.Gather()
	assert.Equal(t, 3, g.Missing)
	assert.EqualError(t, g.Rows[2].Err, "no result: not run, stopped or cancelled")
}

// TestRunVariantResumes: a variant stopped after some steps (a Slurm task
// at its time limit) resumes from its checkpoint and ends with the
// figures of a run never stopped.
func TestRunVariantResumes(t *testing.T) {
	whole := ballPlan(t, t.TempDir(), "rigid.ball.velocity=[0,-1]|[0,-2]")
	_, err := whole.RunVariant(t.Context(), 1, Options{})
	require.NoError(t, err)
	want := whole.Gather().Rows[1].Figures

	p := ballPlan(t, t.TempDir(), "rigid.ball.velocity=[0,-1]|[0,-2]")
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // it stops after its first step
	r, err := p.RunVariant(ctx, 1, Options{})
	require.ErrorIs(t, err, run.ErrInterrupted)
	require.NotNil(t, r)
	require.Less(t, r.Done, r.Steps, "stopped before its end")
	assert.True(t, run.Stopped(p.VariantDir(1)))
	r, err = p.RunVariant(t.Context(), 1, Options{})
	require.NoError(t, err)
	assert.Equal(t, r.Steps, r.Done)
	assert.Equal(t, exact(want), exact(p.Gather().Rows[1].Figures))
	_, err = p.RunVariant(t.Context(), 2, Options{})
	assert.EqualError(t, err, "variant 3: expected a number from 1 to 2")
}

// exact writes figures with every digit, as figures.json keeps them (and
// NaN as a string, which == compares).
func exact(f results.Figures) map[string]string {
	out := map[string]string{}
	for k, x := range figureValues(f) {
		out[k] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

// recorder is a Painter that keeps what it is given.
type recorder struct {
	xlabel string
	y      string
	series []results.Series
}

func (r *recorder) Sweep(path, xlabel string, y results.SweepFigure, series []results.Series) error {
	r.xlabel, r.y, r.series = xlabel, y.Name, series
	return nil
}

// TestTableDurations: sweep.png's axis is the first setting of numbers
// (signed: a scalar of -2 is at -2; an array by its norm), a series per
// combination of the others; rows without figures and values that are
// not numbers are left out, and a table of words draws nothing.
func TestTableDurations(t *testing.T) {
	f := func(d float64) results.Figures { return results.Figures{ContactDuration: d, SurfaceAngle: math.NaN()} }
	tab := &Table{
		Settings: []Setting{{Key: "solver.order"}, {Key: "time.h"}, {Key: "rigid.ball.velocity"}},
		Rows: []Row{
			{Values: []string{`"natural"`, "-2.0", "[3.0, 4.0]"}, Figures: f(1)},
			{Values: []string{`"natural"`, "-1.0", "[3.0, 4.0]"}, Figures: f(2)},
			{Values: []string{`"random"`, "-2.0", "[3.0, 4.0]"}, Figures: f(3)},
			{Values: []string{`"random"`, "-1.0", "[3.0, 4.0]"}, Err: run.ErrInterrupted},
			{Values: []string{`"random"`, "-3.0", "[0.0, 1.0]"}, Figures: f(5)},
		},
	}
	var r recorder
	files, err := tab.Write(folder(t, t.TempDir()), &r)
	require.NoError(t, err)
	assert.Equal(t, []string{"sweep.csv", "sweep.png"}, files)
	assert.Equal(t, "time.h", r.xlabel)
	assert.Equal(t, "contact duration", r.y)
	assert.Equal(t, []results.Series{
		{Label: `"natural", [3.0, 4.0]`, T: []float64{-2, -1}, Y: []float64{1, 2}},
		{Label: `"random", [3.0, 4.0]`, T: []float64{-2}, Y: []float64{3}},
		{Label: `"random", [0.0, 1.0]`, T: []float64{-3}, Y: []float64{5}},
	}, r.series)
	x, _ := Number("[3.0, 4.0]")
	assert.Equal(t, 5.0, x)

	// A study of heaps whose every variant has a surface angle plots it.
	heaps := &Table{Settings: []Setting{{Key: "rigid_contacts.rule.1.rolling"}}, Rows: []Row{
		{Values: []string{"0.0"}, Figures: results.Figures{ContactDuration: 1, SurfaceAngle: 9}},
		{Values: []string{"1e-4"}, Figures: results.Figures{ContactDuration: 1, SurfaceAngle: 17}},
		{Values: []string{"2e-4"}, Err: run.ErrInterrupted},
	}}
	r = recorder{}
	_, err = heaps.Write(folder(t, t.TempDir()), &r)
	require.NoError(t, err)
	assert.Equal(t, "surface angle", r.y)
	assert.Equal(t, []results.Series{{T: []float64{0, 1e-4}, Y: []float64{9, 17}}}, r.series)

	words := &Table{Settings: []Setting{{Key: "solver.order"}}, Rows: []Row{{Values: []string{`"natural"`}}}}
	r = recorder{}
	files, err = words.Write(folder(t, t.TempDir()), &r)
	require.NoError(t, err)
	assert.Equal(t, []string{"sweep.csv"}, files)
	assert.Nil(t, r.series)
}

// TestSweepCSVMarksFailures: a row with an error has its message and no
// figures (a run cut short has none to trust).
func TestSweepCSVMarksFailures(t *testing.T) {
	dir := t.TempDir()
	tab := &Table{Settings: []Setting{{Key: "time.h", Values: []string{"1e-3", "2e-3"}}}, Rows: []Row{
		{Values: []string{"1e-3"}, Dir: "variant_001", Figures: results.Figures{ContactDuration: 0.25, PeakForce: math.NaN(), SurfaceAngle: math.NaN()}},
		{Values: []string{"2e-3"}, Dir: "variant_002", Figures: results.Figures{ContactDuration: 0.1}, Err: run.ErrInterrupted},
	}}
	_, err := tab.Write(folder(t, dir), nil)
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, "1,variant_001,1e-3,0.25,,,0,0,0,0,0,,", lines[1])
	assert.Equal(t, "2,variant_002,2e-3,,,,,,,,,,interrupted", lines[2])
}

// TestNewRefuses: no setting, a key that names nothing (a SettingError:
// the caller's), a value the scene refuses (named with its variant), and
// more variants than a study runs.
func TestNewRefuses(t *testing.T) {
	base, err := scene.Decode(strings.NewReader(ball), "ball.toml")
	require.NoError(t, err)
	dir := t.TempDir()
	_, err = New(base, nil, dir, "")
	assert.ErrorContains(t, err, "no setting")
	_, err = New(&scene.Scene{Name: "built"}, []Setting{{Key: "time.h", Values: []string{"1e-3"}}}, dir, "")
	assert.ErrorContains(t, err, `scene "built" has no text`)
	_, err = New(base, []Setting{{Key: "rigid.bal.velocity", Values: []string{"[0.0, 1.0]"}}}, dir, "")
	var bad *SettingError
	assert.ErrorAs(t, err, &bad)
	assert.ErrorContains(t, err, `no [[rigid]] named "bal"`)
	_, err = New(base, []Setting{{Key: "time.h", Values: []string{"1e-3", "-1e-3"}}}, dir, "")
	assert.ErrorContains(t, err, "variant 2 (time.h = -1e-3): ball.toml: [time]: h = -0.001: expected a positive time step")
	_, err = New(base, []Setting{{Key: "time.h", Values: make([]string, 101)}, {Key: "rigid.ball.rho", Values: make([]string, 101)}}, dir, "")
	assert.ErrorContains(t, err, "the settings make 1.02e+04 variants, more than the 10000 a sweep runs")
	_, err = New(base, []Setting{{Key: "time.h", Values: []string{"1e-3"}}, {Key: "time.h", Values: []string{"2e-3"}}}, dir, "")
	assert.EqualError(t, err, "--set: time.h is set twice: give all its values in one --set (time.h=V1|V2)")
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries, "nothing written")
}

// TestOpenIsLazy: a task reads the plan without making every variant's
// scene (a 10 000-variant study took 74 s before its first task ran): a
// manifest whose variant 2 cannot be decoded opens, its variant 1 runs,
// and variant 2 fails with its own error. A manifest of another version
// of fecontact is refused.
func TestOpenIsLazy(t *testing.T) {
	dir := t.TempDir()
	p := ballPlan(t, dir, "time.duration=0.01|0.02")
	require.NoError(t, p.Close())
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), `"0.02"`, `"-1.0"`, 1)), 0o644))
	_, err = Open(dir, "other")
	assert.ErrorContains(t, err, "sweep.json: planned by fecontact test, this is other: run the study with the version that planned it")
	q, err := Open(dir, "test")
	require.NoError(t, err)
	assert.Equal(t, 2, q.Len())
	_, err = q.RunVariant(t.Context(), 0, Options{})
	assert.NoError(t, err)
	_, err = q.RunVariant(t.Context(), 1, Options{})
	assert.ErrorContains(t, err, "variant 2 (time.duration = -1.0)")
}
