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

// Stresses recovers the stresses of a full displacement vector u.
func (s *Space) Stresses(u []float64, m element.Elastic) (*Stresses, error) {
	return s.recover(u, func(k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error) {
		return element.StressAt(k, X, ue, x, m)
	})
}

// CauchyStresses recovers the Cauchy (true) stresses of a hyperelastic
// body at the full displacement u, located by reference position.
func (s *Space) CauchyStresses(u []float64, m element.Hyperelastic) (*Stresses, error) {
	return s.recover(u, func(k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error) {
		return element.CauchyAt(k, X, ue, x, m)
	})
}

// recover averages a cell's stress at its nodes over the cells sharing
// them, and evaluates it at each cell's centroid.
func (s *Space) recover(u []float64, at func(k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error)) (*Stresses, error) {
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
		for a, n := range cell.Nodes {
			st, err := at(cell.Kind, X, ue[:], ref[a])
			if err != nil {
				return nil, fmt.Errorf("mesh %s: %s: %w", msh.Name, msh.CellAt(c), err)
			}
			sum := &out.Node[n]
			sum.XX, sum.YY, sum.XY, sum.ZZ = sum.XX+st.XX, sum.YY+st.YY, sum.XY+st.XY, sum.ZZ+st.ZZ
			count[n]++
		}
		st, err := at(cell.Kind, X, ue[:], centroid(cell.Kind))
		if err != nil {
			return nil, fmt.Errorf("mesh %s: %s: %w", msh.Name, msh.CellAt(c), err)
		}
		out.Cell[c] = st
	}
	for n, k := range count {
		if k > 0 {
			st, w := &out.Node[n], 1/float64(k)
			st.XX, st.YY, st.XY, st.ZZ = st.XX*w, st.YY*w, st.XY*w, st.ZZ*w
		}
	}
	return out, nil
}

func centroid(k mesh.Kind) [2]float64 {
	if k.IsTriangle() {
		return [2]float64{1.0 / 3, 1.0 / 3}
	}
	return [2]float64{}
}
