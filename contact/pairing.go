package contact

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/mesh"
)

// A candidate node paired with its antagonist: its projection, the rules
// at a vertex and in a valley, and the reverse pass's redundant units.

// project finds, for each node of the pass's candidate side (by local
// index), its antagonist point, or nil. direct holds the direct pass's
// points when ps is the reverse pass.
func (d *Detector) project(pi int, p *Pair, ps *pass, cfg Config, direct []*Point) ([]*Point, error) {
	c := ps.cand
	u := c.disp(cfg)
	ant := ps.geometry(p, cfg)
	w := ps.work
	g := &w.grid
	g.build(ant.boxes, len(c.nodes))
	if len(w.out) != len(c.nodes) {
		w.out, w.found = make([]*Point, len(c.nodes)), make([]Point, len(c.nodes))
	}
	out, found, near := w.out, w.found, w.near
	clear(out)
	w.valley = w.valley[:0]
	defer func() { w.near = near }()
	for li, n := range c.nodes {
		x := c.position(u, n)
		if math.IsNaN(x[0] + x[1]) {
			return nil, fmt.Errorf("contact pair %q: candidate %s of %s is at (%v, %v)", p.Name, c.Mesh.NodeAt(n), c.Mesh.Name, x[0], x[1])
		}
		near = g.near(near[:0], x)
		best, bestK := projection{}, -1
		for _, k := range near {
			if ps.ant != nil && ps.ant == c && slices.Contains(c.edge(k).Nodes, n) {
				continue // a node never contacts its own edges
			}
			pr := ant.project(k, x)
			if pr.dist <= p.Alert && (bestK < 0 || pr.better(best, p.Alert)) {
				best, bestK = pr, k
			}
		}
		if bestK < 0 {
			continue
		}
		if second, ok := valleyPoint(x, best, bestK, ant, near, p.Alert); ok && p.Law == Positional {
			first := best
			first.n = first.face
			first.gap = dot([2]float64{x[0] - first.xa[0], x[1] - first.xa[1]}, first.face)
			w.valley = append(w.valley, Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: second.xa, N: second.n,
				T: [2]float64{-second.n[1], second.n[0]}, Gap: second.gap, Edge: second.k, S: second.s})
			found[li] = Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: first.xa, N: first.n, T: [2]float64{-first.n[1], first.n[0]},
				Gap: first.gap, Edge: bestK, S: first.s}
			out[li] = &found[li]
			continue
		}
		best = atVertex(x, best, bestK, ant, func() [][2]float64 {
			n1, n2, ok := c.faces(u, n)
			if !ok {
				return nil
			}
			w.own = [2][2]float64{n1, n2} // no slice to allocate per node
			return w.own[:]
		})
		if ps.reverse && best.gap >= -reverseDepth*ps.weights[li][0].P/c.thickness && p.Candidate.redundant(direct, ps.ant.edge(bestK), best.s, n, p.Antagonist, u) {
			continue
		}
		found[li] = Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: best.xa, N: best.n, T: [2]float64{-best.n[1], best.n[0]},
			Gap: best.gap, Edge: bestK, S: best.s}
		out[li] = &found[li]
	}
	return out, nil
}

// atVertex applies vertexFrame when the closest point of x on entry k is
// within the vertex zone of its nearer end, or anywhere on the half of the
// entry next to a concave (valley) vertex: there the body is the union of
// the two faces' half-planes, and a point running along one face towards
// the valley must see the other face rising before it reaches it, or it
// enters that face by as much as it travels in a step. The antagonist must
// know the faces at that end. A frame on the entry's own face keeps the
// closest point; another frame moves it to the vertex. faces gives the
// outward normals of the candidate's own boundary at x (none for a point
// without one), asked for only when needed.
func atVertex(x [2]float64, pr projection, k int, ant antagonist, faces func() [][2]float64) projection {
	end := 0
	if pr.s > 0 {
		end = 1
	}
	v, own, ok := ant.vertex(k, end)
	if !ok || (cross(v.n1, v.n2) >= 0 && (1-math.Abs(pr.s))/2 > vertexZone) {
		return pr
	}
	nv, g, face := vertexFrame(x, v, faces())
	if face == own {
		pr.n, pr.gap = pr.face, (x[0]-pr.xa[0])*pr.face[0]+(x[1]-pr.xa[1])*pr.face[1]
		return pr
	}
	pr.n, pr.gap, pr.xa, pr.s = nv, g, v.x, float64(2*end-1)
	return pr
}

// valleyTurn is the smallest turn (rad) between the two faces of a
// concave antagonist vertex at which a candidate near it is held out of
// both faces (see valleyPoint). Below it one face suffices: the leak
// through the other is at most the turn times the step's travel, while the
// extra rows cost sweeps (measured on the colliding blocks: 0.04 rad
// quadrupled the sweeps at refine 4 for no gain in depth, 0.4 rad keeps
// them and cuts the refine-8 depth from 44 % to 8 % of a cell).
const valleyTurn = 0.4

// faceProjection is a candidate's projection on entry k's face: the
// closest point, the face's normal there and the signed distance along it.
type faceProjection struct {
	k      int
	xa, n  [2]float64
	gap, s float64
}

// valleyPoint: where the closest point of x on entry k lies on the half
// next to a concave vertex (a valley) whose faces turn by more than
// valleyTurn, the body there is the union of the two faces' half-planes:
// a point is out of it only when it is out of both. One constraint on the
// nearer face lets the point through the other one, by as much as it
// travels in a step (a sharp corner ploughing a notch into a softer face
// does so at every step). valleyPoint returns the point's projection on
// the other face, within the alert distance, to be held as well.
func valleyPoint(x [2]float64, pr projection, k int, ant antagonist, near []int, alert float64) (faceProjection, bool) {
	end := 0
	if pr.s > 0 {
		end = 1
	}
	v, _, ok := ant.vertex(k, end)
	if !ok || cross(v.n1, v.n2) > -math.Sin(valleyTurn) {
		return faceProjection{}, false
	}
	for _, k2 := range near {
		if k2 == k {
			continue
		}
		for e2 := range 2 {
			if v2, _, ok := ant.vertex(k2, e2); !ok || v2.x != v.x {
				continue
			}
			q := ant.project(k2, x)
			g := dot([2]float64{x[0] - q.xa[0], x[1] - q.xa[1]}, q.face)
			return faceProjection{k: k2, xa: q.xa, n: q.face, gap: g, s: q.s}, g <= alert
		}
	}
	return faceProjection{}, false
}

// smoothTurn is the largest turn (rad) between the two faces of a reverse
// candidate's boundary at which it counts as a smooth point: between two
// nodes of the other body held on it, its depth into the other body's
// straight edge is at most a quarter of that turn times the edge length
// (1 % of the edge).
const smoothTurn = 0.04

// redundant reports whether the reverse candidate b (a node of the side
// other, in other's displacement ub), whose closest point is at parameter
// at on edge e of this side, adds nothing to the direct pass: b lies next to
// a node of e that the direct pass paired with an edge of other holding b
// (node on node), or b is a smooth point of other's boundary under an edge
// e whose two ends the direct pass holds (then b cannot enter this body by
// more than the sagitta). Keeping such units only makes near-duplicate
// rows: a nearly singular Delassus operator that NLGS does not converge on.
func (s *Side) redundant(direct []*Point, e mesh.Edge, at float64, b int, other *Side, ub []float64) bool {
	if direct[s.local[e.Nodes[0]]] != nil && direct[s.local[e.Nodes[1]]] != nil && math.Abs(at) < 1 {
		n1, n2, ok := other.faces(ub, b)
		if !ok || math.Abs(math.Asin(max(-1, min(1, cross(n1, n2))))) <= smoothTurn && dot(n1, n2) > 0 {
			return true
		}
	}
	for i, a := range e.Nodes {
		if math.Abs(at-nodeParam[i])/2 > reverseSkip {
			continue
		}
		if q := direct[s.local[a]]; q != nil && slices.Contains(other.edge(q.Edge).Nodes, b) {
			return true
		}
	}
	return false
}

// nodeParam is the parameter of node i of an edge: -1, +1, then 0 for the
// mid-side node.
var nodeParam = [3]float64{-1, 1, 0}
