package kind

import (
	"fmt"
	"math"
)

// Stated is a family whose bodies' state a program that embeds the
// simulation reads and sets between steps (package abi: the C ABI and
// Python in process). Body k's state is its positions q, nq numbers, and
// its velocities v, nv numbers, in the kind's own order (a rigid body's
// x, y, rotation; a finite-element body's nodes' x and y; a component's
// masses' x and y). A state set takes effect at the next step's start, and
// the change of energy it makes is booked as external work: the ledger
// still closes.
type Stated interface {
	StateLen(k int) (nq, nv int)
	// State writes body k's positions into q and velocities into v (either
	// may be nil: not read).
	State(k int, q, v []float64)
	// SetState sets body k's positions from q and velocities from v
	// (either may be nil: left as they are); a value the body cannot take
	// (a fixed node moved, a driven body's velocity, NaN) is refused,
	// naming it, and nothing is set.
	SetState(k int, q, v []float64) error
	// Masses writes the mass each velocity carries into m, nv numbers (kg
	// per m of thickness; a rotation's inertia, kg m^2 per m): sum m_i v_i
	// over a direction's entries is the body's momentum.
	Masses(k int, m []float64)
}

// Forced is a family whose bodies take an applied generalised force that a
// program sets between steps (a rigid body's force and moment, a mass's
// force), its work booked as external work from the next step on.
type Forced interface {
	// ForceLen is the length of body k's applied force; 0: it takes none.
	ForceLen(k int) int
	// SetForce sets body k's applied force; a value out of range is
	// refused, naming it, and nothing is set.
	SetForce(k int, f []float64) error
}

// Finite refuses a state or force with a NaN or an infinity, naming what
// and the first such entry.
func Finite(what string, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s[%d] = %g: expected a finite number", what, i, v)
		}
	}
	return nil
}
