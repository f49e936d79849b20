package timestep

import (
	"slices"

	"github.com/fecontact/fecontact/kind"
)

// NumBodies is the number of bodies of every kind: the range of the global
// body index (ContactState.Body), finite-element bodies first, then each
// kind's in the order the simulation lists them.
func (s *Simulation) NumBodies() int {
	n := 0
	for _, f := range s.families {
		n += f.Len()
	}
	return n
}

// Families are the simulation's kinds of body, in the order of the
// global body index.
func (s *Simulation) Families() []kind.Family { return slices.Clone(s.families) }

// BodyOf is global body i's family and its index there; ok is false for
// an index out of range. A program that embeds the simulation reads and
// sets a body's state through its family (kind.Stated, kind.Forced)
// between steps.
func (s *Simulation) BodyOf(i int) (f kind.Family, k int, ok bool) {
	if i < 0 || i >= s.NumBodies() {
		return nil, 0, false
	}
	f, k = s.family(i)
	return f, k, true
}

// Drawn are the simulation's kinds that outputs show without naming them
// (kind.Drawn), in the order of the global body index: each one's series,
// shapes and history columns. The finite-element bodies are not among
// them: io/results writes their fields itself (bodies.pvd).
func (s *Simulation) Drawn() []kind.Drawn {
	var out []kind.Drawn
	for _, f := range s.families {
		if d, ok := f.(kind.Drawn); ok {
			out = append(out, d)
		}
	}
	return out
}

// bodyName is global body i's name.
func (s *Simulation) bodyName(i int) string {
	f, k := s.family(i)
	return f.BodyName(k)
}
