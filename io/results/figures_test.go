package results_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// TestFiguresMatchHistory: the figures a sweep gathers, kept in memory
// step by step, are those of the history the same Writer writes (the
// colliding blocks, 500 steps: the upper block lands, slides, and leaves
// at step 369).
func TestFiguresMatchHistory(t *testing.T) {
	data, err := examples.Scene("colliding-blocks")
	require.NoError(t, err)
	sc, err := scene.Decode(bytes.NewReader(data), "colliding-blocks.toml")
	require.NoError(t, err)
	model, err := sc.Model(scene.Variant{})
	require.NoError(t, err)
	sim, err := model.Simulation()
	require.NoError(t, err)
	dir := t.TempDir()
	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	require.NoError(t, err)
	defer files.Close()
	out, err := results.NewWriter(files, sim, results.Options{})
	require.NoError(t, err)
	require.NoError(t, out.Record(timestep.StepStats{}, false))
	for range 500 {
		st, err := sim.Step()
		require.NoError(t, err)
		require.NoError(t, out.Record(st, false))
	}
	require.NoError(t, out.Close())
	f := out.Figures()

	file, err := os.Open(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	defer file.Close()
	rows, err := csv.NewReader(file).ReadAll()
	require.NoError(t, err)
	num := func(r []string, name string) float64 {
		i := results.ColumnIndex(rows[0], name)
		require.GreaterOrEqual(t, i, 0, name)
		v, err := strconv.ParseFloat(r[i], 64)
		require.NoError(t, err)
		return v
	}
	var peak float64
	first, last := -1, -1
	for k, r := range rows[1:] {
		peak = math.Max(peak, math.Hypot(num(r, "contact1_fx"), num(r, "contact1_fy")))
		if num(r, "stick")+num(r, "slide") > 0 {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	end := rows[len(rows)-1]
	require.Positive(t, first)
	assert.InDelta(t, float64(last-first+1)*1e-6, f.ContactDuration, 1e-15)
	assert.InDelta(t, peak, f.PeakForce, 1e-8*peak)
	assert.InDelta(t, num(end, "kinetic")/num(rows[1], "kinetic"), f.KineticRatio(), 1e-11)
	assert.InDelta(t, num(end, "friction_work"), f.FrictionWork, 1e-9*math.Abs(f.FrictionWork))
	assert.InDelta(t, num(end, "normal_work"), f.ContactLawWork, 1e-9*math.Abs(f.ContactLawWork))
	assert.Less(t, f.KineticRatio(), 1.0, "friction took some")
	assert.True(t, math.IsNaN(results.Figures{}.KineticRatio()), "no ratio for a run that starts at rest")
}
