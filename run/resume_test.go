package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// exampleScene decodes an example, with a key set (key = value, TOML).
func exampleScene(t *testing.T, name string, set ...string) *scene.Scene {
	t.Helper()
	data, err := examples.Scene(name)
	require.NoError(t, err)
	text := string(data)
	for i := 0; i+1 < len(set); i += 2 {
		text, err = scene.Override(text, set[i], set[i+1])
		require.NoError(t, err)
	}
	sc, err := scene.Decode(strings.NewReader(text), "examples/"+name+"/scene.toml")
	require.NoError(t, err)
	sc.Files, err = examples.Files(name)
	require.NoError(t, err)
	return sc
}

// TestResumeExact: a run stopped at step k (its context ended, as by
// SIGINT) and resumed from its checkpoint writes the same files as the
// run never stopped: history.csv, every .pvd and every piece byte for
// byte, and the same summary but for the timings; for the colliding
// blocks (both bases), the pillar (rigid, warm starts), the disc
// (hyperelastic, modified Newton), the klarbring example (point masses)
// and a mixed scene. The stop falls off the output stride, so that the
// piece the stopped run wrote at it must go on resume.
func TestResumeExact(t *testing.T) {
	cases := []struct {
		name      string
		sc        func() *scene.Scene
		steps, at int
	}{
		{"colliding blocks, nodal", func() *scene.Scene { return exampleScene(t, "colliding-blocks") }, 300, 137},
		{"colliding blocks, pairing", func() *scene.Scene {
			return exampleScene(t, "colliding-blocks", "contact.upper-on-lower.basis", `"pairing"`)
		}, 300, 151},
		{"pillar", func() *scene.Scene { return exampleScene(t, "pillar") }, 400, 203},
		{"disc", func() *scene.Scene { return exampleScene(t, "disc-impact") }, 60, 33},
		{"klarbring", func() *scene.Scene { return exampleScene(t, "klarbring") }, 3000, 1234},
		{"mixed", func() *scene.Scene {
			sc, err := scene.Decode(strings.NewReader(mixedScene), "mixed.toml")
			require.NoError(t, err)
			return sc
		}, 400, 211},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			whole, parts := t.TempDir(), t.TempDir()
			rw, err := Scene(context.Background(), tc.sc(), Options{Dir: whole, Steps: tc.steps, Every: 20, Version: "v0"})
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opt := Options{Dir: parts, Steps: tc.steps, Every: 20, Version: "v0",
				Progress: func(done, _ int, _ *timestep.Simulation) {
					if done == tc.at {
						cancel()
					}
				}}
			r, err := Scene(ctx, tc.sc(), opt)
			require.ErrorIs(t, err, ErrInterrupted)
			require.Equal(t, tc.at+1, r.Done, "the step under way when the context ended is finished")
			_, err = os.Stat(filepath.Join(parts, fmt.Sprintf("contacts_%05d.vtu", (tc.at+1)/20+1)))
			require.NoError(t, err, "the stopped run wrote the fields of its last step")
			r, err = Resume(context.Background(), parts, Options{Version: "v0"})
			require.NoError(t, err)
			require.Equal(t, tc.steps, r.Done)
			require.Equal(t, fmt.Sprint(rw.Figures), fmt.Sprint(r.Figures), "a sweep's figures (NaN for none)")
			sameFolders(t, whole, parts)
		})
	}
}

// sameFolders compares two run folders: the same files, each byte for
// byte (the pictures too: the same points draw the same PNG), but the
// summary's timings and the checkpoint.
func sameFolders(t *testing.T, a, b string) {
	t.Helper()
	list := func(dir string) []string {
		es, err := os.ReadDir(dir)
		require.NoError(t, err)
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	names := list(a)
	require.Equal(t, names, list(b))
	for _, n := range names {
		if n == CheckpointFile {
			continue // it holds timings
		}
		da, err := os.ReadFile(filepath.Join(a, n))
		require.NoError(t, err)
		db, err := os.ReadFile(filepath.Join(b, n))
		require.NoError(t, err)
		if n == "summary.txt" {
			da, db = untimed(da), untimed([]byte(strings.ReplaceAll(string(db), b, a)))
		}
		require.Equal(t, string(da), string(db), "%s differs", n)
	}
}

// untimed drops a summary's lines that depend on the clock.
func untimed(s []byte) []byte {
	var kept []string
	for _, l := range strings.Split(string(s), "\n") {
		if !strings.HasPrefix(l, "done:") && !strings.HasPrefix(l, "cost:") && !strings.HasPrefix(l, "made by:") {
			kept = append(kept, l)
		}
	}
	return []byte(strings.Join(kept, "\n"))
}

// mixedScene: an elastic block on a free rigid plate on a fixed rigid
// ground, and a mass on a spring falling on the block.
const mixedScene = `
[time]
h = 1e-4
duration = 0.1

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.05, 0.051], size = [0.1, 0.05], cells = [8, 4] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "plate"
rectangle = [0.3, 0.05]
position = [0.0, 0.025]
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "ground"
group = "ground"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3

[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "plate"
mu = 0.3

[[mass]]
name = "bob"
mass = 0.1
position = [0.0, 0.105]
velocity = [0.0, -0.5]
gravity = [0.0, -9.81]

[[spring]]
masses = ["bob"]
anchor = [0.0, 0.3]
stiffness = 5.0

[[point_contact]]
name = "on block"
side = { body = "block", group = "top" }
mu = 0.2
`

// TestResumeUntil: a finished run of 310 steps resumed with Until = 600 h
// writes what a run of 600 steps writes (the fields of its step 310, off
// the stride, go).
func TestResumeUntil(t *testing.T) {
	whole, parts := t.TempDir(), t.TempDir()
	sc := func() *scene.Scene { return exampleScene(t, "colliding-blocks") }
	_, err := Scene(context.Background(), sc(), Options{Dir: whole, Steps: 600, Every: 20, Version: "v0"})
	require.NoError(t, err)
	_, err = Scene(context.Background(), sc(), Options{Dir: parts, Steps: 310, Every: 20, Version: "v0"})
	require.NoError(t, err)
	r, err := Resume(context.Background(), parts, Options{Version: "v0", Until: 600 * sc().Time.H})
	require.NoError(t, err)
	require.Equal(t, 600, r.Done)
	sameFolders(t, whole, parts)
	_, err = Resume(context.Background(), parts, Options{Version: "v0", Until: 1e-4})
	require.ErrorContains(t, err, "--until 0.0001 s: the run is at t = 0.0006 s already (step 600)")
}

// TestResumeRefuses: what cannot be resumed is refused with an error that
// names the file and says why: no checkpoint, another version of the
// program, a scene edited since, a damaged checkpoint; a checkpoint
// write cut short by a kill (its temporary file) leaves the last one
// whole, and the run resumes from it.
func TestResumeRefuses(t *testing.T) {
	dir := t.TempDir()
	_, err := Resume(context.Background(), dir, Options{Version: "v0"})
	require.ErrorIs(t, err, ErrNoCheckpoint)
	require.ErrorContains(t, err, "no checkpoint in "+dir)
	_, err = Scene(context.Background(), exampleScene(t, "klarbring"), Options{Dir: dir, Steps: 100, Version: "v0"})
	require.NoError(t, err)
	ck := filepath.Join(dir, CheckpointFile)
	_, err = Resume(context.Background(), dir, Options{Version: "v1"})
	require.ErrorContains(t, err, ck+": written by fecontact v0, this is v1")
	good, err := os.ReadFile(ck)
	require.NoError(t, err)
	// A kill during the next write leaves a temporary file and the last
	// checkpoint as it was.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "."+CheckpointFile+".tmp123"), good[:len(good)/2], 0o644))
	_, err = Resume(context.Background(), dir, Options{Version: "v0", Until: 0.2})
	require.NoError(t, err)
	for _, damage := range [][]byte{good[:len(good)/3], []byte("not a checkpoint"), append(append([]byte{}, good[:100]...), make([]byte, len(good)-100)...)} {
		require.NoError(t, os.WriteFile(ck, damage, 0o644))
		_, err = Resume(context.Background(), dir, Options{Version: "v0"})
		require.Error(t, err)
		require.Contains(t, err.Error(), ck)
	}
	require.NoError(t, os.WriteFile(ck, good, 0o644))
	text, err := os.ReadFile(filepath.Join(dir, SceneAsRun))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, SceneAsRun), []byte(strings.Replace(string(text), "mu = 0.5", "mu = 0.6", 1)), 0o644))
	_, err = Resume(context.Background(), dir, Options{Version: "v0"})
	require.ErrorContains(t, err, ck+": the scene beside it (scene-as-run.toml) is not the one the run was started with")
}

// TestResumeMeshChanged: a Gmsh file changed beside an unchanged scene
// (a node moved by 1 um) makes the checkpoint's bodies not the run's: the
// resume is refused, naming the meshes.
func TestResumeMeshChanged(t *testing.T) {
	src, dir := t.TempDir(), t.TempDir()
	for _, f := range []string{"scene.toml", "disc.msh"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", "disc-impact", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(src, f), data, 0o644))
	}
	sc, err := scene.Load(filepath.Join(src, "scene.toml"))
	require.NoError(t, err)
	_, err = Scene(context.Background(), sc, Options{Dir: dir, Steps: 5, Version: "v0"})
	require.NoError(t, err)
	msh := filepath.Join(src, "disc.msh")
	data, err := os.ReadFile(msh)
	require.NoError(t, err)
	moved := strings.Replace(string(data), "\n0 0.1 0\n", "\n0 0.100001 0\n", 1)
	require.NotEqual(t, string(data), moved)
	require.NoError(t, os.WriteFile(msh, []byte(moved), 0o644))
	_, err = Resume(context.Background(), dir, Options{Version: "v0", Until: 1e-3})
	require.ErrorContains(t, err, "the bodies' meshes are not those the run was started with (a Gmsh file in "+src+" changed since?)")
}
