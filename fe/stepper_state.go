package fe

import (
	"fmt"
	"slices"

	"github.com/fecontact/fecontact/kind"
)

// stepperState is what the Stepper and its bodies carry from one step to
// the next (Simulation.SaveState).
type stepperState struct {
	Time, Since   float64
	SinceN, Steps int
	Bodies        []bodyState
}

// bodyState is one body's: its state, the products the next step starts
// from (K q is updated incrementally: recomputing it would not give the
// same bits), its forces at the start of the step and its account; a
// hyperelastic body's internal force and stored energy there, and where
// modified Newton made the factor it keeps.
type bodyState struct {
	Q, V, Kq, F0, Kv0, Mv0 []float64
	Energy                 kind.Energy
	Fint0                  []float64
	W0                     float64
	FactQ1, FactQt         []float64
	DrivenQ, DrivenV       []float64 // a driven group's displacements and velocities
	DrivenFactQ1           []float64 // and where modified Newton's factor was made (hyperelastic)
	DrivenFactQt           []float64
}

func (s *Stepper) state() stepperState {
	st := stepperState{Time: s.time, Since: s.since, SinceN: s.sinceN, Steps: s.steps}
	for _, b := range s.bodies {
		bs := bodyState{Q: b.b.Q, V: b.b.V, Kq: b.kq, F0: b.f0, Kv0: b.kv0, Mv0: b.mv0, Energy: b.energy}
		if hs := b.hyper; hs != nil {
			bs.Fint0, bs.W0, bs.FactQ1, bs.FactQt = hs.fint0, hs.w0, hs.factQ1, hs.factQt
		}
		if dr := b.b.drive; dr != nil {
			bs.DrivenQ, bs.DrivenV = dr.q, dr.v
			if dr.h != nil {
				bs.DrivenFactQ1, bs.DrivenFactQt = dr.h.factQ1, dr.h.factQt
			}
		}
		st.Bodies = append(st.Bodies, bs)
	}
	return st
}

func (s *Stepper) setState(st stepperState) error {
	if len(st.Bodies) != len(s.bodies) {
		return fmt.Errorf("a state of %d finite-element bodies for %d", len(st.Bodies), len(s.bodies))
	}
	for i, b := range s.bodies {
		bs := st.Bodies[i]
		n := len(b.b.Q)
		for _, v := range [][]float64{bs.Q, bs.V, bs.Kq, bs.F0, bs.Kv0, bs.Mv0} {
			if len(v) != n {
				return fmt.Errorf("body %q: a state of %d DOFs for %d", b.b.Name, len(v), n)
			}
		}
		copy(b.b.Q, bs.Q)
		copy(b.b.V, bs.V)
		copy(b.kq, bs.Kq)
		copy(b.f0, bs.F0)
		copy(b.kv0, bs.Kv0)
		copy(b.mv0, bs.Mv0)
		b.energy = bs.Energy
		if dr := b.b.drive; dr != nil {
			if err := dr.restore(b.b, bs); err != nil {
				return err
			}
		}
		if hs := b.hyper; hs != nil {
			if len(bs.Fint0) != n {
				return fmt.Errorf("body %q: a state without its hyperelastic internal force", b.b.Name)
			}
			copy(hs.fint0, bs.Fint0)
			hs.w0 = bs.W0
			hs.factQ1, hs.factQt = slices.Clone(bs.FactQ1), slices.Clone(bs.FactQt)
			if hs.modified {
				if err := b.remakeFactor(s.h, s.theta); err != nil {
					return err
				}
			}
		}
		b.remember() // the accounts are those of the state read
	}
	s.time, s.since, s.sinceN, s.steps = st.Time, st.Since, st.SinceN, st.Steps
	return nil
}
