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
	require.NoError(t, os.Remove(filepath.Join(dir, "granular.csv")))
	sr, err := Granular(dir, *GranularOptions(nil, []float64{0.3, 0.6}))
	require.NoError(t, err)
	after, err := os.ReadFile(filepath.Join(dir, "granular.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(during), string(after), "the same measures from the folder")
	assert.Len(t, sr.Rows, 7)

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
