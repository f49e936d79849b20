package rigid

import "fmt"

// SystemState is what a System carries from one step to the next: each
// body's pose and velocity and its energy account, and the time reached.
// A checkpoint (timestep.Simulation.SaveState) keeps it, so that a run
// resumed from it goes on bit for bit as the run it was taken from.
type SystemState struct {
	T      float64
	Q, V   [][3]float64
	Energy []Energy
}

// State returns the system's state (a copy).
func (s *System) State() SystemState {
	st := SystemState{T: s.t, Energy: append([]Energy(nil), s.energy...)}
	for _, b := range s.Bodies {
		st.Q, st.V = append(st.Q, b.Q), append(st.V, b.V)
	}
	return st
}

// SetState puts the system in a state State returned, of a system built
// the same way (the same bodies, in the same order).
func (s *System) SetState(st SystemState) error {
	if len(st.Q) != len(s.Bodies) || len(st.V) != len(s.Bodies) || len(st.Energy) != len(s.Bodies) {
		return fmt.Errorf("rigid: a state of %d bodies for a system of %d", len(st.Q), len(s.Bodies))
	}
	for i, b := range s.Bodies {
		b.Q, b.V = st.Q[i], st.V[i]
	}
	copy(s.energy, st.Energy)
	s.t = st.T
	return nil
}
