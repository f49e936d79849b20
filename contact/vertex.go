package contact

import (
	"math"

	"github.com/fecontact/fecontact/mesh"
)

// vertexZone is the size, relative to the shorter adjacent edge, of the
// neighbourhood of an antagonist vertex where the candidate's own boundary
// decides which face it touches (see vertexFrame). Within it the geometry
// of a point against a corner cannot tell a corner meeting a corner head-on
// from one sliding along the other's face; outside it the answer is the
// plain closest-face one.
const vertexZone = 0.01

// corner is the pair of boundary edges of a body that meet at one of its
// boundary nodes: in ends there and out starts there, walking with the body
// on the left. ok is false where the boundary is not a simple curve at the
// node (no edge or more than two).
type corner struct {
	in, out mesh.Edge
	ok      bool
}

// boundaryCorners returns the corners of m's boundary at the given nodes.
func boundaryCorners(m *mesh.Mesh, nodes []int) map[int]corner {
	want := make(map[int]bool, len(nodes))
	for _, n := range nodes {
		want[n] = true
	}
	count := map[int]int{}
	out := make(map[int]corner, len(nodes))
	for _, e := range m.BoundaryEdges() {
		for end, n := range e.Nodes[:2] {
			if !want[n] {
				continue
			}
			count[n]++
			c := out[n]
			if end == 1 {
				c.in = e
			} else {
				c.out = e
			}
			out[n] = c
		}
	}
	for n, c := range out {
		c.ok = count[n] == 2 && c.in.Nodes != nil && c.out.Nodes != nil
		out[n] = c
	}
	return out
}

// edgeNormal is the outward unit normal of a boundary edge at its end
// (end 0: the first node, 1: the second) in the displacement u, and the
// distance between the edge's ends (its chord; a straight edge's length,
// whose square root the normal takes too).
func (s *Side) edgeNormal(u []float64, e mesh.Edge, end int) (n [2]float64, chord float64) {
	var t [2]float64
	if len(e.Nodes) == 2 {
		a, b := s.position(u, e.Nodes[0]), s.position(u, e.Nodes[1])
		t = [2]float64{b[0] - a[0], b[1] - a[1]}
		chord = norm(t[0], t[1])
		return [2]float64{t[1] / chord, -t[0] / chord}, chord
	}
	var X [3][2]float64
	for i, n := range e.Nodes {
		X[i] = s.position(u, n)
	}
	_, t = quadratic(&X, float64(2*end-1))
	l := norm(t[0], t[1])
	return [2]float64{t[1] / l, -t[0] / l}, dist(X[0], X[1])
}

// faces returns the outward normals of the two boundary faces of the body
// that meet at node n (before and after it, body on the left), and whether
// the node is a simple boundary corner.
func (s *Side) faces(u []float64, n int) (n1, n2 [2]float64, ok bool) {
	c, found := s.corners[n]
	if !found || !c.ok {
		return n1, n2, false
	}
	n1, _ = s.edgeNormal(u, c.in, 1)
	n2, _ = s.edgeNormal(u, c.out, 0)
	return n1, n2, true
}

// vertex describes an antagonist vertex for vertexFrame: its position, the
// outward normals of the faces before and after it (body on the left), and
// the length that scales its zone.
type vertex struct {
	x      [2]float64
	n1, n2 [2]float64
	length float64
}

func cross(a, b [2]float64) float64 { return a[0]*b[1] - a[1]*b[0] }
func dot(a, b [2]float64) float64   { return a[0]*b[0] + a[1]*b[1] }

// vertexFrame gives the normal and gap of a candidate at x whose closest
// antagonist point is at (or within the zone of) vertex v. cand lists the
// outward normals of the candidate's own boundary faces at its node (none
// for a point without a boundary of its own).
//
// With d = x - v and g_k = d.n_k the signed distances to the two faces'
// lines:
//   - convex vertex, d outside the body in the cone between n1 and n2 and
//     longer than round-off: the rounded corner, n = d/|d|, g = |d|;
//   - convex vertex, within the zone and not clearly outside (max g_k
//     below the zone): the face whose normal best opposes one of the
//     candidate's own faces (a corner meeting a corner face to face takes
//     that face, not the other one the round-off of a vanishing d points
//     to); ties go to the larger gap;
//   - otherwise the face of the larger g_k (convex: the nearer face when
//     inside, the face whose region holds x when outside) or of the smaller
//     g_k (concave: the body is the union of the two half-planes).
//
// The gap is continuous across the faces' regions; the normal stays in the
// cone of the two faces' normals except in the rounded corner, where it
// turns continuously from one to the other.
//
// face tells which: 0 for the rounded corner, 1 or 2 for a face.
func vertexFrame(x [2]float64, v vertex, cand [][2]float64) (n [2]float64, g float64, face int) {
	d := [2]float64{x[0] - v.x[0], x[1] - v.x[1]}
	g1, g2 := dot(d, v.n1), dot(d, v.n2)
	convex := cross(v.n1, v.n2) >= 0
	dist := norm(d[0], d[1])
	zone := vertexZone * v.length
	inCone := cross(v.n1, d) >= 0 && cross(d, v.n2) >= 0
	switch {
	case convex && inCone && dist > 1e-9*v.length:
		return [2]float64{d[0] / dist, d[1] / dist}, dist, 0
	case convex && dist <= zone && max(g1, g2) <= zone && len(cand) > 0:
		o1, o2 := opposition(v.n1, cand), opposition(v.n2, cand)
		if o1 > o2+1e-9 || (o1 >= o2-1e-9 && g1 >= g2) {
			return v.n1, g1, 1
		}
		return v.n2, g2, 2
	case convex == (g1 >= g2):
		return v.n1, g1, 1
	}
	return v.n2, g2, 2
}

// opposition is how well a face normal n opposes the best of the
// candidate's face normals: max over them of -n.m.
func opposition(n [2]float64, cand [][2]float64) float64 {
	best := math.Inf(-1)
	for _, m := range cand {
		best = max(best, -dot(n, m))
	}
	return best
}
