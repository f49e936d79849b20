package contact

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVertexFrame: the normal at an antagonist vertex stays in the cone of
// its faces' normals, and the gap is continuous across the faces' regions.
func TestVertexFrame(t *testing.T) {
	r := 1 / math.Sqrt2
	flat := vertex{x: [2]float64{0, 0}, n1: [2]float64{0, 1}, n2: [2]float64{0, 1}, length: 1}
	// A square corner of a body in the third quadrant: faces x = 0 (normal
	// +x, before the vertex) and y = 0 (normal +y, after it).
	corner := vertex{x: [2]float64{0, 0}, n1: [2]float64{1, 0}, n2: [2]float64{0, 1}, length: 1}
	// A valley: faces rising on both sides of the vertex.
	valley := vertex{x: [2]float64{0, 0}, n1: [2]float64{-0.6, 0.8}, n2: [2]float64{0.6, 0.8}, length: 1}
	for _, tc := range []struct {
		name string
		v    vertex
		x    [2]float64
		cand [][2]float64
		n    [2]float64
		g    float64
	}{
		// A node resting on a flat vertex, off by round-off along the face:
		// the face normal, not the direction of a vanishing vector.
		{"flat, tangent round-off", flat, [2]float64{1e-13, 0}, [][2]float64{{0, -1}, {0, -1}}, [2]float64{0, 1}, 0},
		{"flat, above", flat, [2]float64{0.3, 0.2}, nil, [2]float64{0, 1}, 0.2},
		// Outside the corner: the rounded corner.
		{"rounded", corner, [2]float64{0.3, 0.4}, nil, [2]float64{0.6, 0.8}, 0.5},
		// Outside face 1's region: its normal and distance.
		{"face 1 region", corner, [2]float64{0.3, -0.5}, nil, [2]float64{1, 0}, 0.3},
		// Inside: the nearer face.
		{"inside, nearer face 2", corner, [2]float64{-0.3, -0.1}, nil, [2]float64{0, 1}, -0.1},
		// A corner meeting the corner head on along x, slightly in: the
		// face the candidate's own face opposes (its face of normal -x), not
		// the other one round-off would pick.
		{"corner on corner", corner, [2]float64{-1e-4, 1e-16}, [][2]float64{{-1, 0}, {0, 1}}, [2]float64{1, 0}, -1e-4},
		{"corner on corner, exactly", corner, [2]float64{0, 0}, [][2]float64{{-1, 0}, {0, 1}}, [2]float64{1, 0}, 0},
		// A valley: the body is the union of the half-planes, the smaller gap.
		{"valley, nearer the rising face", valley, [2]float64{-0.5, 0.5}, nil, [2]float64{0.6, 0.8}, 0.1},
		{"valley, behind face 1", valley, [2]float64{0.5, 0.1}, nil, [2]float64{-0.6, 0.8}, -0.22},
		// Near a valley's bottom, a node whose own face looks down opposes
		// both faces alike: still the smaller gap (a long obstacle segment
		// makes this zone wide).
		{"valley, in the zone", valley, [2]float64{0.003, 0.001}, [][2]float64{{0, -1}, {0, -1}}, [2]float64{-0.6, 0.8}, -0.001},
	} {
		n, g, _ := vertexFrame(tc.x, tc.v, tc.cand)
		assert.InDeltaSlice(t, tc.n[:], n[:], 1e-12, tc.name)
		assert.InDelta(t, tc.g, g, 1e-12, tc.name)
		// The normal stays in the cone of the faces' normals (or is the
		// rounded corner's direction, which lies in it for a convex vertex).
		assert.GreaterOrEqual(t, math.Min(dot(n, tc.v.n1), dot(n, tc.v.n2)), math.Min(dot(tc.v.n1, tc.v.n2), r)-1e-12, tc.name)
	}
	// Continuity of the gap across the boundary between face 1's region and
	// the rounded corner.
	_, gFace, _ := vertexFrame([2]float64{0.3, -1e-9}, corner, nil)
	_, gRound, _ := vertexFrame([2]float64{0.3, 1e-9}, corner, nil)
	assert.InDelta(t, gFace, gRound, 1e-12)
}
