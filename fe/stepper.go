package fe

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/kind"
	"gonum.org/v1/gonum/floats"
)

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
	energy   kind.Energy
	// known is the velocity and position the accounts were last booked
	// at (v, then q): one the caller set between steps is booked anew
	// (rebook).
	known []float64

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
		var qc []float64
		if b.drive != nil {
			qc = b.drive.q
		}
		w, err := st.internal(b.Q, qc, st.hyper.fint0, nil)
		st.energy.Elastic, st.hyper.w0 = w, w
		if err == nil && b.drive != nil { // the whole body's
			var kin float64
			kin, err = b.drive.startHyper(b)
			st.energy.Kinetic = kin / 2
		}
		st.remember()
		return err
	}
	assemble.MulVecTo(st.kq, b.K, b.Q)
	st.energy.Elastic = floats.Dot(b.Q, st.kq) / 2
	if b.drive != nil { // the whole body's
		kin, ela := b.drive.start(b)
		st.energy.Kinetic, st.energy.Elastic = kin/2, ela/2
	}
	st.remember()
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
func (s *Stepper) Compliance(i int) kind.Compliance {
	return kind.Compliance{Eqs: s.bodies[i].eqB, C: s.bodies[i].comp}
}

// ComplianceOn returns body i's compliance (Mhat^-1) on any of its
// equations, one solve per equation: for DOFs other than the contact ones.
func (s *Stepper) ComplianceOn(i int, eqs []int) (kind.Compliance, error) {
	if i < 0 || i >= len(s.bodies) {
		return kind.Compliance{}, fmt.Errorf("timestep: compliance of body %d of %d", i, len(s.bodies))
	}
	n := s.bodies[i].b.Space.N()
	nb := len(eqs)
	c := kind.Compliance{Eqs: slices.Clone(eqs), C: make([]float64, nb*nb)}
	r, v := make([]float64, n), make([]float64, n)
	for k, e := range eqs {
		if e < 0 || e >= n {
			return kind.Compliance{}, fmt.Errorf("timestep: compliance of body %s: equation %d of %d", s.bodies[i].b.Name, e, n)
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
