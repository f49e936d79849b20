package discrete

import "fmt"

// SystemState is what a System carries from one step to the next: each
// mass's position and velocity, each component's energy account, and the
// time reached; a checkpoint keeps it (timestep.Simulation.SaveState).
type SystemState struct {
	T      float64
	X, V   [][2]float64
	Energy []Energy
}

// State returns the system's state (a copy).
func (s *System) State() SystemState {
	st := SystemState{T: s.t}
	for _, m := range s.Masses {
		st.X, st.V = append(st.X, m.X), append(st.V, m.V)
	}
	for _, c := range s.comps {
		st.Energy = append(st.Energy, c.energy)
	}
	return st
}

// SetState puts the system in a state State returned, of a system built
// the same way; Prepare must have run (the simulation's construction
// does it).
func (s *System) SetState(st SystemState) error {
	if len(st.X) != len(s.Masses) || len(st.V) != len(s.Masses) || len(st.Energy) != len(s.comps) {
		return fmt.Errorf("discrete: a state of %d masses and %d components for a system of %d and %d", len(st.X), len(st.Energy), len(s.Masses), len(s.comps))
	}
	for i, m := range s.Masses {
		m.X, m.V = st.X[i], st.V[i]
	}
	s.t = st.T
	for k, c := range s.comps {
		s.state(k)
		c.energy = st.Energy[k]
	}
	return nil
}
