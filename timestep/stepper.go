package timestep

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/assemble/csr"
	"gonum.org/v1/gonum/floats"
)

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

// Stepper advances bodies by the theta-method.
type Stepper struct {
	// inSimulation: the Stepper a Simulation made, whose rigid bodies and
	// point masses step on its clock; SetStep would split them.
	inSimulation bool
	h, theta     float64
	time         float64 // the time reached: since, plus the steps taken since, times h
	since        float64 // the time at which h was last set
	sinceN       int     // the steps taken by then
	steps        int
	bodies       []*state
	stage        int // 0: ready for Begin, 1: between Begin and Finish
	dofs         int // of all bodies
	errs         []error
}

// state is one body's factor and workspaces.
type state struct {
	b        *Body
	nodes    []int // the contact nodes, ordered last in the factor (Body.ContactNodes, copied)
	mhat     *csr.Matrix
	factor   *cholesky.Factor
	f0, f1   []float64 // forces at the start and end of the step
	rhs, dv  []float64
	vfree    []float64
	r        []float64 // accumulated generalised impulse
	impulse  bool
	kv0, mv0 []float64 // K v and M v at the start of the step
	kv1, mv1 []float64
	kq       []float64 // K q, updated incrementally
	energy   Energy

	// The contact boundary B: its equations in the factor's tail order,
	// the tail L_BB of the factor (dense, lower, row-major), and the
	// compliance C = (Mhat^-1)_BB (dense, row-major).
	eqB  []int
	lbb  []float64
	comp []float64
	y    []float64 // L^-1 P rhs of the current step (factor order)
	yB   []float64 // scratch of length |B|

	hyper *hyperState // a hyperelastic body's Newton solve; nil: linear

	// M's factor and its compliance on B, for an impact at the start
	// (impact.go); nil until one needs them.
	mfactor *cholesky.Factor
	mcomp   []float64
}

// NewStepper checks the step parameters, factorises each body's Mhat and
// books the initial energies.
func NewStepper(h, theta float64, bodies ...*Body) (*Stepper, error) {
	return newStepper(h, theta, bodies, nil)
}

// newStepper is NewStepper with each body's contact nodes given in nodes
// (NewSimulation's, from the detector's sides) instead of read from
// Body.ContactNodes when nodes is nil. Either way the stepper keeps its
// own copy: the factor's order and the tail's compliance are built on it.
func newStepper(h, theta float64, bodies []*Body, nodes [][]int) (*Stepper, error) {
	if err := checkStep(h, theta); err != nil {
		return nil, err
	}
	s := &Stepper{h: h, theta: theta}
	for _, b := range bodies {
		if err := checkDamping(b, h, theta); err != nil {
			return nil, err
		}
	}
	for _, b := range bodies {
		n := b.Space.N()
		st := &state{b: b, mhat: b.Space.NewMatrix(), nodes: slices.Clone(b.ContactNodes)}
		if nodes != nil {
			st.nodes = slices.Clone(nodes[len(s.bodies)])
		}
		if b.Law != 0 {
			st.hyper = newHyperState(b)
		}
		for _, p := range []*[]float64{&st.f0, &st.f1, &st.rhs, &st.dv, &st.vfree, &st.r, &st.kv0, &st.mv0, &st.kv1, &st.mv1, &st.kq, &st.y} {
			*p = make([]float64, n)
		}
		s.bodies = append(s.bodies, st)
		s.dofs += n
	}
	s.errs = make([]error, len(bodies))
	if err := s.factorise(); err != nil {
		return nil, err
	}
	for _, st := range s.bodies {
		if err := st.start(); err != nil {
			return nil, err
		}
		if err := st.b.Force(st.f0, 0); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkDamping refuses a mass-proportional damping that the step cannot
// take: it multiplies a rigid motion's velocity by (1 - (1-theta) alpha h)
// / (1 + theta alpha h), negative when alpha h (1 - theta) > 1, so that
// velocities change sign every step (the scene decoder said so, and a
// library caller got it silently).
func checkDamping(b *Body, h, theta float64) error {
	if a := b.damping.Alpha * h * (1 - theta); a > 1 {
		return fmt.Errorf("body %s: alpha h (1 - theta) = %.3g > 1 makes velocities change sign every step: use alpha < %.3g, or theta = 1", b.Name, a, 1/(h*(1-theta)))
	}
	return nil
}

func checkStep(h, theta float64) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("time step h = %g must be positive and finite", h)
	}
	if !(theta >= 0.5 && theta <= 1) {
		return fmt.Errorf("theta = %g must lie in [1/2, 1]", theta)
	}
	return nil
}

// start computes K q, K v, M v and the energies of the current state (a
// hyperelastic body's internal force and stored energy instead of K q).
func (st *state) start() error {
	b := st.b
	assemble.MulVec2To(st.kv0, st.mv0, b.K, b.M, b.V)
	st.energy.Kinetic = floats.Dot(b.V, st.mv0) / 2
	if st.hyper != nil {
		w, err := st.internal(b.Q, st.hyper.fint0, nil)
		st.energy.Elastic, st.hyper.w0 = w, w
		return err
	}
	assemble.MulVecTo(st.kq, b.K, b.Q)
	st.energy.Elastic = floats.Dot(b.Q, st.kq) / 2
	return nil
}

// factorise forms Mhat = (1 + h theta alpha) M + (h theta beta + h^2 theta^2) K
// and factorises it with the body's contact nodes ordered last, then keeps
// the factor's tail and the compliance of those nodes' DOFs.
func (s *Stepper) factorise() error {
	ht := s.h * s.theta
	for _, st := range s.bodies {
		d := st.b.damping
		st.b.Space.CombineTo(st.mhat, 1+ht*d.Alpha, st.b.M, ht*d.Beta+ht*ht, st.b.K)
		var err error
		if st.factor == nil {
			st.factor, err = st.b.Space.FactorLast(st.mhat, st.nodes)
		} else {
			err = st.factor.Refactor(st.mhat)
		}
		if err != nil {
			return fmt.Errorf("body %s: factorising M + h theta C + h^2 theta^2 K: %w", st.b.Name, err)
		}
		if err := st.tail(); err != nil {
			return err
		}
	}
	return nil
}

// tail extracts L_BB and C = L_BB^-T L_BB^-1 for the contact boundary.
func (st *state) tail() error {
	b := st.b
	var eqs []int
	for _, n := range st.nodes {
		for c := 0; c < 2; c++ {
			if e := b.Space.DOFs.Eq[2*n+c]; e >= 0 {
				eqs = append(eqs, e)
			}
		}
	}
	nb := len(eqs)
	perm := st.factor.Perm()
	tail := perm[len(perm)-nb:]
	for k, e := range eqs {
		if tail[k] != e {
			return fmt.Errorf("body %s: the contact boundary did not stay last in the factor's order (is the body in one piece?)", b.Name)
		}
	}
	st.eqB = eqs
	st.yB = make([]float64, nb)
	st.lbb = st.factor.Tail(nb)
	comp, _, err := st.factor.TailCompliance(nb)
	if err != nil {
		return fmt.Errorf("body %s: the compliance of the contact boundary: %w", b.Name, err)
	}
	if len(st.comp) == len(comp) {
		copy(st.comp, comp) // in place: a Delassus builder holds the slice
	} else {
		st.comp = comp
	}
	return nil
}

// H is the time step, s.
func (s *Stepper) H() float64 { return s.h }

// Theta is the theta-method's parameter.
func (s *Stepper) Theta() float64 { return s.theta }

// Time is the time reached, s.
func (s *Stepper) Time() float64 { return s.time }

// Steps is the number of steps taken.
func (s *Stepper) Steps() int { return s.steps }

// SetStep changes h (and theta) and refactorises every body's Mhat.
func (s *Stepper) SetStep(h, theta float64) error {
	if s.stage != 0 {
		return errors.New("timestep: SetStep in the middle of a step")
	}
	if s.inSimulation {
		return errors.New("timestep: SetStep on a Simulation's Stepper would step its finite-element bodies on another clock than its rigid bodies and point masses: build a new Simulation with the step")
	}
	if err := checkStep(h, theta); err != nil {
		return err
	}
	for _, st := range s.bodies {
		if err := checkDamping(st.b, h, theta); err != nil {
			return err
		}
	}
	s.h, s.theta = h, theta
	s.since, s.sinceN = s.time, s.steps
	if err := s.factorise(); err != nil {
		return err
	}
	for _, st := range s.bodies {
		if err := st.b.Force(st.f0, s.time); err != nil {
			return err
		}
	}
	return nil
}

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

// parallelDOFs is the size of a model from which the bodies' solves run
// concurrently: below it, starting goroutines costs more than it saves.
const parallelDOFs = 20000

// eachBody runs every body's half of a step (begin, or finish):
// concurrently, one goroutine per body, for models of parallelDOFs and
// more. Each body's work touches only its own state, so the result does
// not depend on the number of cores; the error returned is that of the
// first body in order.
func (s *Stepper) eachBody(finish bool) error {
	errs := s.errs
	if len(s.bodies) > 1 && s.dofs >= parallelDOFs && runtime.GOMAXPROCS(0) > 1 {
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
	switch {
	case finish && st.hyper != nil:
		return st.finishHyper(s.h, s.theta)
	case finish:
		return st.finish(s.h, s.theta)
	case st.hyper != nil:
		return st.beginHyper(s.h, s.theta, s.time)
	}
	return st.begin(s.h, s.theta, s.time)
}

// NumBodies is the number of bodies.
func (s *Stepper) NumBodies() int { return len(s.bodies) }

// Body returns body i.
func (s *Stepper) Body(i int) *Body { return s.bodies[i].b }

// FreeVelocity returns body i's free velocity of the current step (read only).
// Only the entries of the contact DOFs (Body.ContactNodes) are computed:
// the rest of the solve waits for the impulses, so that a step costs one
// forward and one backward substitution.
func (s *Stepper) FreeVelocity(i int) []float64 { return s.bodies[i].vfree }

// Compliance returns the compliance C = (Mhat^-1)_BB of body i's contact
// DOFs (Body.ContactNodes), kept from the factor: an impulse r on them
// changes their velocities by C r.
func (s *Stepper) Compliance(i int) Compliance {
	return Compliance{Eqs: s.bodies[i].eqB, C: s.bodies[i].comp}
}

// ComplianceOn returns body i's compliance (Mhat^-1) on any of its
// equations, one solve per equation: for DOFs other than the contact ones.
func (s *Stepper) ComplianceOn(i int, eqs []int) (Compliance, error) {
	if i < 0 || i >= len(s.bodies) {
		return Compliance{}, fmt.Errorf("timestep: compliance of body %d of %d", i, len(s.bodies))
	}
	n := s.bodies[i].b.Space.N()
	nb := len(eqs)
	c := Compliance{Eqs: slices.Clone(eqs), C: make([]float64, nb*nb)}
	r, v := make([]float64, n), make([]float64, n)
	for k, e := range eqs {
		if e < 0 || e >= n {
			return Compliance{}, fmt.Errorf("timestep: compliance of body %s: equation %d of %d", s.bodies[i].b.Name, e, n)
		}
		clear(r)
		r[e] = 1
		s.Solve(i, v, r)
		for j, f := range eqs {
			c.C[j*nb+k] = v[f]
		}
	}
	return c, nil
}

// FactorStats gives the sizes of body i's factor of Mhat.
func (s *Stepper) FactorStats(i int) cholesky.Stats { return s.bodies[i].factor.Stats() }

// Solve sets dst = Mhat^-1 r for body i: the velocity change an impulse r
// causes, the building block of the Delassus operator H' Mhat^-1 H.
func (s *Stepper) Solve(i int, dst, r []float64) { s.bodies[i].factor.SolveTo(dst, r) }

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
// recomputes the cached products and restarts the energy accounts. Call it
// after changing Q or V by hand between steps.
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
