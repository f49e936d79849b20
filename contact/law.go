package contact

import "fmt"

// Law is the form of the Signorini condition a pair's units obey over a
// time step. The time stepper states it (see timestep.Simulation); the
// pair carries it so that one simulation mixes laws (docs/design.md
// section 6).
type Law int

// Contact laws.
const (
	// Positional keeps the gap non-negative at the next mid configuration
	// (LMGC90's GAP_SGR_CLB): bodies at rest stay at rest, nothing drifts
	// in, and the law never does positive work on a unit that is not
	// penetrated. The default, for deformable bodies.
	Positional Law = iota
	// Shock is the velocity law U_N,end >= 0 for the units whose gap,
	// predicted with the free velocity, closes in the step: inelastic
	// impacts (dissipation index 1), the law of [JM91] sections 6-7.
	Shock
)

// ParseLaw reads "signorini" (or "positional", or empty) or "shock".
func ParseLaw(s string) (Law, error) {
	switch s {
	case "signorini", "positional", "":
		return Positional, nil
	case "shock":
		return Shock, nil
	}
	return 0, fmt.Errorf("contact law %q: expected signorini or shock", s)
}

// String is the name ParseLaw reads.
func (l Law) String() string {
	switch l {
	case Positional:
		return "signorini"
	case Shock:
		return "shock"
	}
	return fmt.Sprintf("Law(%d)", int(l))
}
