package fe

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/kind"
	"gonum.org/v1/gonum/floats"
)

// A step of the Stepper: the free solve (Begin), the impulses (AddImpulse),
// the end of the step (Finish, or Advance for a hyperelastic body's Newton
// iterations) and the energy it books.

// Step advances all bodies by one step without contact impulses.
func (s *Stepper) Step() error {
	if err := s.Begin(); err != nil {
		return err
	}
	for {
		done, err := s.Advance()
		if done || err != nil {
			return err
		}
	}
}

// Begin starts a step: it computes the right-hand side and the
// forward substitution of v_free = v0 + Mhat^-1 h [f_theta - K (q0 + h theta
// v0) - C v0], and the free velocity itself on the contact DOFs only (FreeVelocity);
// Finish completes the solve once the impulses are known.
func (s *Stepper) Begin() error {
	if s.stage != 0 {
		return errors.New("timestep: Begin called twice without Finish")
	}
	if err := s.eachBody(false); err != nil {
		return err
	}
	s.stage = 1
	return nil
}

func (st *state) begin(h, th, t float64) error {
	b := st.b
	if err := b.Force(st.f1, t+h); err != nil {
		return err
	}
	a, be := b.damping.Alpha, b.damping.Beta
	rhs := st.rhs
	n := len(rhs)
	f0, f1, kq, kv0, mv0 := st.f0[:n], st.f1[:n], st.kq[:n], st.kv0[:n], st.mv0[:n]
	for i := range rhs {
		ft := th*f1[i] + (1-th)*f0[i]
		rhs[i] = h * (ft - kq[i] - h*th*kv0[i] - a*mv0[i] - be*kv0[i])
	}
	if b.drive != nil {
		if err := b.drive.couple(rhs, b.Space, a, be, h, th, t); err != nil {
			return fmt.Errorf("body %s: %w", b.Name, err)
		}
	}
	st.startSolve(rhs, b.V)
	return nil
}

// startSolve begins the solve of Mhat dv = rhs (y = L^-1 P rhs) and sets
// the free velocity base + dv_free on the contact boundary B, the last
// block of the backward substitution; the impulses are cleared.
func (st *state) startSolve(rhs, base []float64) {
	st.factor.Forward(st.y, rhs)
	nb := len(st.eqB)
	copy(st.yB, st.y[len(st.y)-nb:])
	cholesky.LowerSolveT(st.lbb, st.yB)
	for k, e := range st.eqB {
		st.vfree[e] = base[e] + st.yB[k]
	}
	clear(st.r)
	st.impulse = false
}

// ParallelDOFs is the size of a model from which the bodies' solves run
// concurrently: below it, starting goroutines costs more than it saves.
const ParallelDOFs = 20000

// eachBody runs every body's half of a step (begin, or finish):
// concurrently, one goroutine per body, for models of ParallelDOFs and
// more. Each body's work touches only its own state, so the result does
// not depend on the number of cores; the error returned is that of the
// first body in order.
func (s *Stepper) eachBody(finish bool) error {
	errs := s.errs
	if len(s.bodies) > 1 && s.dofs >= ParallelDOFs && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		for i, st := range s.bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.half(st, finish)
			}()
		}
		wg.Wait()
	} else {
		for i, st := range s.bodies {
			errs[i] = s.half(st, finish)
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// half is a body's begin or finish of the current step.
func (s *Stepper) half(st *state, finish bool) error {
	var err error
	switch {
	case finish && st.hyper != nil:
		err = st.finishHyper(s.h, s.theta)
	case finish:
		err = st.finish(s.h, s.theta)
	default:
		if err := st.rebook(); err != nil {
			return err
		}
		if st.hyper != nil {
			return st.beginHyper(s.h, s.theta, s.time)
		}
		return st.begin(s.h, s.theta, s.time)
	}
	st.remember()
	return err
}

// AddImpulse adds a generalised impulse r = H P (on body i's free DOFs) to
// the current step: between Begin and Finish, of the body's size.
func (s *Stepper) AddImpulse(i int, r []float64) error {
	switch {
	case s.stage != 1:
		return errors.New("timestep: AddImpulse outside a step (call Begin first)")
	case i < 0 || i >= len(s.bodies):
		return fmt.Errorf("timestep: AddImpulse on body %d of %d", i, len(s.bodies))
	case len(r) != len(s.bodies[i].r):
		return fmt.Errorf("timestep: AddImpulse on body %s: %d values for %d free DOFs", s.bodies[i].b.Name, len(r), len(s.bodies[i].r))
	}
	floats.Add(s.bodies[i].r, r)
	s.bodies[i].impulse = true
	return nil
}

// Finish applies the impulses, sets v1 and q1, and books the energies:
// Advance for steppers without hyperelastic bodies, where the step always
// ends there.
func (s *Stepper) Finish() error {
	if s.stage != 1 {
		return errors.New("timestep: Finish without Begin")
	}
	done, err := s.Advance()
	if err == nil && !done {
		return errors.New("timestep: a hyperelastic body's Newton iteration is still open: call Advance until it is done")
	}
	return err
}

// Advance applies the impulses added since Begin (or since the last
// Advance). Linear bodies need nothing more; a hyperelastic body takes
// Newton's update. When every hyperelastic body has converged (at once
// without any), it sets v1 and q1, books the energies and returns true.
// Otherwise the step stays open on the new Newton iterate: the impulses
// are cleared, FreeVelocity and Compliance are those of the new tangent
// (a linear body's are unchanged), and the caller solves the contact
// problem again, adds its impulses and calls Advance again.
func (s *Stepper) Advance() (bool, error) {
	if s.stage != 1 {
		return false, errors.New("timestep: Advance without Begin")
	}
	wrap := func(err error) error { return fmt.Errorf("%w at t = %g (step %d)", err, s.time+s.h, s.steps+1) }
	done := true
	for _, st := range s.bodies {
		if st.hyper != nil {
			ok, err := st.advanceHyper(s.h, s.theta)
			if err != nil {
				return false, wrap(err)
			}
			done = done && ok
		}
	}
	if !done {
		for _, st := range s.bodies {
			clear(st.r)
			st.impulse = false
			if st.hyper != nil {
				if err := st.linearize(s.h, s.theta); err != nil {
					return false, wrap(err)
				}
			}
		}
		return false, nil
	}
	if err := s.eachBody(true); err != nil {
		return false, wrap(err)
	}
	s.time = s.endTime()
	s.steps++
	s.stage = 0
	return true, nil
}

// endTime is the time the current step ends at: the step count times h,
// not a sum of steps (t = 12 s after 12 000 steps of 1 ms, not
// 11.99999999999871: the time of pieces and history rows, and of the
// configuration a step predicts it ends in, which the next one starts in).
func (s *Stepper) endTime() float64 {
	return s.since + float64(s.steps+1-s.sinceN)*s.h
}

func (st *state) finish(h, th float64) error {
	b := st.b
	if st.impulse {
		st.addImpulse()
	}
	st.factor.Backward(st.dv, st.y)
	work, contact := st.move(h, th)
	assemble.MulVec2To(st.kv1, st.mv1, b.K, b.M, b.V)
	damp, numM, numK, kin, ela := st.book(h, th)
	if b.drive != nil { // the whole body's, and the driven DOFs' reaction
		var reaction float64
		damp, numM, numK, kin, ela, reaction = b.drive.book(b, st.dv, h, th)
		work += reaction
	}
	e := &st.energy
	e.Kinetic, e.Elastic = kin/2, ela/2
	e.External += work
	e.Damping += damp
	e.Contact += contact
	e.Numerical += (th - 0.5) * (numM + numK)
	if math.IsNaN(kin + ela) {
		return fmt.Errorf("body %s: the state is NaN", b.Name)
	}
	st.f0, st.f1 = st.f1, st.f0
	st.kv0, st.kv1 = st.kv1, st.kv0
	st.mv0, st.mv1 = st.mv1, st.mv0
	return nil
}

// move sets v1 = v0 + dv and q1 = q0 + h v_theta, and returns the work
// of the forces f_theta and of the impulses over the step. (Its slices
// are cut to one length so that the loop runs without bounds checks.)
func (st *state) move(h, th float64) (work, contact float64) {
	v := st.b.V
	n := len(v)
	q, dv, f0, f1, r := st.b.Q[:n], st.dv[:n], st.f0[:n], st.f1[:n], st.r[:n]
	for i, v0 := range v {
		v1 := v0 + dv[i]
		vt := th*v1 + (1-th)*v0
		dq := h * vt
		v[i] = v1
		q[i] += dq
		work += (th*f1[i] + (1-th)*f0[i]) * dq
		contact += vt * r[i]
	}
	return work, contact
}

// book updates K q to the end of the step, with K v and M v at its end in
// kv1 and mv1, and returns the step's damping work, its numerical
// dissipation's two terms (dv' M dv and dq' K dq) and twice the kinetic
// and elastic energies at its end.
func (st *state) book(h, th float64) (damp, numM, numK, kin, ela float64) {
	a, be := st.b.damping.Alpha, st.b.damping.Beta
	v := st.b.V
	n := len(v)
	q, dv, kq := st.b.Q[:n], st.dv[:n], st.kq[:n]
	mv0, mv1, kv0, kv1 := st.mv0[:n], st.mv1[:n], st.kv0[:n], st.kv1[:n]
	for i, v1 := range v {
		vt := th*v1 + (1-th)*(v1-dv[i])
		mvt := th*mv1[i] + (1-th)*mv0[i]
		kvt := th*kv1[i] + (1-th)*kv0[i]
		damp += h * vt * (a*mvt + be*kvt)
		dkq := h * kvt
		numM += dv[i] * (mv1[i] - mv0[i])
		numK += h * vt * dkq
		kq[i] += dkq
		kin += v1 * mv1[i]
		ela += q[i] * kq[i]
	}
	return damp, numM, numK, kin, ela
}

// addImpulse adds L^-1 P r to y. An impulse on B alone touches only the
// tail: y_B += L_BB^-1 r_B; any other impulse takes a full forward solve.
func (st *state) addImpulse() {
	nb := len(st.eqB)
	for k, e := range st.eqB {
		st.yB[k] = st.r[e]
		st.r[e] = 0 // to see whether anything is left off B
	}
	offB := slices.ContainsFunc(st.r, func(x float64) bool { return x != 0 })
	for k, e := range st.eqB {
		st.r[e] = st.yB[k]
	}
	if offB {
		st.factor.Forward(st.rhs, st.r) // rhs is free now: reuse it
		floats.Add(st.y, st.rhs)
		return
	}
	cholesky.LowerSolve(st.lbb, st.yB)
	floats.Add(st.y[len(st.y)-nb:], st.yB)
}

// massCompliance returns the compliance M^-1 of body i's contact DOFs,
// factorising M on the first call: the response of the body to an impact,
// which lasts no time, so that neither stiffness nor damping acts.
func (s *Stepper) massCompliance(i int) (kind.Compliance, error) {
	st := s.bodies[i]
	if st.mfactor == nil {
		f, err := st.b.Space.FactorLast(st.b.M, st.nodes)
		if err != nil {
			return kind.Compliance{}, fmt.Errorf("body %s: factorising M for an impact at the start: %w", st.b.Name, err)
		}
		c, rows, err := f.TailCompliance(len(st.eqB))
		if err == nil && !slices.Equal(rows, st.eqB) {
			err = errors.New("the contact boundary is not last in its order")
		}
		if err != nil {
			return kind.Compliance{}, fmt.Errorf("body %s: the mass compliance of the contact boundary: %w", st.b.Name, err)
		}
		st.mfactor, st.mcomp = f, c
	}
	return kind.Compliance{Eqs: st.eqB, C: st.mcomp}, nil
}

// impact applies a generalised impulse r to body i at the current time,
// between steps: v += M^-1 r. The body's contact work grows by
// r . (v- + v+)/2, its kinetic energy by as much.
func (s *Stepper) impact(i int, r []float64) error {
	if s.stage != 0 {
		return errors.New("timestep: an impact inside a step")
	}
	st := s.bodies[i]
	b := st.b
	st.mfactor.SolveTo(st.dv, r)
	var work float64
	for k := range b.V {
		work += r[k] * (b.V[k] + st.dv[k]/2)
		b.V[k] += st.dv[k]
	}
	st.energy.Contact += work
	if b.drive != nil {
		st.energy.External += b.drive.impactWork(b, st.dv)
	}
	return st.start()
}
