package fe

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// Rayleigh damping C = Alpha M + Beta K.
type Rayleigh struct{ Alpha, Beta float64 }

// Traction is a time-dependent traction (Pa) on a named edge group; n is the
// outward unit normal.
type Traction struct {
	Group string
	Value func(t float64, x, n [2]float64) [2]float64
}

// Body is a deformable body: its space, material, matrices and state.
type Body struct {
	Name  string
	Space *assemble.Space
	// Material is the zero value for a body made of its matrices
	// (NewBodyFromMatrices): it has no stresses to recover.
	Material  element.Elastic
	Thickness float64 // m
	M, K      *csr.Matrix
	// Tractions are applied on top of gravity; they may depend on time.
	Tractions []Traction
	// Ramp, when positive, raises gravity and the tractions linearly from
	// zero at t = 0 to their full value at t = Ramp (s), so that a body
	// settles on its supports without the shock of a sudden load.
	Ramp float64

	// Law, when set, makes the body hyperelastic (large strain, total
	// Lagrangian, plane strain) with Material's E, Nu and Rho: its internal
	// force and stored energy come from element.Hyperelastic, each step is
	// solved by Newton iterations, K is the tangent at rest, and
	// stiffness-proportional damping acts on the strain rate (newton.go).
	// Zero: linear small strain.
	Law element.Law
	// Dilatation is how a hyperelastic cell's volume change enters Law
	// (element.MeanDilatation against locking as Nu nears 1/2).
	Dilatation element.Dilatation

	// Q and V are the displacements and velocities of the free DOFs.
	Q, V []float64

	// ContactNodes are the nodes whose DOFs contact may act on, for a
	// Stepper made by NewStepper: it copies them, orders them last in the
	// factor and keeps their compliance (a change later has no effect).
	// NewSimulation takes them from the detector's sides instead.
	ContactNodes []int

	drive   *drive     // the driven groups (BodyOptions.Driven), nil for none
	damping Rayleigh   // set at construction: the stepper's operators and ledger are built on it
	accel   [2]float64 // gravity's acceleration, whose load vector is gravity
	gravity []float64  // the constant load vector of gravity
	masses  []float64  // per m of thickness (NodalMasses)
}

// Damping is the body's Rayleigh damping (BodyOptions.Damping): fixed at
// construction, since the stepper's operators and the energy ledger are
// built on it.
func (b *Body) Damping() Rayleigh { return b.damping }

// Gravity is the acceleration of gravity on the body (BodyOptions.Gravity),
// fixed at construction with its load vector.
func (b *Body) Gravity() [2]float64 { return b.accel }

// BodyOptions are a body's loads, damping and mass lumping; its supports
// are the fixes of its Space.
type BodyOptions struct {
	Lumped   bool // HRZ lumped mass instead of the consistent one
	Damping  Rayleigh
	Gravity  [2]float64
	Traction []Traction
	Ramp     float64 // s; see Body.Ramp
	// Thickness (m) is for NewBodyFromMatrices (NewBody takes the
	// material's); 0 means 1 m.
	Thickness float64
	// Law makes the body hyperelastic (see Body.Law); NewBody only.
	Law        element.Law
	Dilatation element.Dilatation // see Body.Dilatation; with Law only
	// Driven are groups whose fixed components (the space's) move with a
	// prescribed velocity (Driven).
	Driven []Driven
}

// NewBody assembles a body's matrices and loads; it starts at rest in its
// reference configuration.
func NewBody(name string, space *assemble.Space, mat element.Elastic, opt BodyOptions) (*Body, error) {
	if opt.Law == 0 && opt.Dilatation != element.FullDilatation {
		return nil, fmt.Errorf("body %s: dilatation %v is for the hyperelastic laws: set Law", name, opt.Dilatation)
	}
	if opt.Law != 0 {
		if mat.PlaneStress {
			return nil, fmt.Errorf("body %s: the hyperelastic laws are plane strain: remove plane stress", name)
		}
		if err := hyperOf(mat, opt.Law, opt.Dilatation).Validate(); err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
	}
	if err := mat.Validate(); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	if opt.Thickness != 0 && opt.Thickness != mat.T() {
		return nil, fmt.Errorf("body %s: thickness %g m in the options and %g m in the material: give it in the material", name, opt.Thickness, mat.T())
	}
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	K, err := space.Stiffness(mat)
	if err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	var M *csr.Matrix
	if opt.Lumped {
		if M, err = space.LumpedMassMatrix(mat); err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
	} else if M, err = space.Mass(mat); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	b := bodyOf(name, space, M, K, mat.T(), opt)
	b.Material, b.Law, b.Dilatation = mat, opt.Law, opt.Dilatation
	if b.masses, err = materialMasses(space, mat, opt.Lumped); err != nil {
		return nil, fmt.Errorf("body %s: nodal masses: %w", name, err)
	}
	for _, tr := range opt.Traction {
		if _, err := space.Mesh.EdgeGroup(tr.Group); err != nil {
			return nil, fmt.Errorf("body %s: traction: %w", name, err)
		}
	}
	if err := space.Gravity(b.gravity, mat, opt.Gravity); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	if len(opt.Driven) > 0 {
		Mf, Kf, err := fullMatrices(space.Mesh, mat, opt.Lumped)
		if err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
		if b.drive, err = newDrive(space, Mf, Kf, opt.Driven); err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
		if b.drive != nil && opt.Law != 0 {
			if b.drive.h, err = newHyperDrive(b.drive, space, b.Hyperelastic(), opt.Damping.Beta); err != nil {
				return nil, fmt.Errorf("body %s: %w", name, err)
			}
		}
	}
	return b, nil
}

// fullMatrices are a body's mass and stiffness matrices over all its DOFs,
// none fixed: the coupling of its driven DOFs.
func fullMatrices(m *mesh.Mesh, mat element.Elastic, lumped bool) (M, K *csr.Matrix, err error) {
	all, err := assemble.NewSpace(m)
	if err != nil {
		return nil, nil, err
	}
	if K, err = all.Stiffness(mat); err != nil {
		return nil, nil, err
	}
	if lumped {
		M, err = all.LumpedMassMatrix(mat)
	} else {
		M, err = all.Mass(mat)
	}
	return M, K, err
}

// NewBodyFromMatrices makes a body of a caller's own mass and stiffness
// matrices (an element or a material this module does not have), given
// over the mesh's full DOFs, 2 per node, index 2*node+c: symmetric, M
// positive definite and K positive semi-definite on the free DOFs
// (NewStepper's factorisation tells otherwise, naming the equation). The
// space's fixed DOFs are left out (assemble.Space.Restrict). Gravity is
// the load M g, exact for any mass matrix whose shape functions sum to one;
// the nodal masses are M's row sums; the body has no stresses to recover.
func NewBodyFromMatrices(name string, space *assemble.Space, M, K *csr.Matrix, opt BodyOptions) (*Body, error) {
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	t := opt.Thickness
	if t == 0 {
		t = 1
	}
	mats := [2]*csr.Matrix{M, K}
	for i, A := range mats {
		what := [2]string{"mass", "stiffness"}[i]
		B, err := space.Restrict(A)
		if err != nil {
			return nil, fmt.Errorf("body %s: %s matrix: %w", name, what, err)
		}
		if err := symmetric(B); err != nil {
			return nil, fmt.Errorf("body %s: %s matrix: %w", name, what, err)
		}
		mats[i] = B
	}
	b := bodyOf(name, space, mats[0], mats[1], t, opt)
	if len(opt.Driven) > 0 {
		var err error
		if b.drive, err = newDrive(space, M, K, opt.Driven); err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
	}
	for _, tr := range opt.Traction {
		if _, err := space.Mesh.EdgeGroup(tr.Group); err != nil {
			return nil, fmt.Errorf("body %s: traction: %w", name, err)
		}
	}
	nf := 2 * len(space.Mesh.Nodes)
	g, f := make([]float64, nf), make([]float64, nf)
	for i := range g {
		g[i] = opt.Gravity[i%2]
	}
	assemble.MulVecTo(f, M, g)
	for e, full := range space.DOFs.DOF {
		b.gravity[e] = f[full]
	}
	clear(f)
	for i := range g {
		g[i] = float64(1 - i%2) // unit x translation: row sums of the x rows
	}
	assemble.MulVecTo(f, M, g)
	b.masses = make([]float64, len(space.Mesh.Nodes))
	for n := range b.masses {
		b.masses[n] = f[2*n] / t
	}
	return b, nil
}

func bodyOf(name string, space *assemble.Space, M, K *csr.Matrix, thickness float64, opt BodyOptions) *Body {
	return &Body{Name: name, Space: space, Thickness: thickness, M: M, K: K, damping: opt.Damping,
		accel: opt.Gravity, Tractions: opt.Traction, Ramp: opt.Ramp, Q: space.Vector(), V: space.Vector(), gravity: space.Vector()}
}

func (opt BodyOptions) check() error {
	switch {
	case !(opt.Ramp >= 0) || math.IsInf(opt.Ramp, 0):
		return fmt.Errorf("ramp = %g s: expected a duration >= 0", opt.Ramp)
	case !(opt.Damping.Alpha >= 0) || !(opt.Damping.Beta >= 0) || math.IsInf(opt.Damping.Alpha+opt.Damping.Beta, 0):
		return fmt.Errorf("Rayleigh coefficients alpha %g, beta %g: expected finite values >= 0", opt.Damping.Alpha, opt.Damping.Beta)
	case !(opt.Thickness >= 0) || math.IsInf(opt.Thickness, 0):
		return fmt.Errorf("thickness = %g m: expected a positive value", opt.Thickness)
	case math.IsNaN(opt.Gravity[0]+opt.Gravity[1]) || math.IsInf(opt.Gravity[0]+opt.Gravity[1], 0):
		return fmt.Errorf("gravity = %v: expected finite values", opt.Gravity)
	}
	return nil
}

// Hyperelastic is the body's hyperelastic material (Law and Dilatation
// with Material's constants); meaningful when Law is set.
func (b *Body) Hyperelastic() element.Hyperelastic { return hyperOf(b.Material, b.Law, b.Dilatation) }

// hyperOf is the hyperelastic material of law with mat's constants.
func hyperOf(mat element.Elastic, law element.Law, d element.Dilatation) element.Hyperelastic {
	return element.Hyperelastic{Law: law, E: mat.E, Nu: mat.Nu, Rho: mat.Rho, Thickness: mat.Thickness, Dilatation: d}
}

// symmetric checks A = A' to round-off (1e-12 of its largest entry); A is
// on a space's pattern, whose rows hold sorted columns.
func symmetric(A *csr.Matrix) error {
	var big float64
	for _, v := range A.Data {
		big = max(big, math.Abs(v))
	}
	for i := range A.Rows() {
		for k := A.Indptr[i]; k < A.Indptr[i+1]; k++ {
			if j := A.Ind[k]; j > i {
				if d := math.Abs(A.Data[k] - A.At(j, i)); d > 1e-12*big {
					return fmt.Errorf("not symmetric: entries (%d, %d) and (%d, %d) differ by %.3g", i, j, j, i, d)
				}
			}
		}
	}
	return nil
}

// Side returns the named edge group of the body's mesh as a contact side,
// with the body's thickness, held by the body itself (contact.Side.Owner):
// NewSimulation numbers it with the body, wherever the body is in its
// list.
func (b *Body) Side(group string) (*contact.Side, error) {
	s, err := contact.NewSide(0, b.Space.Mesh, b.Space.DOFs, group, b.Thickness)
	if err != nil {
		return nil, fmt.Errorf("body %s: %w", b.Name, err)
	}
	s.Owner = b
	return s, nil
}

// SetVelocity sets the velocity of every free DOF from a field of the
// reference position.
func (b *Body) SetVelocity(v func(x [2]float64) [2]float64) {
	for e, full := range b.Space.DOFs.DOF {
		b.V[e] = v(b.Space.Mesh.Nodes[full/2])[full%2]
	}
}

// Force writes the external force f(t) on the free DOFs into dst.
func (b *Body) Force(dst []float64, t float64) error {
	copy(dst, b.gravity)
	for _, tr := range b.Tractions {
		err := b.Space.Traction(dst, tr.Group, b.Thickness, func(x, n [2]float64) [2]float64 { return tr.Value(t, x, n) })
		if err != nil {
			return fmt.Errorf("body %s: %w", b.Name, err)
		}
	}
	if b.Ramp > 0 && t < b.Ramp {
		f := max(t, 0) / b.Ramp
		for i := range dst {
			dst[i] *= f
		}
	}
	for i, v := range dst {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("body %s: external force at t = %g is %v on equation %d", b.Name, t, v, i)
		}
	}
	return nil
}

// Displacement returns the full displacement vector (2 per node), a
// driven group's included (BodyOptions.Driven).
func (b *Body) Displacement() []float64 {
	u := make([]float64, 2*len(b.Space.Mesh.Nodes))
	b.displacementTo(u)
	return u
}

// Velocity returns the full velocity vector (2 per node), a driven
// group's included.
func (b *Body) Velocity() []float64 {
	v := make([]float64, 2*len(b.Space.Mesh.Nodes))
	b.velocityTo(v)
	return v
}

// displacementTo writes the full displacement into dst.
func (b *Body) displacementTo(dst []float64) {
	b.Space.Expand(dst, b.Q, nil)
	if b.drive != nil {
		b.drive.fill(dst, b.drive.q)
	}
}

// velocityTo writes the full velocity into dst.
func (b *Body) velocityTo(dst []float64) {
	b.Space.Expand(dst, b.V, nil)
	if b.drive != nil {
		b.drive.fill(dst, b.drive.v)
	}
}

// NodalMasses returns each node's mass per m of thickness (kg/m): the row
// sums of the body's mass matrix over all its nodes, fixed or not, so that
// sum m_i v_i is its momentum 1'M v whichever mass it has: rho times the
// integral of the node's shape function for the consistent mass, the HRZ
// masses for the lumped one, the row sums of the caller's M for a body of
// matrices.
func (b *Body) NodalMasses() []float64 { return slices.Clone(b.masses) }

// materialMasses gives NodalMasses for a body of a material.
func materialMasses(space *assemble.Space, mat element.Elastic, lumped bool) ([]float64, error) {
	if lumped {
		m, err := space.LumpedMass(mat)
		for i := range m {
			m[i] /= mat.T()
		}
		return m, err
	}
	all, err := assemble.NewSpace(space.Mesh)
	if err != nil {
		return nil, err
	}
	f := all.Vector()
	if err := all.BodyForce(f, 1, func([2]float64) [2]float64 { return [2]float64{mat.Rho, 0} }); err != nil {
		return nil, err
	}
	m := make([]float64, len(space.Mesh.Nodes))
	for i := range m {
		m[i] = f[2*i] // no fixes: equation 2i is node i's x
	}
	return m, nil
}
