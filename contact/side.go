package contact

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// Side is a named edge group of a deformable body, used as a candidate
// boundary, an antagonist boundary, or both.
type Side struct {
	Body int // the caller's index of the body, used in Entry.Body
	// Owner is the body the side is an edge group of, as its caller holds
	// it (fe.Body.Side sets it): a simulation gives Body its number
	// for that body when it numbers its bodies. nil: Body as given.
	Owner     any
	Mesh      *mesh.Mesh
	DOFs      *assemble.DOFMap
	Group     string
	thickness float64 // m: Thickness; fixed, since forces per m and depths are of it

	edges   []mesh.Edge    // the group's (Edges)
	nodes   []int          // distinct nodes of the edges, sorted (Nodes)
	local   map[int]int    // mesh node -> index in nodes
	corners map[int]corner // the body's boundary faces at each node
	// all is edges followed by the flanks: the body's boundary edges that
	// continue the group past its free ends. As an antagonist a side is
	// the group and its flanks, so that a point entering the body just
	// past the end of the group (through the face that meets it at a
	// corner) meets a face, not a vertex.
	all []mesh.Edge
	// read is the nodes of all (AllNodes), whose positions Detector.Drift
	// compares, and shortest the length of the shortest edge of all, in
	// the reference configuration: the scale of Drift.
	read     []int
	shortest float64
}

// Thickness is the body's thickness (m), as NewSide was given it.
func (s *Side) Thickness() float64 { return s.thickness }

// NewSide looks up an edge group of a body's mesh and checks its edges.
func NewSide(body int, m *mesh.Mesh, dofs *assemble.DOFMap, group string, thickness float64) (*Side, error) {
	if body < 0 {
		return nil, fmt.Errorf("mesh %s: edge group %q: body index %d: expected the index of its body (>= 0)", m.Name, group, body)
	}
	edges, err := m.EdgeGroup(group)
	if err != nil {
		return nil, err
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("mesh %s: edge group %q is empty", m.Name, group)
	}
	if !(thickness > 0) {
		return nil, fmt.Errorf("mesh %s: edge group %q: thickness %g must be positive", m.Name, group, thickness)
	}
	tiny := 1e-12 * diameter(m)
	for k, e := range edges {
		if l := m.EdgeLength(e); !(l > tiny) {
			return nil, fmt.Errorf("mesh %s: edge group %q: edge %d (nodes %v) has zero length", m.Name, group, k, e.Nodes)
		}
	}
	s := &Side{Body: body, Mesh: m, DOFs: dofs, Group: group, thickness: thickness, edges: edges,
		nodes: mesh.EdgeNodes(edges), local: map[int]int{}}
	for i, n := range s.nodes {
		s.local[n] = i
	}
	s.corners = boundaryCorners(m, s.nodes)
	s.all = append(slices.Clip(edges), s.flanks()...)
	s.read = mesh.EdgeNodes(s.all)
	for n, c := range boundaryCorners(m, s.read) {
		s.corners[n] = c
	}
	s.shortest = math.Inf(1)
	for _, e := range s.all {
		s.shortest = min(s.shortest, m.EdgeLength(e))
	}
	return s, nil
}

// Edges are the side's edges, the group's (a copy).
func (s *Side) Edges() []mesh.Edge { return slices.Clone(s.edges) }

// Nodes are the distinct nodes of the side's edges, sorted (a copy).
func (s *Side) Nodes() []int { return slices.Clone(s.nodes) }

// flanks returns the boundary edges of the body that meet the group at its
// free ends (end nodes of only one edge of the group).
func (s *Side) flanks() []mesh.Edge {
	ends := map[int]int{}
	for _, e := range s.edges {
		ends[e.Nodes[0]]++
		ends[e.Nodes[1]]++
	}
	inGroup := func(f mesh.Edge) bool {
		return slices.ContainsFunc(s.edges, func(e mesh.Edge) bool { return e.Cell == f.Cell && e.Side == f.Side })
	}
	var out []mesh.Edge
	for _, n := range s.nodes {
		c := s.corners[n]
		if ends[n] != 1 || !c.ok {
			continue
		}
		for _, f := range []mesh.Edge{c.in, c.out} {
			if !inGroup(f) && !slices.ContainsFunc(out, func(e mesh.Edge) bool { return e.Cell == f.Cell && e.Side == f.Side }) {
				out = append(out, f)
			}
		}
	}
	return out
}

// AllNodes returns the nodes the side's contact rows may involve: those of
// its edges and of its flanks, sorted. Detection reads their positions,
// and those of the faces beyond the flanks for the normals at the flanks'
// far vertices (Detector.Drift does not compare those).
func (s *Side) AllNodes() []int { return slices.Clone(s.read) }

// edge returns antagonist entry k: an edge of the group, then the flanks.
func (s *Side) edge(k int) mesh.Edge {
	return s.all[k]
}

func diameter(m *mesh.Mesh) float64 {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range m.Nodes {
		lo[0], lo[1] = min(lo[0], p[0]), min(lo[1], p[1])
		hi[0], hi[1] = max(hi[0], p[0]), max(hi[1], p[1])
	}
	return math.Hypot(hi[0]-lo[0], hi[1]-lo[1])
}

// position returns node n's current position given the body's full
// displacement vector u (nil: reference position).
func (s *Side) position(u []float64, n int) [2]float64 { return displaced(s.Mesh, u, n) }

// Basis selects how reactions are represented on a candidate boundary.
type Basis int

// Reaction bases.
const (
	Nodal   Basis = iota // P lumped on its diagonal: forces at nodes
	Pairing              // the full P_ij of [JM91]
)

// ParseBasis reads "nodal" or "pairing".
func ParseBasis(s string) (Basis, error) {
	switch s {
	case "nodal":
		return Nodal, nil
	case "pairing":
		return Pairing, nil
	}
	return 0, fmt.Errorf("reaction basis %q: expected nodal or pairing", s)
}

// reactionBasis evaluates the non-negative reaction basis functions of an
// n-node edge at s: the edge's own shape functions on 2-node edges, linear
// hats on the two half-edges on 3-node edges (ends, then mid-side node).
func reactionBasis(n int, s float64, F []float64) {
	if n == 2 {
		element.EdgeShape(2, s, F, nil)
		return
	}
	if s <= 0 {
		F[0], F[1], F[2] = -s, 0, 1+s
	} else {
		F[0], F[1], F[2] = 0, s, 1-s
	}
}

// Weight is one entry P_ij of a column j of the pairing matrix.
type Weight struct {
	I int // local index of node i in Side.Nodes
	P float64
}

// PairingMatrix computes P_ij = integral of E_i F_j da over the side (times
// the thickness) by columns: column j lists (i, P_ij) sorted by i, over the
// side's local node indices. On 3-node edges each half-edge is
// integrated separately (F_j has a kink at the mid-side node) with 4 Gauss
// points, exact for the degree-3 products on straight edges.
func (s *Side) PairingMatrix() [][]Weight {
	P := make([]map[int]float64, len(s.nodes)) // P[j][i]
	for j := range P {
		P[j] = map[int]float64{}
	}
	var E, dE, F [3]float64
	for _, e := range s.edges {
		n := len(e.Nodes)
		halves := [][2]float64{{-1, 1}}
		if n == 3 {
			halves = [][2]float64{{-1, 0}, {0, 1}}
		}
		for _, hf := range halves {
			for _, g := range element.Line(4) {
				sp := (hf[0]+hf[1])/2 + (hf[1]-hf[0])/2*g.X[0]
				w := g.W * (hf[1] - hf[0]) / 2
				element.EdgeShape(n, sp, E[:n], dE[:n])
				reactionBasis(n, sp, F[:n])
				var dx, dy float64
				for a, node := range e.Nodes {
					dx += dE[a] * s.Mesh.Nodes[node][0]
					dy += dE[a] * s.Mesh.Nodes[node][1]
				}
				da := math.Hypot(dx, dy) * w * s.thickness
				for a, na := range e.Nodes {
					for b, nb := range e.Nodes {
						P[s.local[nb]][s.local[na]] += E[a] * F[b] * da
					}
				}
			}
		}
	}
	cols := make([][]Weight, len(P))
	for j, col := range P {
		for i, v := range col {
			cols[j] = append(cols[j], Weight{I: i, P: v})
		}
		slices.SortFunc(cols[j], func(a, b Weight) int { return a.I - b.I })
	}
	return cols
}

// Lump returns the nodal form of a pairing matrix: each column's total on
// its diagonal (the tributary area of node j).
func Lump(P [][]Weight) [][]Weight {
	out := make([][]Weight, len(P))
	for j, col := range P {
		var sum float64
		for _, w := range col {
			sum += w.P
		}
		out[j] = []Weight{{I: j, P: sum}}
	}
	return out
}
