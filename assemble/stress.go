package assemble

import (
	"fmt"

	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// Stresses holds recovered stresses: per node, the average over the cells
// sharing it of each cell's stress evaluated at that node; per cell, the
// stress at the cell's reference centroid.
type Stresses struct {
	Node []element.Stress
	Cell []element.Stress
}

// Stresses recovers the stresses of a full displacement vector u. The
// shape functions' gradients at the cells' nodes and centroids are
// computed at the first call and kept (grads): they depend on the mesh
// alone, and recomputing them was two thirds of the recovery, which a run
// does at every output.
func (s *Space) Stresses(u []float64, m element.Elastic) (*Stresses, error) {
	g, err := s.pointGrads()
	if err != nil {
		return nil, err
	}
	return s.recover(u, func(c, p int, _ mesh.Kind, _ [][2]float64, ue []float64, _ [2]float64) (element.Stress, error) {
		return element.StressOf(g.at(c, p, len(s.Mesh.Cells[c].Nodes)), ue, m), nil
	})
}

// CauchyStresses recovers the Cauchy (true) stresses of a hyperelastic
// body at the full displacement u, located by reference position.
func (s *Space) CauchyStresses(u []float64, m element.Hyperelastic) (*Stresses, error) {
	return s.recover(u, func(_, _ int, k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error) {
		return element.CauchyAt(k, X, ue, x, m)
	})
}

// recover averages a cell's stress at its nodes over the cells sharing
// them, and evaluates it at each cell's centroid: at gives cell c's
// stress at its point p (its node p, or its centroid, p = its number of
// nodes), x in the reference cell.
func (s *Space) recover(u []float64, at func(c, p int, k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error)) (*Stresses, error) {
	msh := s.Mesh
	out := &Stresses{Node: make([]element.Stress, len(msh.Nodes)), Cell: make([]element.Stress, len(msh.Cells))}
	count := make([]int, len(msh.Nodes))
	var X [][2]float64
	var ue [16]float64
	for c, cell := range msh.Cells {
		X = msh.CellNodes(X, c)
		for a, n := range cell.Nodes {
			ue[2*a], ue[2*a+1] = u[2*n], u[2*n+1]
		}
		ref := element.RefNodes(cell.Kind)
		for p := range len(cell.Nodes) + 1 {
			st, err := at(c, p, cell.Kind, X, ue[:], pointOf(cell.Kind, ref, p))
			if err != nil {
				return nil, fmt.Errorf("mesh %s: %s: %w", msh.Name, msh.CellAt(c), err)
			}
			if p == len(cell.Nodes) {
				out.Cell[c] = st
				break
			}
			n := cell.Nodes[p]
			sum := &out.Node[n]
			sum.XX, sum.YY, sum.XY, sum.ZZ = sum.XX+st.XX, sum.YY+st.YY, sum.XY+st.XY, sum.ZZ+st.ZZ
			count[n]++
		}
	}
	for n, k := range count {
		if k > 0 {
			st, w := &out.Node[n], 1/float64(k)
			st.XX, st.YY, st.XY, st.ZZ = st.XX*w, st.YY*w, st.XY*w, st.ZZ*w
		}
	}
	return out, nil
}

// pointOf is a cell's point p in its reference cell, ref its nodes there:
// its node p, or its centroid at p = its number of nodes (recover and
// pointGrads number the points so).
func pointOf(k mesh.Kind, ref [][2]float64, p int) [2]float64 {
	switch {
	case p < len(ref):
		return ref[p]
	case k.IsTriangle():
		return [2]float64{1.0 / 3, 1.0 / 3}
	}
	return [2]float64{}
}

// grads are the shape functions' gradients at every cell's points, its
// nodes then its centroid: a gradient per node of the cell at each.
type grads struct {
	from []int        // where each cell's gradients start in g
	g    [][2]float64 // cell c's at its point p: n from from[c]+p*n, n its nodes
}

// at is the gradients of cell c of n nodes at its point p.
func (g *grads) at(c, p, n int) [][2]float64 {
	start := g.from[c] + p*n
	return g.g[start : start+n : start+n]
}

// pointGrads computes the gradients once (an error, a degenerate cell, is
// kept and returned every call, as recomputing them would).
func (s *Space) pointGrads() (*grads, error) {
	s.gradsOnce.Do(func() {
		msh := s.Mesh
		g := &grads{from: make([]int, len(msh.Cells)+1)}
		for c, cell := range msh.Cells {
			n := len(cell.Nodes)
			g.from[c+1] = g.from[c] + n*(n+1)
		}
		g.g = make([][2]float64, g.from[len(msh.Cells)])
		var X [][2]float64
		for c, cell := range msh.Cells {
			X = msh.CellNodes(X, c)
			n := len(cell.Nodes)
			ref := element.RefNodes(cell.Kind)
			for p := range n + 1 {
				if err := element.GradsAt(cell.Kind, X, pointOf(cell.Kind, ref, p), g.at(c, p, n)); err != nil {
					s.gradsErr = fmt.Errorf("mesh %s: %s: %w", msh.Name, msh.CellAt(c), err)
					return
				}
			}
		}
		s.grads = g
	})
	return s.grads, s.gradsErr
}
