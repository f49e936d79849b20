package fe

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/assemble/csr"
	"gonum.org/v1/gonum/floats"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
)

// A hyperelastic body's step is the theta-method with the internal force
// f(q) taken as the same combination as the external one:
//
//	M (v1 - v0) + h [theta f(q1) + (1 - theta) f(q0)] + h C v_theta = h f_theta + r,
//	q1 = q0 + h v_theta,
//
// solved for v1 by Newton's method on the tangent
// (1 + h theta alpha) M + h theta beta Kd + h^2 theta^2 K_T(q1), with K_T
// the consistent tangent. The damping C v_theta is alpha M v_theta + beta
// Kd(q_theta) v_theta, Kd the damping stiffness at the configuration
// q_theta = q0 + theta h v_theta (element.Element.HyperDamping): a viscous
// stress on the rate of the Green-Lagrange strain, which vanishes on every
// rigid motion. The velocity field of a rotation over the step, v_theta =
// omega x x_theta, is one of q_theta exactly, so that a spinning body
// loses nothing to damping; the stiffness at rest would brake it (a free
// square spinning at 20 rad/s with beta = 1e-4 lost its kinetic energy
// within a radian, issue 28). Newton's tangent leaves out the change of Kd
// with q: the residual, which has it, decides convergence. The contact
// solve is nested in the Newton loop: each update is a linear step like a
// linear body's (Begin, then the impulses, then Advance), its free
// velocity and compliance those of the current tangent, and the contact
// problem is solved again on each (the contact units stay those detected
// at the start of the step), so that at convergence the impulses and v1
// satisfy both the contact laws and the equation above. Its energy ledger
// books the stored energy W(q) as Elastic, and as Numerical what the
// scheme adds or takes: (theta - 1/2) dv'M dv plus the error of the
// trapezoidal rule on the internal work, dq'[theta f(q1) + (1 - theta)
// f(q0)] - (W(q1) - W(q0)), so that the balance closes to the Newton
// tolerance and Numerical measures the scheme's drift.

// newtonTol is the residual at which Newton stops, relative to the size
// of the step's momentum and forces.
const newtonTol = 1e-10

// maxNewton bounds the iterations of a step; more is an error.
const maxNewton = 25

// refreshRatio is how much an update of modified Newton must reduce the
// residual; one that reduces it less refactorises the tangent at the
// iterate for the next update.
const refreshRatio = 0.1

// hyperState is the Newton solve of a hyperelastic body.
type hyperState struct {
	mat          element.Hyperelastic
	full         []float64 // displacement of every DOF, for Space.Hyper
	fint0, fint1 []float64 // internal force at the start and at the iterate
	w0, w1       float64   // stored energy there
	kt           *csr.Matrix
	kd           *csr.Matrix // the damping stiffness at q_theta; nil without beta
	qt, vt, kdv  []float64   // q_theta, v_theta and Kd v_theta
	v1, q1, res  []float64
	neg          []float64 // -res, the right-hand side of an update
	scale        float64   // of the step's momentum and forces
	floor        float64   // the internal force's round-off (see roundOff)
	iters        int       // Newton updates of the current or last step
	t            float64   // the end of the current step
	// Modified Newton keeps the factor of an earlier tangent, across
	// updates and steps, until an update reduces the residual by less
	// than refreshRatio.
	modified bool
	refactor bool    // the next linearize refactorises
	resid    float64 // the residual before the last update
	factors  int     // factorisations in the current or last step
	// Where modified Newton's kept factor was made: the iterate and its
	// q_theta (for the damping stiffness), so that a checkpoint can make
	// it again (nil: the factor of the construction).
	factQ1, factQt []float64
}

func newHyperState(b *Body) *hyperState {
	n := b.Space.N()
	h := &hyperState{mat: b.Hyperelastic(), full: make([]float64, 2*len(b.Space.Mesh.Nodes)), kt: b.Space.NewMatrix()}
	for _, p := range []*[]float64{&h.fint0, &h.fint1, &h.v1, &h.q1, &h.res, &h.neg, &h.kdv} {
		*p = make([]float64, n)
	}
	if b.damping.Beta != 0 {
		h.kd, h.qt, h.vt = b.Space.NewMatrix(), make([]float64, n), make([]float64, n)
	}
	h.floor = roundOff(b)
	return h
}

// roundOff is the size of the round-off in a hyperelastic body's internal
// force: its stiffness at rest times the round-off of its coordinates,
// max K_ii eps max|X|. A body near rest (under a load ramped from zero) has
// a step whose momentum and forces are so small that newtonTol of them is
// below it: with nu near 1/2, lambda's share of S = lambda tr(E) I + ...
// comes from E = (C - I)/2 and carries lambda eps. Newton stops there.
func roundOff(b *Body) float64 {
	raw := b.K
	var kmax float64
	for i := range raw.Rows() {
		for e := raw.Indptr[i]; e < raw.Indptr[i+1]; e++ {
			if raw.Ind[e] == i {
				kmax = max(kmax, raw.Data[e])
			}
		}
	}
	var xmax float64
	for _, x := range b.Space.Mesh.Nodes {
		xmax = max(xmax, max(math.Abs(x[0]), math.Abs(x[1])))
	}
	return kmax * xmax * 0x1p-52
}

// internal sets dst to the internal force at q, the driven DOFs at qc
// (nil for a body without), and K_T when kt is not nil, and returns the
// stored energy.
func (st *state) internal(q, qc, dst []float64, kt *csr.Matrix) (float64, error) {
	hs := st.hyper
	st.b.Space.Expand(hs.full, q, nil)
	if qc != nil {
		st.b.drive.fill(hs.full, qc)
	}
	w, err := st.b.Space.Hyper(hs.mat, hs.full, dst, kt)
	if err != nil {
		return 0, fmt.Errorf("body %s: %w", st.b.Name, err)
	}
	return w, nil
}

// beginHyper starts a hyperelastic body's step: Newton's first iterate
// is v1 = v0, linearised (linearize) so that the step's first solve, with
// the contact impulses, is Newton's first update.
func (st *state) beginHyper(h, th, t float64) error {
	b, hs := st.b, st.hyper
	if err := b.Force(st.f1, t+h); err != nil {
		return err
	}
	hs.scale = 0
	for i := range st.rhs {
		st.rhs[i] = h * (th*st.f1[i] + (1-th)*st.f0[i]) // h f_theta
		hs.scale = max(hs.scale, max(math.Abs(st.rhs[i]), max(h*math.Abs(hs.fint0[i]), math.Abs(st.mv0[i]))))
	}
	copy(hs.v1, b.V)
	if dr := b.drive; dr != nil {
		if err := dr.beginHyper(h, th, t); err != nil {
			return fmt.Errorf("body %s: %w", b.Name, err)
		}
	}
	hs.iters, hs.t, hs.factors = 0, t+h, 0
	hs.refactor = !hs.modified
	if err := st.evaluate(h, th); err != nil {
		return err
	}
	hs.resid = 0
	for _, r := range hs.res {
		hs.resid = max(hs.resid, math.Abs(r))
	}
	return st.linearize(h, th)
}

// evaluate computes, at the iterate v1, q1, the internal force and
// tangent, M v1, K v1 and the residual of the step without the contact
// impulse: M (v1 - v0) + h [theta f(q1) + (1 - theta) f(q0)] + h C v_theta
// - h f_theta.
func (st *state) evaluate(h, th float64) error {
	b, hs := st.b, st.hyper
	for i := range hs.q1 {
		hs.q1[i] = b.Q[i] + h*(th*hs.v1[i]+(1-th)*b.V[i])
	}
	var kt *csr.Matrix
	if !hs.modified {
		kt = hs.kt
	}
	w1, err := st.internal(hs.q1, st.drivenEnd(), hs.fint1, kt)
	if errors.Is(err, element.ErrInverted) {
		return fmt.Errorf("%w (Newton iteration %d of the step to t = %g): a cell turned inside out; use a smaller h (a Newton iterate of a long step overshoots), a finer mesh where the body is most compressed, or a model that resists compression (neohookean)", err, hs.iters, hs.t)
	}
	if err != nil {
		return fmt.Errorf("%w (Newton iteration %d of the step to t = %g)", err, hs.iters, hs.t)
	}
	hs.w1 = w1
	assemble.MulVec2To(st.kv1, st.mv1, b.K, b.M, hs.v1)
	if err := st.damping(h, th); err != nil {
		return fmt.Errorf("%w (Newton iteration %d of the step to t = %g)", err, hs.iters, hs.t)
	}
	a, be := b.damping.Alpha, b.damping.Beta
	for i := range hs.res {
		cv := a*(th*st.mv1[i]+(1-th)*st.mv0[i]) + be*hs.kdv[i]
		hs.res[i] = st.mv1[i] - st.mv0[i] + h*(th*hs.fint1[i]+(1-th)*hs.fint0[i]) + h*cv - st.rhs[i]
	}
	if dr := b.drive; dr != nil {
		dr.inertia(hs.res, b.Space, a, h, th)
	}
	return nil
}

// drivenEnd is the driven displacements at the step's end, nil for a
// body without.
func (st *state) drivenEnd() []float64 {
	if dr := st.b.drive; dr != nil {
		return dr.h.q1
	}
	return nil
}

// damping sets Kd at q_theta of the iterate and kdv = Kd v_theta (nothing
// without beta: kdv stays zero).
func (st *state) damping(h, th float64) error {
	b, hs := st.b, st.hyper
	if hs.kd == nil {
		return nil
	}
	for i := range hs.qt {
		hs.qt[i] = b.Q[i] + th*(hs.q1[i]-b.Q[i])
		hs.vt[i] = th*hs.v1[i] + (1-th)*b.V[i]
	}
	b.Space.Expand(hs.full, hs.qt, nil)
	if b.drive != nil {
		b.drive.fillTheta(hs.full, th)
	}
	if err := b.Space.HyperDamping(hs.mat, hs.full, hs.kd); err != nil {
		return fmt.Errorf("body %s: the damping stiffness: %w", b.Name, err)
	}
	if b.drive != nil { // the driven DOFs' share of Kd V_theta too
		return b.drive.damping(hs.kdv, b, hs.full, hs.vt, th)
	}
	assemble.MulVecTo(hs.kdv, hs.kd, hs.vt)
	return nil
}

// linearize refactorises the Newton tangent at the iterate (unless
// modified Newton keeps the factor it has) and starts its solve as begin
// does a linear body's: y = L^-1 P (-residual), the free velocity v1 +
// dv_free on the contact DOFs and their compliance, the impulses cleared.
func (st *state) linearize(h, th float64) error {
	hs := st.hyper
	if hs.refactor {
		if err := st.refactorTangent(h, th); err != nil {
			return err
		}
	}
	for i, r := range hs.res {
		hs.neg[i] = -r
	}
	st.startSolve(hs.neg, hs.v1)
	return nil
}

// refactorTangent factorises the Newton tangent at the iterate and updates
// the boundary compliance. Modified Newton's evaluate leaves the tangent
// out: it is assembled here.
func (st *state) refactorTangent(h, th float64) error {
	b, hs := st.b, st.hyper
	if hs.modified {
		if _, err := st.internal(hs.q1, st.drivenEnd(), hs.fint1, hs.kt); err != nil {
			return err
		}
	}
	kd := b.K
	if hs.kd != nil {
		kd = hs.kd
	}
	if err := st.factorTangent(h, th, kd); err != nil {
		return err
	}
	hs.factors++
	if hs.modified {
		hs.factQ1 = append(hs.factQ1[:0], hs.q1...)
		hs.factQt = append(hs.factQt[:0], hs.qt...)
		if dr := b.drive; dr != nil {
			dr.h.factQ1 = append(dr.h.factQ1[:0], dr.h.q1...)
			dr.h.factQt = dr.h.factQt[:0]
			for k := range dr.dofs {
				dr.h.factQt = append(dr.h.factQt, dr.q[k]+th*(dr.h.q1[k]-dr.q[k]))
			}
		}
	}
	return nil
}

// factorTangent factorises Mhat = (1 + h theta alpha) M + h theta beta Kd
// + h^2 theta^2 Kt, Kt the tangent in hs.kt, and updates the boundary
// compliance.
func (st *state) factorTangent(h, th float64, kd *csr.Matrix) error {
	b, hs := st.b, st.hyper
	ht := h * th
	b.Space.CombineTo(st.mhat, 1+ht*b.damping.Alpha, b.M, ht*b.damping.Beta, kd)
	b.Space.CombineTo(st.mhat, 1, st.mhat, ht*ht, hs.kt)
	if err := st.factor.Refactor(st.mhat); err != nil {
		return fmt.Errorf("body %s: the Newton tangent of the step to t = %g is not positive definite (a cell near inversion, or St Venant-Kirchhoff under strong compression): %w; use a smaller h, a finer mesh there, or model = \"neohookean\"", b.Name, hs.t, err)
	}
	return st.tail()
}

// remakeFactor makes modified Newton's kept factor again where it was
// made (factQ1, factQt), after a checkpoint is loaded.
func (st *state) remakeFactor(h, th float64) error {
	b, hs := st.b, st.hyper
	if len(hs.factQ1) == 0 {
		return nil // the factor of the construction, which the stepper has
	}
	var qc, qtc []float64
	if dr := b.drive; dr != nil {
		qc, qtc = dr.h.factQ1, dr.h.factQt
	}
	if _, err := st.internal(hs.factQ1, qc, make([]float64, len(hs.factQ1)), hs.kt); err != nil {
		return err
	}
	kd := b.K
	if hs.kd != nil {
		b.Space.Expand(hs.full, hs.factQt, nil)
		if qtc != nil {
			b.drive.fill(hs.full, qtc)
		}
		if err := b.Space.HyperDamping(hs.mat, hs.full, hs.kd); err != nil {
			return fmt.Errorf("body %s: the damping stiffness: %w", b.Name, err)
		}
		kd = hs.kd
	}
	return st.factorTangent(h, th, kd)
}

// advanceHyper completes Newton's update with the impulses added since
// linearize and reports whether the step has converged: the residual
// with the impulses below newtonTol of the step's momentum, forces and
// impulses. More than maxNewton updates is an error.
func (st *state) advanceHyper(h, th float64) (bool, error) {
	b, hs := st.b, st.hyper
	if st.impulse {
		st.addImpulse()
	}
	st.factor.Backward(st.dv, st.y)
	floats.Add(hs.v1, st.dv)
	hs.iters++
	if err := st.evaluate(h, th); err != nil {
		return false, err
	}
	scale, resid := hs.scale, 0.0
	for i, r := range hs.res {
		scale = max(scale, math.Abs(st.r[i]))
		resid = max(resid, math.Abs(r-st.r[i]))
	}
	if resid <= max(newtonTol*scale, h*hs.floor) {
		return true, nil
	}
	if hs.iters >= maxNewton {
		return false, fmt.Errorf("body %s: Newton did not converge in %d iterations of the step to t = %g: residual %.3g of %.3g", b.Name, hs.iters, hs.t, resid, scale)
	}
	hs.refactor = !hs.modified || resid > refreshRatio*hs.resid
	hs.resid = resid
	return false, nil
}

// finishHyper moves the body to the end of its step and books the
// energies (see the comment at the top of the file).
func (st *state) finishHyper(h, th float64) error {
	b, hs, e := st.b, st.hyper, &st.energy
	a, be := b.damping.Alpha, b.damping.Beta
	var work, damp, internal, inertia, kin, contact float64
	for i := range b.V {
		dq := hs.q1[i] - b.Q[i]
		work += (th*st.f1[i] + (1-th)*st.f0[i]) * dq
		contact += dq / h * st.r[i]
		damp += dq * (a*(th*st.mv1[i]+(1-th)*st.mv0[i]) + be*hs.kdv[i])
		internal += dq * (th*hs.fint1[i] + (1-th)*hs.fint0[i])
		inertia += (hs.v1[i] - b.V[i]) * (st.mv1[i] - st.mv0[i])
		kin += hs.v1[i] * st.mv1[i]
	}
	if dr := b.drive; dr != nil { // the whole body's, and the reaction's work
		var reaction float64
		var err error
		if damp, inertia, internal, kin, reaction, err = dr.bookHyper(b, hs.v1, hs.q1, h, th); err != nil {
			return err
		}
		work += reaction
	}
	copy(b.V, hs.v1)
	copy(b.Q, hs.q1)
	e.Numerical += (th-0.5)*inertia + internal - (hs.w1 - hs.w0)
	e.Kinetic, e.Elastic = kin/2, hs.w1
	e.External += work
	e.Damping += damp
	e.Contact += contact
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

// SetModifiedNewton makes the hyperelastic bodies keep the factor of an
// earlier tangent, across Newton updates and steps, for as long as each
// update reduces the residual at least tenfold; an update that reduces it
// less refactorises the tangent at the iterate for the next. Newton then
// converges to the same tolerance with more, cheaper iterations.
func (s *Stepper) SetModifiedNewton(on bool) {
	for _, st := range s.bodies {
		if st.hyper != nil {
			st.hyper.modified = on
		}
	}
}

// Factorisations returns how many times the hyperelastic bodies' tangents
// were factorised in the last step.
func (s *Stepper) Factorisations() int {
	n := 0
	for _, st := range s.bodies {
		if st.hyper != nil {
			n += st.hyper.factors
		}
	}
	return n
}

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
