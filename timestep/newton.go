package timestep

import (
	"errors"
	"fmt"
	"math"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/floats"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
)

// A hyperelastic body's step is the theta-method with the internal force
// f(q) taken as the same combination as the external one:
//
//	M (v1 - v0) + h [theta f(q1) + (1 - theta) f(q0)] + h C v_theta = h f_theta,
//	q1 = q0 + h v_theta,
//
// solved for v1 by Newton's method on the tangent
// (1 + h theta alpha) M + h theta beta K + h^2 theta^2 K_T(q1), with K the
// stiffness at rest (damping) and K_T the consistent tangent. Its energy
// ledger books the stored energy W(q) as Elastic, and as Numerical what
// the scheme adds or takes: (theta - 1/2) dv'M dv plus the error of the
// trapezoidal rule on the internal work, dq'[theta f(q1) + (1 - theta)
// f(q0)] - (W(q1) - W(q0)), so that the balance closes to the Newton
// tolerance and Numerical measures the scheme's drift.

// newtonTol is the residual at which Newton stops, relative to the size
// of the step's momentum and forces.
const newtonTol = 1e-10

// maxNewton bounds the iterations of a step; more is an error.
const maxNewton = 25

// hyperState is the Newton solve of a hyperelastic body.
type hyperState struct {
	mat          element.Hyperelastic
	full         []float64 // displacement of every DOF, for Space.Hyper
	fint0, fint1 []float64 // internal force at the start and at the iterate
	w0, w1       float64   // stored energy there
	kt           *sparse.CSR
	v1, q1, res  []float64
	iters        int // of the last step
}

func newHyperState(b *Body) *hyperState {
	n := b.Space.N()
	h := &hyperState{mat: hyperOf(b.Material, b.Law), full: make([]float64, 2*len(b.Space.Mesh.Nodes)), kt: b.Space.NewMatrix()}
	for _, p := range []*[]float64{&h.fint0, &h.fint1, &h.v1, &h.q1, &h.res} {
		*p = make([]float64, n)
	}
	return h
}

// internal sets dst to the internal force at q (and K_T, when kt is not
// nil) and returns the stored energy.
func (st *state) internal(q, dst []float64, kt *sparse.CSR) (float64, error) {
	hs := st.hyper
	st.b.Space.Expand(hs.full, q, nil)
	w, err := st.b.Space.Hyper(hs.mat, hs.full, dst, kt)
	if err != nil {
		return 0, fmt.Errorf("body %s: %w", st.b.Name, err)
	}
	return w, nil
}

// beginHyper solves the step of a hyperelastic body, leaving the end state
// in st.hyper for finishHyper.
func (st *state) beginHyper(h, th, t float64) error {
	b, hs := st.b, st.hyper
	if err := b.Force(st.f1, t+h); err != nil {
		return err
	}
	a, be := b.Damping.Alpha, b.Damping.Beta
	scale := 0.0
	for i := range st.rhs {
		st.rhs[i] = h * (th*st.f1[i] + (1-th)*st.f0[i]) // h f_theta
		scale = math.Max(scale, math.Max(math.Abs(st.rhs[i]), math.Max(h*math.Abs(hs.fint0[i]), math.Abs(st.mv0[i]))))
	}
	copy(hs.v1, b.V)
	var resid float64
	for k := 0; ; k++ {
		for i := range hs.q1 {
			hs.q1[i] = b.Q[i] + h*(th*hs.v1[i]+(1-th)*b.V[i])
		}
		w1, err := st.internal(hs.q1, hs.fint1, hs.kt)
		if err != nil {
			return fmt.Errorf("%w (Newton iteration %d of the step to t = %g)", err, k, t+h)
		}
		hs.w1 = w1
		assemble.MulVec2To(st.kv1, st.mv1, b.K, b.M, hs.v1)
		resid = 0
		for i := range hs.res {
			cv := a*(th*st.mv1[i]+(1-th)*st.mv0[i]) + be*(th*st.kv1[i]+(1-th)*st.kv0[i])
			hs.res[i] = st.mv1[i] - st.mv0[i] + h*(th*hs.fint1[i]+(1-th)*hs.fint0[i]) + h*cv - st.rhs[i]
			resid = math.Max(resid, math.Abs(hs.res[i]))
		}
		hs.iters = k
		if resid <= newtonTol*scale || resid == 0 {
			return nil
		}
		if k == maxNewton {
			return fmt.Errorf("body %s: Newton did not converge in %d iterations of the step to t = %g: residual %.3g of %.3g", b.Name, k, t+h, resid, scale)
		}
		ht := h * th
		b.Space.CombineTo(st.mhat, 1+ht*a, b.M, ht*be, b.K)
		b.Space.CombineTo(st.mhat, 1, st.mhat, ht*ht, hs.kt)
		if err := st.factor.Refactor(st.mhat); err != nil {
			return fmt.Errorf("body %s: the Newton tangent at t = %g: %w", b.Name, t+h, err)
		}
		st.factor.SolveTo(st.dv, hs.res)
		floats.Sub(hs.v1, st.dv)
	}
}

// finishHyper moves the body to the end of its step and books the
// energies (see the comment at the top of the file).
func (st *state) finishHyper(h, th float64) error {
	b, hs, e := st.b, st.hyper, &st.energy
	a, be := b.Damping.Alpha, b.Damping.Beta
	var work, damp, internal, inertia, kin float64
	for i := range b.V {
		dq := hs.q1[i] - b.Q[i]
		work += (th*st.f1[i] + (1-th)*st.f0[i]) * dq
		damp += dq * (a*(th*st.mv1[i]+(1-th)*st.mv0[i]) + be*(th*st.kv1[i]+(1-th)*st.kv0[i]))
		internal += dq * (th*hs.fint1[i] + (1-th)*hs.fint0[i])
		inertia += (hs.v1[i] - b.V[i]) * (st.mv1[i] - st.mv0[i])
		kin += hs.v1[i] * st.mv1[i]
	}
	copy(b.V, hs.v1)
	copy(b.Q, hs.q1)
	e.Numerical += (th-0.5)*inertia + internal - (hs.w1 - hs.w0)
	e.Kinetic, e.Elastic = kin/2, hs.w1
	e.External += work
	e.Damping += damp
	if math.IsNaN(kin + hs.w1) {
		return fmt.Errorf("body %s: the state is NaN", b.Name)
	}
	hs.fint0, hs.fint1 = hs.fint1, hs.fint0
	hs.w0 = hs.w1
	st.f0, st.f1 = st.f1, st.f0
	st.kv0, st.kv1 = st.kv1, st.kv0
	st.mv0, st.mv1 = st.mv1, st.mv0
	return nil
}

// errHyperContact: contact on a hyperelastic body needs the contact solve
// inside the Newton loop, which the stepper does not do yet.
var errHyperContact = errors.New("contact on a hyperelastic body is not supported yet (the contact solve inside Newton's loop is to come)")

// Newton returns the largest number of Newton iterations a hyperelastic
// body took in the last step (0 without such a body).
func (s *Stepper) Newton() int {
	n := 0
	for _, st := range s.bodies {
		if st.hyper != nil {
			n = max(n, st.hyper.iters)
		}
	}
	return n
}
