package results

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/internal/toy"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/timestep"
)

// beadsRun is a Writer on two beads falling onto a wall (internal/toy),
// in a fresh folder.
func beadsRun(t *testing.T) (*Writer, *toy.Beads, *timestep.Simulation, string) {
	t.Helper()
	beads := toy.New(2, 0, 1, 0.05, 2, 1)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Kinds: []kind.Kind{beads.Kind()}})
	require.NoError(t, err)
	dir := t.TempDir()
	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { files.Close() })
	w, err := NewWriter(files, sim, Options{})
	require.NoError(t, err)
	return w, beads, sim, dir
}

// TestPiecesWrittenBesideTheSteps: the pieces are encoded and written
// while the steps go on, yet each holds the state of its output step (not
// a later one the steps reached meanwhile), and a collection is written
// only once every piece it lists is whole on the disk: the checkpoint's
// lists, taken right after an output step, name files that read back.
func TestPiecesWrittenBesideTheSteps(t *testing.T) {
	w, beads, sim, dir := beadsRun(t)
	require.NoError(t, w.Record(timestep.StepStats{}, true))
	want := [][]float64{append([]float64(nil), beads.X...)}
	for step := 1; step <= 300; step++ {
		st, err := sim.Step()
		require.NoError(t, err)
		write := step%20 == 0
		require.NoError(t, w.Record(st, write))
		if write {
			want = append(want, append([]float64(nil), beads.X...))
		}
		if step%60 == 0 { // at once after an output step: its pieces are in flight
			ws, err := w.Checkpoint()
			require.NoError(t, err)
			for _, e := range ws.Lists["beads"] {
				_, err := vtk.ReadVTU(filepath.Join(dir, e.File))
				require.NoError(t, err, "the checkpoint lists %s", e.File)
			}
		}
	}
	require.NoError(t, w.Close())

	entries, err := vtk.ReadPVD(filepath.Join(dir, "beads.pvd"))
	require.NoError(t, err)
	require.Len(t, entries, len(want))
	for k, e := range entries {
		p, err := vtk.ReadVTU(e.File)
		require.NoError(t, err)
		for b, x := range want[k] {
			assert.Equal(t, x, p.Points[b][0], "piece %d, bead %d", k, b)
		}
	}
	assert.NotEqual(t, want[1][0], want[len(want)-1][0], "the beads moved between the outputs")
}

// TestAPieceThatFailsStopsTheRun: a piece whose writing fails beside the
// steps (a folder in its place) stops the run at the next output, the
// checkpoint or the end, naming the file; the history stays partial and
// no collection lists the missing piece.
func TestAPieceThatFailsStopsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		next func(w *Writer, sim *timestep.Simulation) error
	}{
		{"the next output", func(w *Writer, sim *timestep.Simulation) error {
			for step := 2; step <= 40; step++ {
				st, err := sim.Step()
				if err != nil {
					return err
				}
				if err := w.Record(st, step%20 == 0); err != nil {
					return w.Abandon(err)
				}
			}
			return nil
		}},
		{"the checkpoint", func(w *Writer, _ *timestep.Simulation) error {
			_, err := w.Checkpoint()
			if err != nil {
				return w.Abandon(err)
			}
			return nil
		}},
		{"the end", func(*Writer, *timestep.Simulation) error { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, _, sim, dir := beadsRun(t)
			require.NoError(t, w.Record(timestep.StepStats{}, true))
			require.NoError(t, w.writeLists()) // beads.pvd with the first piece
			bad := filepath.Join(dir, fmt.Sprintf("beads_%05d.vtu", 1))
			require.NoError(t, os.Mkdir(bad, 0o755))
			st, err := sim.Step()
			require.NoError(t, err)
			require.NoError(t, w.Record(st, true), "the piece is written beside the steps")
			err = tc.next(w, sim)
			if err == nil {
				err = w.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), bad)
			assert.Contains(t, err.Error(), "history.csv.partial")
			assert.FileExists(t, filepath.Join(dir, "history.csv.partial"))
			assert.NoFileExists(t, filepath.Join(dir, "history.csv"))
			entries, err := vtk.ReadPVD(filepath.Join(dir, "beads.pvd"))
			require.NoError(t, err)
			for _, e := range entries {
				assert.FileExists(t, e.File, "beads.pvd lists only whole pieces")
			}
		})
	}
}
