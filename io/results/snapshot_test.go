package results

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// TestSnapshotsOfAnOldCheckpoint: a run's checkpoint written before the
// finite-element bodies were drawn as shapes kept their pictures'
// snapshots as node positions (SnapshotState.Pos); a run resumed from one
// reads them back as the bodies' mesh shapes, the same a snapshot takes
// now, and refuses positions of another shape.
func TestSnapshotsOfAnOldCheckpoint(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{}, 0.1, 0.05, 4, 2, mesh.Q8)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m)
	require.NoError(t, err)
	b, err := fe.NewBody("block", s, element.Elastic{E: 1e6, Nu: 0.3, Rho: 1000}, fe.BodyOptions{Gravity: [2]float64{0, -9.81}})
	require.NoError(t, err)
	sim, err := timestep.NewSimulation([]*fe.Body{b}, nil, timestep.SimOptions{H: 1e-3})
	require.NoError(t, err)
	for range 10 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	files, _, err := outdir.Create(t.TempDir(), "run", outdir.Options{})
	require.NoError(t, err)
	defer files.Close()
	w, err := NewWriter(files, sim, Options{})
	require.NoError(t, err)
	now := takeSnapshot(sim).Shapes
	require.Len(t, now, 1)
	require.Equal(t, kind.Mesh, now[0].Form)
	assert.Len(t, now[0].Sides, 4*3+5*2, "a 4 x 2 mesh's sides, each once: 4 along each of 3 lines, 2 along each of 5")

	got, err := w.oldMeshes([][][2]float64{now[0].Points})
	require.NoError(t, err)
	assert.Equal(t, now, got)
	_, err = w.oldMeshes([][][2]float64{now[0].Points[1:]})
	assert.EqualError(t, err, "results: a picture's snapshot of 36 nodes for a body of 37")
	_, err = w.oldMeshes([][][2]float64{now[0].Points, now[0].Points})
	assert.EqualError(t, err, "results: a picture's snapshot of 2 finite-element bodies for 1")
}
