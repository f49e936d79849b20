package run

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// exampleScene decodes an example, with a key set (key = value, TOML).
func exampleScene(t *testing.T, name string, set ...string) *scene.Scene {
	t.Helper()
	data, err := examples.Scene(name)
	require.NoError(t, err)
	sc := textScene(t, string(data), name+".toml", set...)
	sc.Files, err = examples.Files(name)
	require.NoError(t, err)
	sc.Example = name
	return sc
}

// textScene decodes a scene's text, named file, with keys set (key =
// value, TOML).
func textScene(t *testing.T, text, file string, set ...string) *scene.Scene {
	t.Helper()
	for i := 0; i+1 < len(set); i += 2 {
		var err error
		text, err = scene.Override(text, set[i], set[i+1])
		require.NoError(t, err)
	}
	sc, err := scene.Decode(strings.NewReader(text), file)
	require.NoError(t, err)
	return sc
}

// TestResumeExact: a run stopped at step k (its context ended, as by
// SIGINT) and resumed from its checkpoint writes the same files as the
// run never stopped: history.csv, every .pvd and every piece byte for
// byte, and the same summary but for the timings; for the colliding
// blocks (both bases), the pillar (rigid, warm starts), the disc
// (hyperelastic, modified Newton), the klarbring example (point masses),
// a mass under static and dynamic friction (the summary's friction
// counts), a mixed scene and the arch on its shake table (resumed from
// the scene its builder expanded to). The stop falls off the output stride, so that the
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
		{"arch (an expanded builder)", func() *scene.Scene { return exampleScene(t, "arch-shake") }, 300, 137},
		{"repose pile (rolling rows)", func() *scene.Scene { return exampleScene(t, "repose-pile") }, 160, 77},
		{"a mass thrown up an incline (static and dynamic friction)", func() *scene.Scene { return textScene(t, thrownUpIncline, "incline.toml") }, 400, 263},
		{"mixed", func() *scene.Scene {
			sc, err := scene.Load(filepath.Join("..", "scene", "testdata", "mixed.toml"))
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

// thrownUpIncline is a point mass thrown at 0.99 m/s up a plane inclined
// at atan(0.3), static and dynamic friction 0.5 and 0.2: it slides at
// mu_dynamic for 209 steps, its slip turns back in the 210th, which is
// solved again at mu (a stick attempt), and it stays.
const thrownUpIncline = `
[time]
h = 1e-3
duration = 0.4
[[obstacle]]
name = "slope"
points = [[-10.0, 3.0], [10.0, -3.0]]
[[mass]]
name = "m"
mass = 1.0
position = [0.0, 0.0]
velocity = [-0.9482480223689398, 0.2844744067106819]
gravity = [0.0, -9.81]
[[point_contact]]
obstacle = "slope"
law = "signorini"
mu = 0.5
mu_dynamic = 0.2
`

// sortedLines is a text's lines in order.
func sortedLines(b []byte) []byte {
	lines := strings.Split(string(b), "\n")
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n"))
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
		if n == CheckpointFile || n == outdir.LockFile {
			continue // they hold timings, the process
		}
		da, err := os.ReadFile(filepath.Join(a, n))
		require.NoError(t, err)
		db, err := os.ReadFile(filepath.Join(b, n))
		require.NoError(t, err)
		switch n {
		case "summary.txt":
			da, db = untimed(da), untimed([]byte(strings.ReplaceAll(string(db), b, a)))
		case SummaryJSON:
			da, db = untimedJSON(t, da), untimedJSON(t, []byte(strings.ReplaceAll(string(db), b, a)))
		case outdir.MarkerFile: // the same files, listed as they came
			da, db = sortedLines(da), sortedLines(db)
		case results.ParaViewScript: // it names its own folder
			db = []byte(strings.ReplaceAll(string(db), base64.StdEncoding.EncodeToString([]byte(b)), base64.StdEncoding.EncodeToString([]byte(a))))
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

// untimedJSON is summary.json without its figures of the clock and the
// process: when it started, how long, what it cost.
func untimedJSON(t *testing.T, data []byte) []byte {
	var s Summary
	require.NoError(t, json.Unmarshal(data, &s))
	s.Started, s.Elapsed, s.PerStep, s.Cost = "", Quantity{}, Quantity{}, Cost{}
	out, err := json.Marshal(s)
	require.NoError(t, err)
	return out
}

// TestResumeUntilHostile: an --until of 1e300 s or NaN is refused by
// name, not turned into a step count that overflows.
func TestResumeUntilHostile(t *testing.T) {
	dir := t.TempDir()
	_, err := Scene(context.Background(), exampleScene(t, "klarbring"), Options{Dir: dir, Steps: 10, Version: "v0"})
	require.NoError(t, err)
	for _, until := range []float64{1e300, math.Inf(1), math.NaN()} {
		_, err = Resume(context.Background(), dir, Options{Version: "v0", Until: until})
		if math.IsNaN(until) {
			require.NoError(t, err, "NaN is no --until: the run's own end") // the command refuses it (TestRunAndInfoErrors)
			continue
		}
		require.ErrorContains(t, err, fmt.Sprintf("--until %g s:", until))
		require.ErrorContains(t, err, "more than 1e+08 a run may take: give an --until within that")
	}
}

// TestResumeRefusesDamage: a checkpoint with a byte changed anywhere
// (a value the gob stream still decodes, or its checksum), cut short, or
// empty is refused by name, never resumed from; so are one of an older
// format and one another version wrote, each with what to do; a whole
// one resumes.
func TestResumeRefusesDamage(t *testing.T) {
	dir := t.TempDir()
	_, err := Scene(context.Background(), exampleScene(t, "klarbring"), Options{Dir: dir, Steps: 10, Version: "v0"})
	require.NoError(t, err)
	path := filepath.Join(dir, CheckpointFile)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		data func() []byte
		want string
	}{
		{"a byte of the state", func() []byte { return flip(whole, len(whole)/2) }, "damaged since it was written (its checksum does not match)"},
		{"a byte of the checksum", func() []byte { return flip(whole, len(whole)-1) }, "damaged since it was written"},
		{"cut short", func() []byte { return whole[:len(whole)-100] }, "damaged since it was written"},
		{"empty", func() []byte { return nil }, "not a checkpoint of fecontact run, or damaged"},
		{"an older format", func() []byte {
			var b bytes.Buffer
			require.NoError(t, gob.NewEncoder(&b).Encode(checkpointHeader{Format: checkpointFormat, Version: checkpointVersion - 1, Program: "v-old"}))
			return b.Bytes()
		}, fmt.Sprintf("a checkpoint of format %d, written by v-old; this fecontact reads format %d: resume it with the version that wrote it, or start the run again", checkpointVersion-1, checkpointVersion)},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, c.data(), 0o644))
			_, err := Resume(context.Background(), dir, Options{Version: "v0"})
			require.ErrorContains(t, err, path+": ")
			require.ErrorContains(t, err, c.want)
		})
	}
	require.NoError(t, os.WriteFile(path, whole, 0o644))
	_, err = Resume(context.Background(), dir, Options{Version: "v1"})
	require.ErrorContains(t, err, path+": written by v0, this is v1: resume it with the version that wrote it")
	_, err = Resume(context.Background(), dir, Options{Version: "v0"})
	require.NoError(t, err)
}

// flip is data with byte i's bits inverted, on a copy.
func flip(data []byte, i int) []byte {
	out := append([]byte(nil), data...)
	out[i] ^= 0xff
	return out
}
