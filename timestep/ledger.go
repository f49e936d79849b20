package timestep

import (
	"errors"
	"slices"
)

// The energy ledger of the finite-element bodies: the accounts, and a
// state the caller set by hand between steps booked as external work.

// Energy is a body's energy account. Kinetic and Elastic are current
// values; the others accumulate from the start. Balance is constant in time
// up to round-off (see the package documentation).
type Energy struct {
	Kinetic   float64 // v'Mv/2
	Elastic   float64 // q'Kq/2
	External  float64 // work of external forces, f_theta' dq
	Damping   float64 // Rayleigh damping loss, h v_theta' C v_theta
	Numerical float64 // dissipation of theta > 1/2
	Contact   float64 // work of contact impulses, v_theta' r (negative when they dissipate)
}

// Balance is Kinetic + Elastic + Damping + Numerical - External - Contact,
// which the scheme keeps equal to its initial value.
func (e Energy) Balance() float64 {
	return e.Kinetic + e.Elastic + e.Damping + e.Numerical - e.External - e.Contact
}

// Add returns the sum of two accounts.
func (e Energy) Add(o Energy) Energy {
	return Energy{e.Kinetic + o.Kinetic, e.Elastic + o.Elastic, e.External + o.External,
		e.Damping + o.Damping, e.Numerical + o.Numerical, e.Contact + o.Contact}
}

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
func (s *Stepper) Energy(i int) Energy { return s.bodies[i].energy }

// TotalEnergy sums the accounts of all bodies.
func (s *Stepper) TotalEnergy() Energy {
	var e Energy
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
		st.energy = Energy{}
		if err := st.start(); err != nil {
			return err
		}
	}
	return nil
}
