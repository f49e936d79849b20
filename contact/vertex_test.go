package contact

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestSideVertex: the vertex of a side's corner in a displacement has
// the outward normals of its two faces and, as its length, the shorter
// chord of the two: the top-left corner of the lower block (Q4 and Q8)
// pushed 5 mm to the right, so that the top face's chord is 15 mm and the
// flank's 20.6 mm.
func TestSideVertex(t *testing.T) {
	for _, kind := range []mesh.Kind{mesh.Q4, mesh.Q8} {
		t.Run(kind.String(), func(t *testing.T) {
			_, sides := twoBlocks(t, kind, Nodal)
			b := sides[1]
			corner := nodeAt(t, b.Mesh, [2]float64{0, 0.04})
			u := make([]float64, 2*len(b.Mesh.Nodes))
			u[2*corner] = 0.005
			if kind == mesh.Q8 { // the mid-nodes follow: straight faces
				u[2*nodeAt(t, b.Mesh, [2]float64{0.01, 0.04})] = 0.0025
				u[2*nodeAt(t, b.Mesh, [2]float64{0, 0.03})] = 0.0025
			}
			w := &passWork{}
			ant := b.geometry(Config{Disp: [][]float64{nil, u}}, 1e-3, w)
			found := 0
			for k, e := range b.all {
				for end, n := range e.Nodes[:2] {
					if n != corner {
						continue
					}
					v, _, ok := ant.vertex(k, end)
					require.True(t, ok)
					found++
					flank := math.Hypot(0.005, 0.02)
					assert.InDelta(t, 0.015, v.length, 1e-15)
					// The boundary runs counterclockwise: the top face
					// comes before the corner, the flank after it.
					assert.InDeltaSlice(t, []float64{0, 1}, v.n1[:], 1e-12, "the top's normal")
					assert.InDeltaSlice(t, []float64{-0.02 / flank, 0.005 / flank}, v.n2[:], 1e-12, "the flank's normal")
					assert.Equal(t, [2]float64{0.005, 0.04}, v.x)
				}
			}
			assert.Equal(t, 2, found, "the corner ends two edges")
		})
	}
}
