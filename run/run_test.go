package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

func blocks(t *testing.T) *scene.Scene {
	t.Helper()
	data, err := examples.Scene("colliding-blocks")
	require.NoError(t, err)
	sc, err := scene.Decode(bytes.NewReader(data), "colliding-blocks.toml")
	require.NoError(t, err)
	return sc
}

// TestSceneInterrupted: a run whose context ends stops after that step
// with ErrInterrupted, its history complete up to it and its summary
// saying so (Stopped); what it says and its progress come through the
// options.
func TestSceneInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var said []string
	last := 0
	opt := Options{Dir: dir, Steps: 300, Command: "test", Version: "v0",
		Progress: func(done, total int, sim *timestep.Simulation) {
			require.Equal(t, 300, total)
			require.Equal(t, last+1, done)
			last = done
			if done == 57 {
				cancel()
			}
		},
		Say: func(line string) { said = append(said, line) },
	}
	r, err := Scene(ctx, blocks(t), opt)
	require.ErrorIs(t, err, ErrInterrupted)
	require.NotNil(t, r)
	assert.Equal(t, 58, r.Done, "the step under way when the context ended is finished")
	assert.Equal(t, 58, last)
	assert.True(t, strings.HasPrefix(r.Summary, "INTERRUPTED after step 58 of 300"), r.Summary)
	assert.Contains(t, r.Summary, "made by: v0")
	assert.Contains(t, r.Summary, "command: test")
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	require.NoError(t, err)
	assert.Equal(t, r.Summary, string(summary))
	hist, err := os.ReadFile(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	assert.Equal(t, 1+1+58, strings.Count(string(hist), "\n"), "header, the initial state and 58 steps")
	require.NotEmpty(t, said)
	assert.Contains(t, said[0], "2 elastic bodies, 862 DOFs, 300 steps")
	assert.True(t, Stopped(dir), "a stopped run that can go on")

	// Run again into the same folder: the earlier files go first.
	said = nil
	r, err = Scene(context.Background(), blocks(t), Options{Dir: dir, Steps: 10, Say: func(line string) { said = append(said, line) }})
	require.NoError(t, err)
	assert.Equal(t, 10, r.Done)
	assert.Contains(t, said[0], "removed")
	assert.False(t, Stopped(dir), "a run that ended")
	assert.False(t, Stopped(t.TempDir()), "no run")
}

func TestSceneOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "no output folder"},
		{Options{Dir: "x", Steps: -1}, "steps -1"},
		{Options{Dir: "x", Every: -2}, "every -2"},
		{Options{Dir: "x", Variant: scene.Variant{Refine: -1}}, "refine -1"},
	} {
		_, err := Scene(context.Background(), blocks(t), tc.opt)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
	_, err := Scene(context.Background(), nil, Options{Dir: "x"})
	assert.ErrorContains(t, err, "no scene")
}

// TestUnconvergedAdvice: a run whose NLGS stops at its sweep limit says
// how many steps did and what to change: the velocity measure under the
// default residual, more sweeps or a looser tolerance under the velocity
// measure; a run whose every step converged says nothing of it (the
// pillar's first 50 steps, capped at 5 sweeps and not).
func TestUnconvergedAdvice(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  []string
		want string
	}{
		{"residual", []string{"solver.max_sweeps", "5", "solver.measure", `"residual"`, "solver.tolerance", "1e-8"}, `went on with the solver's last iterate: [solver] measure = "velocity" with tolerance = 1e-5`},
		{"velocity", []string{"solver.max_sweeps", "5"}, "went on with the solver's last iterate: raise [solver] max_sweeps, or the tolerance"},
		{"newton", []string{"solver.method", `"newton"`, "solver.newton_iterations", "1"}, "went on with the solver's last iterate: raise [solver] newton_iterations (1), or the tolerance"},
		{"converged", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := exampleScene(t, "pillar", append([]string{"time.duration", "0.05"}, tc.set...)...)
			method, limit := "auto", "sweep"
			if tc.name == "newton" {
				method, limit = "newton", "iteration"
			}
			r, err := Scene(t.Context(), sc, Options{Dir: t.TempDir()})
			require.NoError(t, err)
			unconverged := regexp.MustCompile(`, ([0-9]+) unconverged\n`).FindStringSubmatch(r.Summary)
			require.NotNil(t, unconverged, r.Summary)
			if tc.want == "" {
				assert.Equal(t, "0", unconverged[1])
				assert.NotContains(t, r.Summary, "sweep limit")
				return
			}
			assert.NotEqual(t, "0", unconverged[1])
			assert.Contains(t, r.Summary, "warning: "+unconverged[1]+" contact steps reached the "+limit+" limit before the tolerance and "+tc.want)
			assert.Contains(t, r.Summary, "certificate: 50 steps solved by "+method)
			assert.Contains(t, r.Summary, ", "+unconverged[1]+" NOT to their tolerance, the first at step ")
		})
	}
}

// TestStrictStops: with [solver] strict, a run stops at the first step
// whose contact problem is not solved to its tolerance, saying which, and
// its outputs are complete up to the step before.
func TestStrictStops(t *testing.T) {
	sc := exampleScene(t, "pillar", "time.duration", "0.05", "solver.max_sweeps", "5", "solver.strict", "true")
	dir := t.TempDir()
	_, err := Scene(t.Context(), sc, Options{Dir: dir})
	require.ErrorIs(t, err, signorini.ErrNotConverged)
	assert.Regexp(t, `step 1 \(t = 0.001\): signorini: the contact problem's solve did not converge: NLGS in 5 sweeps: velocity change .* \(the run stops here: strict\)`, err.Error())
	assert.FileExists(t, filepath.Join(dir, "history.csv.partial"))
}

// TestSceneLeavesTheCallersScene: run.Scene with its options (fields every
// 5 steps, a refinement, 3 steps) leaves the scene it is given as it was:
// an embedding program may run it again, or another way.
func TestSceneLeavesTheCallersScene(t *testing.T) {
	for _, name := range []string{"colliding-blocks", "pillar", "klarbring"} {
		data, err := examples.Scene(name)
		require.NoError(t, err)
		sc, err := scene.Decode(bytes.NewReader(data), name+".toml")
		require.NoError(t, err)
		pristine, err := scene.Decode(bytes.NewReader(data), name+".toml")
		require.NoError(t, err)
		_, err = Scene(context.Background(), sc, Options{Dir: t.TempDir(), Steps: 3, Every: 5, Variant: scene.Variant{Refine: 2}})
		require.NoError(t, err)
		assert.Equal(t, pristine, sc, name)
	}
}

// TestPictureNotDrawnIsAWarning: a run whose energies overflow what a
// picture can lay out (a 1e300 kg mass at 1e10 m/s) completes: its
// summary says energy.png was not drawn and does not list it; a resume
// completes too. (It exited 1 at energy.png with no summary, for ever.)
func TestPictureNotDrawnIsAWarning(t *testing.T) {
	text := `title = "a huge mass"
[time]
h = 1e-3
duration = 0.01
[[obstacle]]
name = "plane"
points = [[-1.0, 0.0], [9.0, 0.0]]
[[mass]]
name = "m"
mass = 1e300
position = [0, 0.5]
velocity = [1e10, -2e10]
[[point_contact]]
obstacle = "plane"
`
	sc, err := scene.Decode(strings.NewReader(text), "huge.toml")
	require.NoError(t, err)
	dir := t.TempDir()
	var warned []string
	r, err := Scene(context.Background(), sc, Options{Dir: dir, Command: "test", Version: "v0", Warn: func(w string) { warned = append(warned, w) }})
	require.NoError(t, err)
	want := "warning: energy.png not drawn: plotter: infinite data point (the data it would show are in the run's other files)"
	assert.Contains(t, warned, want)
	assert.Contains(t, r.Summary, want+"\n")
	assert.NotContains(t, r.Summary, "energy.png,")
	assert.NoFileExists(t, filepath.Join(dir, "energy.png"))
	assert.FileExists(t, filepath.Join(dir, "summary.txt"))
	_, err = Resume(context.Background(), dir, Options{Command: "test", Version: "v0"})
	require.NoError(t, err)
}

// TestSceneAsRunListsEveryBody: a run of a scene with a builder (the arch
// on its shake table) keeps the scene with every voussoir written out as
// a [[rigid]] body and the builder commented out, and that scene run
// again, without the builder, writes the same history byte for byte.
func TestSceneAsRunListsEveryBody(t *testing.T) {
	first, again := t.TempDir(), t.TempDir()
	sc := exampleScene(t, "arch-shake")
	require.Len(t, sc.Arches, 1)
	_, err := Scene(context.Background(), sc, Options{Dir: first, Steps: 100, Version: "v0"})
	require.NoError(t, err)
	text, err := os.ReadFile(filepath.Join(first, SceneAsRun))
	require.NoError(t, err)
	kept, err := scene.Decode(strings.NewReader(string(text)), "scene-as-run.toml")
	require.NoError(t, err)
	assert.Empty(t, kept.Arches, "the builder commented out")
	assert.Len(t, kept.Rigid, len(sc.Rigid)+sc.Arches[0].Voussoirs, "every voussoir a [[rigid]] body")
	kept.Files, err = examples.Files("arch-shake") // the ground record beside it
	require.NoError(t, err)
	_, err = Scene(context.Background(), kept, Options{Dir: again, Steps: 100, Version: "v0"})
	require.NoError(t, err)
	a, err := os.ReadFile(filepath.Join(first, "history.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(again, "history.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b), "the same run without the builder")
}
