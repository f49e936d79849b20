package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/mesh"
)

// TestGaugeGridMatchesAll: the depth the gauge finds through its grid of
// boundary segments is the depth testing every segment finds, to the bit,
// at random points in and around bodies with straight, quadratic and
// curved boundaries, displaced at random; at the boundary's nodes and
// edge midpoints both are within round-off of 0.
func TestGaugeGridMatchesAll(t *testing.T) {
	disc, err := mesh.ReadGmsh("../examples/disc-impact/disc.msh")
	require.NoError(t, err)
	q8, err := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 90, 30, mesh.Q8)
	require.NoError(t, err)
	t3, err := mesh.Rectangle([2]float64{-1, -1}, 2, 0.5, 200, 50, mesh.T3)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []*mesh.Mesh{disc, q8, t3} {
		boundary := m.BoundaryEdges()
		u := make([]float64, 2*len(m.Nodes))
		size := 0.0
		var g gauge
		g.setBody(boundary, m, nil)
		size = math.Max(g.hi[0]-g.lo[0], g.hi[1]-g.lo[1])
		for i := range u {
			u[i] = 1e-3 * size * (rng.Float64() - 0.5)
		}
		g.setBody(boundary, m, u)
		if !g.gridded { // the disc's few segments: grid them all the same
			g.grid.build(g.segs, g.lo, g.hi)
			g.gridded = true
		}
		all := g
		all.gridded = false
		for range 20000 {
			x := [2]float64{g.lo[0] + (g.hi[0]-g.lo[0])*(1.1*rng.Float64()-0.05), g.lo[1] + (g.hi[1]-g.lo[1])*(1.1*rng.Float64()-0.05)}
			require.Equal(t, all.depth(x), g.depth(x), "at %v", x)
		}
		for _, s := range g.segs {
			for _, x := range [][2]float64{s[0], {(s[0][0] + s[1][0]) / 2, (s[0][1] + s[1][1]) / 2}} {
				require.InDelta(t, all.depth(x), g.depth(x), 1e-12*size, "at %v", x)
			}
		}
	}
}
