package results

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/internal/toy"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// TestAKindTheOutputsNeverHeardOf: a kind added by one line
// (SimOptions.Kinds: the beads of internal/toy, which implement
// kind.Drawn) is written like the built-in ones, with no line of this
// package naming it: its series (beads.pvd, a piece per output time, the
// beads where they are), its history columns (each bead's position and
// velocity, the values the step left), its dots in bodies.png's snapshot,
// and its style in the ParaView script; the rigid body beside it keeps its
// own series and columns.
func TestAKindTheOutputsNeverHeardOf(t *testing.T) {
	shape, err := rigid.Rectangle(0.2, 0.1)
	require.NoError(t, err)
	box, err := rigid.NewBody("box", shape, [2]float64{5, 5}, 1000)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{box}, nil, 0.01)
	require.NoError(t, err)
	beads := toy.New(2, 0, 1, 0.05, 2, 1)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys, Kinds: []kind.Kind{beads.Kind()}})
	require.NoError(t, err)
	dir := t.TempDir()
	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	require.NoError(t, err)
	w, err := NewWriter(files, sim, Options{})
	require.NoError(t, err)
	require.NoError(t, w.Record(timestep.StepStats{}, true))
	for step := 1; step <= 200; step++ {
		st, err := sim.Step()
		require.NoError(t, err)
		require.NoError(t, w.Record(st, step%50 == 0))
	}
	require.NoError(t, w.Close())
	files.Close()

	entries, err := vtk.ReadPVD(filepath.Join(dir, "beads.pvd"))
	require.NoError(t, err)
	require.Len(t, entries, 5, "a piece at t = 0 and every 50 steps")
	last, err := vtk.ReadVTU(entries[4].File) // ReadPVD gives them with the folder
	require.NoError(t, err)
	require.Len(t, last.Points, 2)
	assert.Equal(t, beads.X[0], last.Points[0][0])
	assert.FileExists(t, filepath.Join(dir, "rigid.pvd"))

	f, err := os.Open(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	col := map[string]int{}
	for j, h := range rows[0] {
		col[h] = j
	}
	for _, name := range []string{"bead1_x [m]", "bead1_v [m/s]", "bead2_x [m]", "bead2_v [m/s]", "box_cy [m]"} {
		require.Contains(t, col, name)
	}
	end := rows[len(rows)-1]
	for k := range 2 {
		x, _ := strconv.ParseFloat(end[col["bead"+strconv.Itoa(k+1)+"_x [m]"]], 64)
		v, _ := strconv.ParseFloat(end[col["bead"+strconv.Itoa(k+1)+"_v [m/s]"]], 64)
		assert.InDelta(t, beads.X[k], x, 1e-12*(1+beads.X[k]))
		assert.InDelta(t, beads.V[k], v, 1e-12*(1+beads.V[k]))
	}
	assert.Positive(t, beads.V[0], "pushed along the rail")

	var dots int
	for _, s := range takeSnapshot(sim).Shapes {
		if s.Form == kind.Dot {
			dots++
		}
	}
	assert.Equal(t, 2, dots, "the beads in bodies.png")
	script, err := os.ReadFile(filepath.Join(dir, ParaViewScript))
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(script), `"beads.pvd": "dots"`) && strings.Contains(string(script), `"rigid.pvd": "solid"`), "%s", script[:200])
}
