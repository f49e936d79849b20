package timestep

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/james-bowman/sparse"
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
	Name     string
	Space    *assemble.Space
	Material element.Elastic
	M, K     *sparse.CSR
	Damping  Rayleigh
	Gravity  [2]float64
	// Tractions are applied on top of gravity; they may depend on time.
	Tractions []Traction
	// Ramp, when positive, raises gravity and the tractions linearly from
	// zero at t = 0 to their full value at t = Ramp (s), so that a body
	// settles on its supports without the shock of a sudden load.
	Ramp float64

	// Q and V are the displacements and velocities of the free DOFs.
	Q, V []float64

	// ContactNodes are the nodes whose DOFs contact may act on; set them
	// before NewStepper, which orders them last in the factor and keeps
	// their compliance.
	ContactNodes []int

	gravity []float64 // the constant load vector of gravity
}

// Options of a body beyond its mesh and material.
type Options struct {
	Fixed    []assemble.Fix
	Lumped   bool // HRZ lumped mass instead of the consistent one
	Damping  Rayleigh
	Gravity  [2]float64
	Traction []Traction
	Ramp     float64 // s; see Body.Ramp
}

// NewBody assembles a body's matrices and loads; it starts at rest in its
// reference configuration.
func NewBody(name string, space *assemble.Space, mat element.Elastic, opt Options) (*Body, error) {
	if err := mat.Validate(); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	if !(opt.Ramp >= 0) || math.IsInf(opt.Ramp, 0) {
		return nil, fmt.Errorf("body %s: ramp = %g s: expected a duration >= 0", name, opt.Ramp)
	}
	if opt.Damping.Alpha < 0 || opt.Damping.Beta < 0 {
		return nil, fmt.Errorf("body %s: Rayleigh coefficients must not be negative (alpha %g, beta %g)", name, opt.Damping.Alpha, opt.Damping.Beta)
	}
	K, err := space.Stiffness(mat)
	if err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	var M *sparse.CSR
	if opt.Lumped {
		ml, err := space.LumpedMass(mat)
		if err != nil {
			return nil, fmt.Errorf("body %s: %w", name, err)
		}
		M = space.Diagonal(ml)
	} else if M, err = space.Mass(mat); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	b := &Body{Name: name, Space: space, Material: mat, M: M, K: K, Damping: opt.Damping,
		Gravity: opt.Gravity, Tractions: opt.Traction, Ramp: opt.Ramp, Q: space.Vector(), V: space.Vector(), gravity: space.Vector()}
	for _, tr := range opt.Traction {
		if _, err := space.Mesh.EdgeGroup(tr.Group); err != nil {
			return nil, fmt.Errorf("body %s: traction: %w", name, err)
		}
	}
	if err := space.Gravity(b.gravity, mat, opt.Gravity); err != nil {
		return nil, fmt.Errorf("body %s: %w", name, err)
	}
	return b, nil
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
		err := b.Space.Traction(dst, tr.Group, b.Material.T(), func(x, n [2]float64) [2]float64 { return tr.Value(t, x, n) })
		if err != nil {
			return fmt.Errorf("body %s: %w", b.Name, err)
		}
	}
	if b.Ramp > 0 && t < b.Ramp {
		f := math.Max(t, 0) / b.Ramp
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

// Displacement returns the full displacement vector (2 per node).
func (b *Body) Displacement() []float64 {
	u := make([]float64, 2*len(b.Space.Mesh.Nodes))
	b.Space.Expand(u, b.Q, nil)
	return u
}

// Velocity returns the full velocity vector (2 per node).
func (b *Body) Velocity() []float64 {
	v := make([]float64, 2*len(b.Space.Mesh.Nodes))
	b.Space.Expand(v, b.V, nil)
	return v
}
