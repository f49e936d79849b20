package assemble

import (
	"fmt"

	"github.com/fecontact/fecontact/element"
)

// Vector returns a zero free vector.
func (s *Space) Vector() []float64 { return make([]float64, s.N()) }

// addCell adds an element vector of cell c into the free vector dst.
func (s *Space) addCell(dst, fe []float64, c int) {
	for a, n := range s.Mesh.Cells[c].Nodes {
		for k := 0; k < 2; k++ {
			if e := s.DOFs.Eq[2*n+k]; e >= 0 {
				dst[e] += fe[2*a+k]
			}
		}
	}
}

// BodyForce adds the nodal forces of a body force density f(x) (N/m^3,
// over the given thickness) to the free vector dst.
func (s *Space) BodyForce(dst []float64, thickness float64, f func(x [2]float64) [2]float64) error {
	var X [][2]float64
	var fe [16]float64
	for c, cell := range s.Mesh.Cells {
		n := 2 * cell.Kind.NumNodes()
		clear(fe[:n])
		X = s.Mesh.CellNodes(X, c)
		if err := s.elems[cell.Kind].BodyLoad(fe[:n], X, thickness, f); err != nil {
			return fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		s.addCell(dst, fe[:n], c)
	}
	return nil
}

// Gravity adds the weight of the body under acceleration g (m/s^2).
func (s *Space) Gravity(dst []float64, m element.Elastic, g [2]float64) error {
	rg := [2]float64{m.Rho * g[0], m.Rho * g[1]}
	return s.BodyForce(dst, m.T(), func([2]float64) [2]float64 { return rg })
}

// Traction adds the nodal forces of a traction t(x, n) (Pa; n the outward
// unit normal) on the edges of a named edge group.
func (s *Space) Traction(dst []float64, group string, thickness float64, t func(x, n [2]float64) [2]float64) error {
	edges, err := s.Mesh.EdgeGroup(group)
	if err != nil {
		return err
	}
	var fe [6]float64
	X := make([][2]float64, 0, 3)
	for _, e := range edges {
		X = X[:0]
		for _, n := range e.Nodes {
			X = append(X, s.Mesh.Nodes[n])
		}
		clear(fe[:])
		if err := element.EdgeLoad(fe[:2*len(X)], X, thickness, t); err != nil {
			return fmt.Errorf("mesh %s: edge group %q: %w", s.Mesh.Name, group, err)
		}
		for a, n := range e.Nodes {
			for k := 0; k < 2; k++ {
				if q := s.DOFs.Eq[2*n+k]; q >= 0 {
					dst[q] += fe[2*a+k]
				}
			}
		}
	}
	return nil
}

// Lift adds -K_fc u_c to the free vector dst, where u_c are the fixed DOFs'
// imposed displacements g(x) at their nodes: the right-hand side term of a
// non-homogeneous Dirichlet condition.
func (s *Space) Lift(dst []float64, m element.Elastic, g func(x [2]float64) [2]float64) error {
	var X [][2]float64
	var w element.Workspace
	ke := make([]float64, 16*16)
	var uc, fe [16]float64
	for c, cell := range s.Mesh.Cells {
		nd := 2 * cell.Kind.NumNodes()
		fixed := false
		for a, n := range cell.Nodes {
			v := g(s.Mesh.Nodes[n])
			for k := 0; k < 2; k++ {
				uc[2*a+k] = 0
				if s.DOFs.Eq[2*n+k] < 0 {
					uc[2*a+k] = v[k]
					fixed = true
				}
			}
		}
		if !fixed {
			continue
		}
		clear(ke[:nd*nd])
		X = s.Mesh.CellNodes(X, c)
		if err := s.elems[cell.Kind].Stiffness(ke[:nd*nd], X, m, &w); err != nil {
			return fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		for a := 0; a < nd; a++ {
			fe[a] = 0
			for b := 0; b < nd; b++ {
				fe[a] -= ke[a*nd+b] * uc[b]
			}
		}
		s.addCell(dst, fe[:nd], c)
	}
	return nil
}

// Expand writes the full vector (2 x nodes) of a free vector u into dst;
// fixed DOFs get the value of fixed(node) for their component, or zero when
// fixed is nil.
func (s *Space) Expand(dst, u []float64, fixed func(node int) [2]float64) {
	for i, e := range s.DOFs.Eq {
		switch {
		case e >= 0:
			dst[i] = u[e]
		case fixed != nil:
			dst[i] = fixed(i / 2)[i%2]
		default:
			dst[i] = 0
		}
	}
}
