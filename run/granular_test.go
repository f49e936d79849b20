package run

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
)

// TestGranularFromFolder: the 28 disks with [output] granular write
// granular.csv, forces.png, fabric.png and chains.pvd; fecontact granular
// on the finished folder (run.Granular) computes the same granular.csv
// byte for byte; at every output time the force chains' normal forces
// sum to the normal forces of the units between rigid bodies that
// contacts.pvd writes; the summary gives the means.
func TestGranularFromFolder(t *testing.T) {
	sc, err := scene.Example("disks-28")
	require.NoError(t, err)
	sc.Output.Granular = &scene.Granular{Window: []float64{0.3, 0.6}}
	dir := t.TempDir()
	r, err := Scene(context.Background(), sc, Options{Dir: dir, Steps: 600, Every: 100, Command: "test", Version: "v0"})
	require.NoError(t, err)
	assert.Contains(t, r.Summary, "granular (mean of 4 output times from t = 0.3 s): ")
	for _, f := range []string{"granular.csv", "forces.png", "fabric.png", "chains.pvd"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	during, err := os.ReadFile(filepath.Join(dir, "granular.csv"))
	require.NoError(t, err)
	assert.Equal(t, 1+7, strings.Count(string(during), "\n"), "header and the 7 output times")
	runFiles := folderBytes(t, dir)
	out := t.TempDir()
	sr, warnings, err := Granular(GranularRequest{Run: dir, Out: out, Options: GranularOptions(nil, []float64{0.3, 0.6}, nil)})
	require.NoError(t, err)
	assert.Empty(t, warnings)
	after, err := os.ReadFile(filepath.Join(out, "granular.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(during), string(after), "the same measures from the folder")
	assert.Len(t, sr.Rows, 7)
	assert.FileExists(t, filepath.Join(out, "forces.png"))
	assert.Equal(t, runFiles, folderBytes(t, dir), "the run's own files untouched")

	// Without a window: the scene's (disks-28 ships [2, 3]); into the run's
	// own folder, or without one: refused; a region without grains: warned.
	sr, _, err = Granular(GranularRequest{Run: dir, Out: out})
	require.NoError(t, err)
	assert.Equal(t, 2.0, sr.Options.From)
	assert.Equal(t, 3.0, sr.Options.To)
	for o, want := range map[string]string{dir: "is the run's own", dir + "/.": "is the run's own", "": "no output folder: give one (-o DIR)"} {
		_, _, err = Granular(GranularRequest{Run: dir, Out: o, Options: &granular.Options{}})
		assert.ErrorContains(t, err, want, o)
	}
	_, warnings, err = Granular(GranularRequest{Run: dir, Out: out, Options: GranularOptions([]float64{100, 101, 100, 101}, nil, nil)})
	require.NoError(t, err)
	assert.Contains(t, warnings, "granular: no free grain in the region x 100..101, y 100..101 at any output time of the window: the rows are zeros; give a region that holds grains (the default is the free grains' box)")
	assert.Equal(t, runFiles, folderBytes(t, dir), "the run's own files untouched")

	chains, err := vtk.ReadPVD(filepath.Join(dir, "chains.pvd"))
	require.NoError(t, err)
	contacts, err := vtk.ReadPVD(filepath.Join(dir, "contacts.pvd"))
	require.NoError(t, err)
	require.Len(t, chains, len(contacts))
	for k := range chains {
		ch, err := vtk.ReadVTU(chains[k].File)
		require.NoError(t, err)
		cp, err := vtk.ReadVTU(contacts[k].File)
		require.NoError(t, err)
		var a, b float64
		for _, v := range ch.Cell("force_normal").Values {
			a += v
		}
		ra, f, n, pn := cp.Point("rigid_a"), cp.Point("force"), cp.Point("normal"), cp.Point("impulse_normal")
		for i := range cp.Points {
			if ra.Values[i] >= 0 && pn.Values[i] > 0 {
				b += f.Values[3*i]*n.Values[3*i] + f.Values[3*i+1]*n.Values[3*i+1]
			}
		}
		assert.InDelta(t, b, a, 1e-12*math.Max(1, math.Abs(b)), "output %d: the chains' forces are the contacts'", k)
	}
}

// folderBytes is every file of dir but fecontact's lock note, with its
// bytes.
func folderBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range es {
		if e.Name() == ".fecontact.lock" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(data)
	}
	return out
}
