package abi

import (
	"fmt"
	"math"
)

// maxSteps bounds one call's steps as a scene bounds its duration (1e8
// steps): a program that meant a time and gave a step count is refused,
// not left stepping for days.
const maxSteps = 100_000_000

// Step takes n steps (n >= 1), stopping at the first that fails.
func Step(h Handle, n int) Code {
	return call(h, func(e *entry) (Code, error) {
		if n < 1 || n > maxSteps {
			return refuse(ErrArgument, "step: %d steps: expected 1 to %d", n, maxSteps)
		}
		return e.steps(n)
	})
}

// StepTo steps until the simulation's time is t, to within half a step
// (none when it is there already); a t before the simulation's time is
// refused.
func StepTo(h Handle, t float64) Code {
	return call(h, func(e *entry) (Code, error) {
		now, dt := e.sim.Time(), e.sim.H()
		if math.IsNaN(t) || t < now-dt/2 {
			return refuse(ErrArgument, "step to t = %g s: expected a time at or after the simulation's, %g s", t, now)
		}
		n := math.Round((t - now) / dt)
		if n > maxSteps {
			return refuse(ErrArgument, "step to t = %g s: %g steps of %g s from %g s: expected at most %d in one call", t, n, dt, now, maxSteps)
		}
		if n < 1 {
			return OK, nil
		}
		return e.steps(int(n))
	})
}

func (e *entry) steps(n int) (Code, error) {
	if e.failed != "" {
		return refuse(ErrFailed, "the simulation failed earlier (%s): restore a checkpoint or free it", e.failed)
	}
	for range n {
		st, err := e.sim.Step()
		if err != nil {
			e.failed = fmt.Sprintf("step %d", e.last.Step+1)
			return ErrStep, err
		}
		e.last = st
	}
	return OK, nil
}

// Time is the simulation's time, s.
func Time(h Handle) (t float64, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		t = e.sim.Time()
		return OK, nil
	})
	return t, code
}

// Stats is what the last step did and how well it was solved
// (timestep.StepStats): its certificate.
type Stats struct {
	Step                     int32
	Converged                int32 // 1 when the contact solve met its tolerance, or had nothing to solve
	Time                     float64
	Units, Open, Stick       int32
	Slide, Sweeps            int32
	Residual                 float64 // relative natural-map residual of the solve applied
	Complementarity          float64 // relative complementarity gap
	ConeViolation            float64 // largest cone violation over the largest impulse
	MinGap                   float64 // m
	NormalWork, FrictionWork float64 // J per m, this step
}

// LastStep is the certificate of the last step (zero before the first).
func LastStep(h Handle) (s Stats, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		l := e.last
		s = Stats{Step: int32(l.Step), Converged: b2i(l.Converged || l.Units == 0), Time: l.Time, Units: int32(l.Units), Open: int32(l.Open),
			Stick: int32(l.Stick), Slide: int32(l.Slide), Sweeps: int32(l.Sweeps), Residual: l.Residual,
			Complementarity: l.ComplementarityRel, ConeViolation: l.ConeViolation, MinGap: l.MinGap,
			NormalWork: l.NormalWork, FrictionWork: l.FrictionWork}
		return OK, nil
	})
	return s, code
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Energy is the simulation's ledger (kind.Energy, J per m of thickness),
// history.csv's columns: TotalEnergy (Kinetic + Elastic + Damping +
// Numerical - External - Contact) stays at its initial value up to
// round-off, BalanceError its drift since the simulation was opened,
// contact creating no energy under any law; the works of contact since the
// start split Contact into the law's (normal), friction's, the moving
// obstacles' and the push-out of bodies found inside each other.
type Energy struct {
	Kinetic, Elastic, External, Damping, Numerical, Contact float64
	TotalEnergy, BalanceError                               float64
	NormalWork, FrictionWork, ObstacleWork, PushOutWork     float64
}

// Ledger is the simulation's energy accounts now.
func Ledger(h Handle) (en Energy, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		t := e.sim.TotalEnergy()
		s := e.sim
		en = Energy{t.Kinetic, t.Elastic, t.External, t.Damping, t.Numerical, t.Contact, t.Balance(), t.Balance() - e.e0,
			s.NormalWork, s.FrictionWork, s.ObstacleWork, s.PushOutWork}
		return OK, nil
	})
	return en, code
}
