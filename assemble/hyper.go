package assemble

import (
	"fmt"

	"github.com/fecontact/fecontact/assemble/csr"

	"github.com/fecontact/fecontact/element"
)

// Hyper assembles a hyperelastic body at the full displacement u (2 per
// node, node-major): it sets f (the space's equations) to the internal
// force and, when K is not nil (a matrix of the space's pattern), K to the
// tangent stiffness, and returns the stored energy. Fixed DOFs keep the
// values u gives them. An inverted point is an error naming the cell.
func (s *Space) Hyper(m element.Hyperelastic, u, f []float64, K *csr.Matrix) (float64, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if len(u) != 2*len(s.Mesh.Nodes) || len(f) != s.N() {
		return 0, fmt.Errorf("mesh %s: Hyper with %d displacements and %d forces for %d nodes and %d equations", s.Mesh.Name, len(u), len(f), len(s.Mesh.Nodes), s.N())
	}
	clear(f)
	var data []float64
	if K != nil {
		data = K.Data
		if len(data) != len(s.ind) {
			return 0, fmt.Errorf("mesh %s: Hyper with a tangent of another pattern", s.Mesh.Name)
		}
		clear(data)
	}
	var w element.Workspace
	var X [][2]float64
	var eqs []int
	var fe, ue [16]float64
	var ke []float64
	if K != nil {
		ke = make([]float64, 16*16)
	}
	var energy float64
	for c, cell := range s.Mesh.Cells {
		nd := 2 * cell.Kind.NumNodes()
		X = s.Mesh.CellNodes(X, c)
		for a, n := range cell.Nodes {
			ue[2*a], ue[2*a+1] = u[2*n], u[2*n+1]
		}
		clear(fe[:nd])
		var kc []float64
		if K != nil {
			kc = ke[:nd*nd]
			clear(kc)
		}
		wc, err := s.elems[cell.Kind].Hyper(fe[:nd], kc, X, ue[:nd], m, &w)
		if err != nil {
			return 0, fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		energy += wc
		s.addCell(f, fe[:nd], c)
		if K != nil {
			eqs = s.cellEqs(eqs, c)
			s.scatter(data, kc, eqs)
		}
	}
	return energy, nil
}

// HyperDamping assembles into Kd (of the space's pattern) the damping
// stiffness of a hyperelastic material at the full displacements u
// (element.Element.HyperDamping): beta Kd v is a stiffness-proportional
// damping force that leaves rigid motions alone at any orientation.
func (s *Space) HyperDamping(m element.Hyperelastic, u []float64, Kd *csr.Matrix) error {
	if len(u) != 2*len(s.Mesh.Nodes) {
		return fmt.Errorf("mesh %s: HyperDamping with %d displacements for %d nodes", s.Mesh.Name, len(u), len(s.Mesh.Nodes))
	}
	data := Kd.Data
	if len(data) != len(s.ind) {
		return fmt.Errorf("mesh %s: HyperDamping with a matrix of another pattern", s.Mesh.Name)
	}
	clear(data)
	var w element.Workspace
	var X [][2]float64
	var eqs []int
	var ue [16]float64
	ke := make([]float64, 16*16)
	for c, cell := range s.Mesh.Cells {
		nd := 2 * cell.Kind.NumNodes()
		X = s.Mesh.CellNodes(X, c)
		for a, n := range cell.Nodes {
			ue[2*a], ue[2*a+1] = u[2*n], u[2*n+1]
		}
		kc := ke[:nd*nd]
		clear(kc)
		if err := s.elems[cell.Kind].HyperDamping(kc, X, ue[:nd], m, &w); err != nil {
			return fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		eqs = s.cellEqs(eqs, c)
		s.scatter(data, kc, eqs)
	}
	return nil
}
