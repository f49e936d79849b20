package contact

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/mesh"
)

// TestDeepest: the deepest node of either side inside the other body, from
// the bodies' boundaries alone. The upper block a (candidate, bottom at
// y = 0.0402) stands 0.2 mm above b (top at 0.04); one node is moved into
// the other block. Overlaps reports only what is deeper than the alert
// distance (1 mm). DepthsTo gives that node's depth, and no node deeper:
// the raised node's neighbours on the other block dip into the edges it
// lifts, by less.
func TestDeepest(t *testing.T) {
	d, sides := twoBlocks(t, mesh.Q4, Nodal)
	a, b := sides[0].Mesh, sides[1].Mesh
	node := func(m *mesh.Mesh, x, y float64) int {
		for n, p := range m.Nodes {
			if math.Abs(p[0]-x) < 1e-9 && math.Abs(p[1]-y) < 1e-9 {
				return n
			}
		}
		t.Fatalf("no node at (%g, %g)", x, y)
		return -1
	}
	for _, tc := range []struct {
		name    string
		body    int // 0: a, 1: b
		node    int
		dy      float64
		want    Overlap
		overlap bool
	}{
		{"none", 0, 0, 0, Overlap{}, false},
		{"antagonist node inside the candidate", 1, node(b, 0.04, 0.04), 5e-4,
			Overlap{Reverse: true, Node: node(b, 0.04, 0.04), X: [2]float64{0.04, 0.0405}, Depth: 3e-4}, false},
		{"candidate node inside the antagonist", 0, node(a, 0.031+0.04/3, 0.0402), -7e-4,
			Overlap{Node: node(a, 0.031+0.04/3, 0.0402), X: [2]float64{0.031 + 0.04/3, 0.0395}, Depth: 5e-4}, false},
		{"deeper than the alert distance", 1, node(b, 0.06, 0.04), 2e-3,
			Overlap{Reverse: true, Node: node(b, 0.06, 0.04), X: [2]float64{0.06, 0.042}, Depth: 1.8e-3}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			disp := [][]float64{make([]float64, 2*len(a.Nodes)), make([]float64, 2*len(b.Nodes))}
			disp[tc.body][2*tc.node+1] = tc.dy
			got := slices.Clone(d.Deepest(Config{Disp: disp}, false))
			require.Len(t, got, 1)
			assert.Equal(t, tc.want.Reverse, got[0].Reverse)
			assert.Equal(t, tc.want.Node, got[0].Node)
			assert.InDelta(t, tc.want.X[0], got[0].X[0], 1e-12)
			assert.InDelta(t, tc.want.X[1], got[0].X[1], 1e-12)
			assert.InDelta(t, tc.want.Depth, got[0].Depth, 1e-12)
			depths := [][]float64{make([]float64, len(a.Nodes)), make([]float64, len(b.Nodes))}
			d.DepthsTo(depths, Config{Disp: disp})
			assert.InDelta(t, tc.want.Depth, depths[tc.body][tc.node], 1e-12, "the node moved")
			assert.Equal(t, tc.want.Depth > 0, slices.Max(depths[1-tc.body]) > 0, "the other block's nodes")
			assert.InDelta(t, tc.want.Depth, max(slices.Max(depths[0]), slices.Max(depths[1])), 1e-12, "the deepest")
			if tc.overlap {
				assert.Equal(t, got, d.Overlaps(Config{Disp: disp}, false))
			} else {
				assert.Empty(t, d.Overlaps(Config{Disp: disp}, false))
			}
		})
	}
}
