package fe

import (
	"errors"
	"slices"

	"github.com/fecontact/fecontact/kind"
)

// The energy ledger of the finite-element bodies: the accounts, and a
// state the caller set by hand between steps booked as external work.

// remember keeps the velocity and position the accounts are booked at.
func (st *state) remember() {
	b := st.b
	st.known = append(append(st.known[:0], b.V...), b.Q...)
}

// rebook takes a velocity or position the caller set since the accounts
// were booked (between steps, or after NewSimulation): the cached
// products and the energies are computed anew, and the change of the
// kinetic and elastic energies is booked as external work, the caller's,
// so that the ledger still closes (it was 19.5 J off).
func (st *state) rebook() error {
	b := st.b
	n := len(b.V)
	if len(st.known) == 2*n && slices.Equal(st.known[:n], b.V) && slices.Equal(st.known[n:], b.Q) {
		return nil
	}
	before := st.energy.Kinetic + st.energy.Elastic
	if err := st.start(); err != nil {
		return err
	}
	if d := st.energy.Kinetic + st.energy.Elastic - before; d != 0 {
		st.energy.External += d
	}
	return nil
}

// Energy returns body i's energy account.
func (s *Stepper) Energy(i int) kind.Energy { return s.bodies[i].energy }

// TotalEnergy sums the accounts of all bodies.
func (s *Stepper) TotalEnergy() kind.Energy {
	var e kind.Energy
	for _, st := range s.bodies {
		e = e.Add(st.energy)
	}
	return e
}

// Restart takes the bodies' current Q and V as a new initial state: it
// recomputes the cached products and restarts the energy accounts from
// zero. (A Q or V changed by hand between steps without it is taken at
// the next step's start, its change of energy booked as external work.)
func (s *Stepper) Restart() error {
	if s.stage != 0 {
		return errors.New("timestep: Restart in the middle of a step")
	}
	for _, st := range s.bodies {
		st.energy = kind.Energy{}
		if err := st.start(); err != nil {
			return err
		}
	}
	return nil
}
