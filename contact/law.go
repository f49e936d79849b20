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
	// Shock is the velocity law of [JM91] sections 6-7: inelastic
	// impacts at dissipation index 1, U_N,end >= -g/h for every unit found
	// (g its gap at the mid configuration, when positive: a body may close
	// a gap in the step but not go beyond it; LMGC90's IQS_CLB); with a
	// restitution, U_N,end + e U_N,start >= 0 for the units whose gap,
	// predicted with the free velocity, closes in the step.
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
