package element

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/mesh"
)

// Elastic is an isotropic linear elastic material in 2D.
type Elastic struct {
	E           float64 // Young's modulus, Pa
	Nu          float64 // Poisson's ratio
	Rho         float64 // density, kg/m^3
	Thickness   float64 // out-of-plane thickness, m; 0 means 1
	PlaneStress bool    // plane stress instead of the default plane strain
}

// Validate reports a material that no computation should use.
func (m Elastic) Validate() error {
	switch {
	case !(m.E > 0) || math.IsInf(m.E, 0):
		return fmt.Errorf("material: Young's modulus E = %g must be positive and finite", m.E)
	case !(m.Nu > -1 && m.Nu < 0.5):
		return fmt.Errorf("material: Poisson's ratio nu = %g must lie in (-1, 0.5)", m.Nu)
	case !(m.Rho > 0) || math.IsInf(m.Rho, 0):
		return fmt.Errorf("material: density rho = %g must be positive and finite", m.Rho)
	case m.Thickness < 0 || math.IsNaN(m.Thickness) || math.IsInf(m.Thickness, 0):
		return fmt.Errorf("material: thickness = %g must be positive (0 means 1 m)", m.Thickness)
	}
	return nil
}

// T is the thickness, with 0 read as 1 m.
func (m Elastic) T() float64 {
	if m.Thickness == 0 {
		return 1
	}
	return m.Thickness
}

// D returns the 3x3 stress-strain matrix in Voigt order (xx, yy, xy) with
// engineering shear strain.
func (m Elastic) D() [3][3]float64 {
	E, nu := m.E, m.Nu
	if m.PlaneStress {
		c := E / (1 - nu*nu)
		return [3][3]float64{{c, c * nu, 0}, {c * nu, c, 0}, {0, 0, c * (1 - nu) / 2}}
	}
	c := E / ((1 + nu) * (1 - 2*nu))
	return [3][3]float64{{c * (1 - nu), c * nu, 0}, {c * nu, c * (1 - nu), 0}, {0, 0, c * (1 - 2*nu) / 2}}
}

// WaveSpeeds returns the dilatational (P) and shear (S) wave speeds of the
// 2D model: sqrt(D00/rho) and sqrt(G/rho).
func (m Elastic) WaveSpeeds() (cp, cs float64) {
	D := m.D()
	return math.Sqrt(D[0][0] / m.Rho), math.Sqrt(D[2][2] / m.Rho)
}

// Workspace holds the scratch memory of the element kernels so that a loop
// over cells allocates nothing. The zero value is ready to use; a Workspace
// must not be shared between goroutines.
type Workspace struct {
	dNdx        [][2]float64
	pts         []meanPoint
	theta, bvec []float64
}

func (w *Workspace) meanPoints(nq int) []meanPoint {
	if cap(w.pts) < nq {
		w.pts = make([]meanPoint, nq)
	}
	return w.pts[:nq]
}

// meanVecs returns two cleared slices of nd.
func (w *Workspace) meanVecs(nd int) (theta, b []float64) {
	if cap(w.theta) < nd {
		w.theta, w.bvec = make([]float64, nd), make([]float64, nd)
	}
	theta, b = w.theta[:nd], w.bvec[:nd]
	clear(theta)
	clear(b)
	return theta, b
}

func (w *Workspace) grads(n int) [][2]float64 {
	if cap(w.dNdx) < n {
		w.dNdx = make([][2]float64, n)
	}
	return w.dNdx[:n]
}

// Stiffness adds the element stiffness of a cell with node coordinates X to
// ke (2n x 2n, row-major, node-major DOFs). It returns an error for an
// inverted or degenerate cell.
func (e *Element) Stiffness(ke []float64, X [][2]float64, m Elastic, w *Workspace) error {
	n := e.NumNodes()
	nd := 2 * n
	D := m.D()
	t := m.T()
	g := w.grads(n)
	floor := minDet(e.Kind, X)
	for q, p := range e.Points {
		det := e.Map(X, q, g)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return err
		}
		f := t * det * p.W
		for b := 0; b < n; b++ {
			bx, by := g[b][0], g[b][1]
			// Columns of D B_b for the x and y DOFs of node b.
			dbx := [3]float64{D[0][0] * bx, D[1][0] * bx, D[2][2] * by}
			dby := [3]float64{D[0][1] * by, D[1][1] * by, D[2][2] * bx}
			for a := 0; a < n; a++ {
				ax, ay := g[a][0], g[a][1]
				r := 2 * a * nd
				ke[r+2*b] += f * (ax*dbx[0] + ay*dbx[2])
				ke[r+2*b+1] += f * (ax*dby[0] + ay*dby[2])
				ke[r+nd+2*b] += f * (ay*dbx[1] + ax*dbx[2])
				ke[r+nd+2*b+1] += f * (ay*dby[1] + ax*dby[2])
			}
		}
	}
	return nil
}

// Mass adds the consistent mass of a cell to me (2n x 2n, row-major).
func (e *Element) Mass(me []float64, X [][2]float64, m Elastic) error {
	n := e.NumNodes()
	nd := 2 * n
	rt := m.Rho * m.T()
	floor := minDet(e.Kind, X)
	for q, p := range e.Points {
		det := mapGrad(X, e.DN[q], nil)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return err
		}
		N := e.N[q]
		f := rt * det * p.W
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				v := f * N[a] * N[b]
				me[2*a*nd+2*b] += v
				me[(2*a+1)*nd+2*b+1] += v
			}
		}
	}
	return nil
}

// LumpedMass adds the HRZ lumped nodal masses of a cell to ml (n entries,
// one mass per node, the same for both components).
func (e *Element) LumpedMass(ml []float64, X [][2]float64, m Elastic) error {
	n := e.NumNodes()
	var diag [8]float64
	var total, trace float64
	rt := m.Rho * m.T()
	floor := minDet(e.Kind, X)
	for q, p := range e.Points {
		det := mapGrad(X, e.DN[q], nil)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return err
		}
		f := rt * det * p.W
		total += f
		for a := 0; a < n; a++ {
			diag[a] += f * e.N[q][a] * e.N[q][a]
		}
	}
	for a := 0; a < n; a++ {
		trace += diag[a]
	}
	for a := 0; a < n; a++ {
		ml[a] += diag[a] * total / trace
	}
	return nil
}

// BodyLoad adds the consistent nodal forces of a body force density f(x)
// (N/m^3) to fe (2n entries).
func (e *Element) BodyLoad(fe []float64, X [][2]float64, thickness float64, f func(x [2]float64) [2]float64) error {
	floor := minDet(e.Kind, X)
	for q, p := range e.Points {
		det := mapGrad(X, e.DN[q], nil)
		if err := checkDet(det, floor, point{Q: q}); err != nil {
			return err
		}
		N := e.N[q]
		var x [2]float64
		for a := range N {
			x[0] += N[a] * X[a][0]
			x[1] += N[a] * X[a][1]
		}
		v := f(x)
		w := thickness * det * p.W
		for a := range N {
			fe[2*a] += w * N[a] * v[0]
			fe[2*a+1] += w * N[a] * v[1]
		}
	}
	return nil
}

// EdgeLoad adds the consistent nodal forces of a traction t(x, n) (Pa) on
// an edge with node coordinates X (2 or 3 nodes, ends first) to fe; n is the
// unit normal on the right of the edge's direction (outward for boundary
// edges). A 4-point rule integrates any quadratic edge exactly for
// polynomial tractions of degree 3.
func EdgeLoad(fe []float64, X [][2]float64, thickness float64, t func(x, n [2]float64) [2]float64) error {
	nn := len(X)
	var N, dN [3]float64
	for _, p := range Line(4) {
		EdgeShape(nn, p.X[0], N[:nn], dN[:nn])
		var x, dx [2]float64
		for a := 0; a < nn; a++ {
			x[0] += N[a] * X[a][0]
			x[1] += N[a] * X[a][1]
			dx[0] += dN[a] * X[a][0]
			dx[1] += dN[a] * X[a][1]
		}
		l := math.Hypot(dx[0], dx[1])
		if !(l > 0) {
			return fmt.Errorf("edge %v has zero length", X)
		}
		v := t(x, [2]float64{dx[1] / l, -dx[0] / l})
		w := thickness * l * p.W
		for a := 0; a < nn; a++ {
			fe[2*a] += w * N[a] * v[0]
			fe[2*a+1] += w * N[a] * v[1]
		}
	}
	return nil
}

// Stress is a plane stress state with the out-of-plane normal stress (zero
// in plane stress, nu (xx + yy) in plane strain).
type Stress struct{ XX, YY, XY, ZZ float64 }

// VonMises is the equivalent stress sqrt(3 J2).
func (s Stress) VonMises() float64 {
	a, b, c := s.XX-s.YY, s.YY-s.ZZ, s.ZZ-s.XX
	return math.Sqrt((a*a+b*b+c*c)/2 + 3*s.XY*s.XY)
}

// GradsAt sets g to the physical shape gradients at reference point x of
// a cell of kind k with node coordinates X; an inverted or degenerate map
// there is an error naming the point.
func GradsAt(k mesh.Kind, X [][2]float64, x [2]float64, g [][2]float64) error {
	var dN [8][2]float64
	var N [8]float64
	n := len(g)
	Shape(k, x, N[:n], dN[:n])
	det := mapGrad(X, dN[:n], g)
	return checkDet(det, minDet(k, X), point{Q: -1, X: x})
}

// StressAt returns the stress at reference point x of a cell of kind k with
// node coordinates X and nodal displacements u (node-major).
func StressAt(k mesh.Kind, X [][2]float64, u []float64, x [2]float64, m Elastic) (Stress, error) {
	var g [8][2]float64
	n := k.NumNodes()
	if err := GradsAt(k, X, x, g[:n]); err != nil {
		return Stress{}, err
	}
	return StressOf(g[:n], u, m), nil
}

// StressOf returns the stress of nodal displacements u (node-major) from
// the shape functions' gradients g at a point (GradsAt's): StressAt with
// the gradients computed once for a cell's every output.
func StressOf(g [][2]float64, u []float64, m Elastic) Stress {
	var exx, eyy, gxy float64
	for a := range g {
		exx += g[a][0] * u[2*a]
		eyy += g[a][1] * u[2*a+1]
		gxy += g[a][1]*u[2*a] + g[a][0]*u[2*a+1]
	}
	D := m.D()
	s := Stress{
		XX: D[0][0]*exx + D[0][1]*eyy,
		YY: D[1][0]*exx + D[1][1]*eyy,
		XY: D[2][2] * gxy,
	}
	if !m.PlaneStress {
		s.ZZ = m.Nu * (s.XX + s.YY)
	}
	return s
}
