package rigid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGridDisk: a disk is drawn as a 32-gon with a notch from its
// centre to the vertex on its own x axis, which turns with it (a regular
// polygon turning looks still), and the cells carry each body's angle.
func TestGridDisk(t *testing.T) {
	d, err := NewBody("disk", Disk{R: 0.5}, [2]float64{1, 2}, 1000)
	require.NoError(t, err)
	d.Q[2] = 0.3
	sys, err := NewSystem([]*Body{d}, nil, 0)
	require.NoError(t, err)
	g := Grid(sys)
	require.Len(t, g.Polygons, 1)
	require.Len(t, g.Polygons[0], diskSides+1)
	require.Equal(t, [2]float64{1, 2}, g.Points[0], "the notch starts at the centre")
	require.InDelta(t, 1+0.5*math.Cos(0.3), g.Points[1][0], 1e-15)
	require.InDelta(t, 2+0.5*math.Sin(0.3), g.Points[1][1], 1e-15)
	for _, f := range g.CellData {
		if f.Name == "angle" {
			require.Equal(t, []float64{0.3}, f.Values)
			return
		}
	}
	t.Fatal("no angle")
}
