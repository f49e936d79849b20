package element

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/internal/errlist"
	"github.com/fecontact/fecontact/mesh"
)

// Element is a cell kind with a quadrature rule and its shape functions
// tabulated at the rule's points, so that kernels evaluate nothing twice.
// An Element is read-only after New and safe to share between goroutines.
type Element struct {
	Kind   mesh.Kind
	Points []Point
	N      [][]float64    // N[q][a]: shape function a at point q
	DN     [][][2]float64 // DN[q][a]: its reference gradient
}

// New tabulates kind k on its DefaultRule.
func New(k mesh.Kind) *Element { return NewWithRule(k, DefaultRule(k)) }

// NewWithRule tabulates kind k on the given rule.
func NewWithRule(k mesh.Kind, rule []Point) *Element {
	n := k.NumNodes()
	e := &Element{Kind: k, Points: rule, N: make([][]float64, len(rule)), DN: make([][][2]float64, len(rule))}
	for q, p := range rule {
		e.N[q] = make([]float64, n)
		e.DN[q] = make([][2]float64, n)
		Shape(k, p.X, e.N[q], e.DN[q])
	}
	return e
}

// NumNodes is the number of nodes of the element.
func (e *Element) NumNodes() int { return e.Kind.NumNodes() }

// Map computes, at quadrature point q of a cell with node coordinates X,
// the physical gradients of the shape functions into dNdx and returns the
// Jacobian determinant.
func (e *Element) Map(X [][2]float64, q int, dNdx [][2]float64) float64 {
	return mapGrad(X, e.DN[q], dNdx)
}

// mapGrad maps reference gradients dN to physical ones given node
// coordinates X, and returns det J. With det J = 0 dNdx is left untouched.
func mapGrad(X [][2]float64, dN, dNdx [][2]float64) float64 {
	var j00, j01, j10, j11 float64 // J[i][k] = d x_i / d xi_k
	for a, d := range dN {
		j00 += X[a][0] * d[0]
		j01 += X[a][0] * d[1]
		j10 += X[a][1] * d[0]
		j11 += X[a][1] * d[1]
	}
	det := j00*j11 - j01*j10
	if det == 0 || dNdx == nil {
		return det
	}
	// grad N = J^{-T} dN
	i00, i01, i10, i11 := j11/det, -j01/det, -j10/det, j00/det
	for a, d := range dN {
		dNdx[a] = [2]float64{i00*d[0] + i10*d[1], i01*d[0] + i11*d[1]}
	}
	return det
}

// Diameter is the largest distance between two corners of the cell.
func Diameter(k mesh.Kind, X [][2]float64) float64 {
	var d float64
	nc := k.NumCorners()
	for a := 0; a < nc; a++ {
		for b := a + 1; b < nc; b++ {
			d = math.Max(d, math.Hypot(X[a][0]-X[b][0], X[a][1]-X[b][1]))
		}
	}
	return d
}

// ErrBadJacobian is wrapped by errors about inverted or degenerate cells.
var ErrBadJacobian = fmt.Errorf("bad Jacobian")

// degenerateTol is the smallest accepted det J * reference area relative to
// the cell's squared diameter: below it a cell is flat to round-off.
const degenerateTol = 1e-10

// minDet is the smallest det J accepted in a cell with node coordinates X:
// det J times the reference area must exceed degenerateTol times the
// squared diameter. Computed once per cell, not per Gauss point.
func minDet(k mesh.Kind, X [][2]float64) float64 {
	d := Diameter(k, X)
	return degenerateTol * d * d / RefArea(k)
}

// point names where a Jacobian is evaluated: Gauss point Q, or, when Q is
// negative, the reference point X.
type point struct {
	Q int
	X [2]float64
}

func (p point) String() string {
	if p.Q < 0 {
		return fmt.Sprintf("reference point (%g, %g)", p.X[0], p.X[1])
	}
	return fmt.Sprintf("Gauss point %d", p.Q)
}

// checkDet classifies a Jacobian determinant at a point against the cell's
// threshold (minDet).
func checkDet(det, floor float64, at point) error {
	switch {
	case math.IsNaN(det):
		return fmt.Errorf("%w: det J is NaN at %v (a coordinate is not a number)", ErrBadJacobian, at)
	case det <= 0 && -det > floor:
		return fmt.Errorf("%w: inverted (det J = %.3g < 0 at %v): nodes must run counter-clockwise", ErrBadJacobian, det, at)
	case det <= floor:
		return fmt.Errorf("%w: degenerate (det J = %.3g at %v, below %.3g for this cell's size)", ErrBadJacobian, det, at, floor)
	}
	return nil
}

// CheckCell verifies that the Jacobian of a cell is positive and not
// vanishingly small at every point of the element's rule.
func (e *Element) CheckCell(X [][2]float64) error {
	floor := minDet(e.Kind, X)
	for q := range e.Points {
		if err := checkDet(mapGrad(X, e.DN[q], nil), floor, point{Q: q}); err != nil {
			return err
		}
	}
	return nil
}

// CheckMesh runs the mesh's topological Check and then verifies the
// Jacobian of every cell. All problems are returned, joined, each naming
// the cell (and the file line for meshes read from a file).
func CheckMesh(m *mesh.Mesh) error {
	err := m.Check()
	if err != nil {
		return err // Jacobians are meaningless on a broken topology.
	}
	var errs []error
	els := map[mesh.Kind]*Element{}
	var X [][2]float64
	for c, cell := range m.Cells {
		e := els[cell.Kind]
		if e == nil {
			e = New(cell.Kind)
			els[cell.Kind] = e
		}
		X = m.CellNodes(X, c)
		if err := e.CheckCell(X); err != nil {
			errs = append(errs, fmt.Errorf("mesh %s: %s: %w", m.Name, m.CellAt(c), err))
		}
	}
	return errlist.Join(errs, 20)
}
