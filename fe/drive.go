package fe

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/contact"
)

// A driven node group: components of a group's nodes that move with a
// prescribed velocity (a moving clamp, a platen, a shaking base) instead
// of staying fixed. Their DOFs are fixed in the body's space, so that the
// factor is of the free DOFs alone; they enter the free equations through
// the full matrices' coupling block, and the reaction they take does the
// work the ledger books as external.
//
// Over a step, with the driven velocities v0_c at its start and v1_c at
// its end, dv_c = v1_c - v0_c, the free rows of the full theta-method
//
//	Mhat dV = h [f_theta - K (Q0 + h theta V0) - C V0] + r + h R
//
// give Mhat_ff dv_f the right-hand side less M_fc (h alpha v0_c + (1 + h
// theta alpha) dv_c) + K_fc (h q0_c + (h^2 theta + h beta) v0_c + (h theta
// beta + h^2 theta^2) dv_c), and its driven rows the reaction impulse h
// R_c; the driven displacements follow q1_c = q0_c + h (theta v1_c + (1 -
// theta) v0_c), so that the full state obeys the scheme and the ledger's
// identity holds for it: the energies are the whole body's, v_theta_c . h
// R_c is external work.

// Driven prescribes the velocity of components of a node group: Motion's
// velocity at each time, its displacement the velocity's theta-rule
// integral from the reference configuration (exact for a velocity linear
// in time over each step).
type Driven struct {
	Group  string
	Comp   assemble.Comp
	Motion contact.Motion
}

// drive is a body's driven DOFs and what their coupling needs.
type drive struct {
	dofs   []int // full indices 2 node + component, increasing
	motion []contact.Motion
	q, v   []float64 // displacements and velocities now
	v1     []float64 // velocities at the end of the step under way
	M, K   *csr.Matrix
	h      *hyperDrive // a hyperelastic body's (drivehyper.go), nil for a linear one
	// Full-length vectors: workspaces, and M V, K V and K Q at the step's
	// start (start, then book).
	xm, xk, y, z      []float64
	mv0, kv0, kq0     []float64
	vf, qf, dvf, wtmp []float64
}

// newDrive takes the driven groups of a body of space, whose full mass
// and stiffness matrices are M and K: each driven component must be fixed
// in the space, and none driven twice.
func newDrive(space *assemble.Space, M, K *csr.Matrix, driven []Driven) (*drive, error) {
	byDOF := map[int]contact.Motion{}
	for _, d := range driven {
		if d.Motion == nil {
			return nil, fmt.Errorf("driven group %q: no motion", d.Group)
		}
		if d.Comp&assemble.XY == 0 || d.Comp&^assemble.XY != 0 {
			return nil, fmt.Errorf("driven group %q: component must be x, y or xy", d.Group)
		}
		nodes, err := space.Mesh.NodeGroup(d.Group)
		if err != nil {
			return nil, fmt.Errorf("driven group: %w", err)
		}
		for _, n := range nodes {
			for c := range 2 {
				if d.Comp&(assemble.X<<c) == 0 {
					continue
				}
				i := 2*n + c
				switch {
				case space.DOFs.Eq[i] >= 0:
					return nil, fmt.Errorf("driven group %q: node %d's %c is free in the body's space: fix it (assemble.Fix) to drive it", d.Group, n, "xy"[c])
				case byDOF[i] != nil:
					return nil, fmt.Errorf("driven group %q: node %d's %c is driven by another group too: drive it once", d.Group, n, "xy"[c])
				}
				byDOF[i] = d.Motion
			}
		}
	}
	if len(byDOF) == 0 {
		return nil, nil
	}
	n := 2 * len(space.Mesh.Nodes)
	dr := &drive{M: M, K: K}
	for _, i := range slices.Sorted(maps.Keys(byDOF)) {
		dr.dofs, dr.motion = append(dr.dofs, i), append(dr.motion, byDOF[i])
	}
	dr.q, dr.v, dr.v1 = make([]float64, len(dr.dofs)), make([]float64, len(dr.dofs)), make([]float64, len(dr.dofs))
	for _, p := range []*[]float64{&dr.xm, &dr.xk, &dr.y, &dr.z, &dr.mv0, &dr.kv0, &dr.kq0, &dr.vf, &dr.qf, &dr.dvf, &dr.wtmp} {
		*p = make([]float64, n)
	}
	if err := dr.velocities(dr.v, 0); err != nil {
		return nil, err
	}
	return dr, nil
}

// velocities writes the driven DOFs' velocities at time t into dst.
func (dr *drive) velocities(dst []float64, t float64) error {
	for k, m := range dr.motion {
		c := dr.dofs[k] % 2 // the DOF's component
		v := m.Velocity(t)[c]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("node %d's driven %c velocity at t = %g is %v", dr.dofs[k]/2, "xy"[c], t, v)
		}
		dst[k] = v
	}
	return nil
}

// fill writes the driven values x (displacements or velocities) into the
// full vector dst.
func (dr *drive) fill(dst, x []float64) {
	for k, i := range dr.dofs {
		dst[i] = x[k]
	}
}

// couple subtracts from the free right-hand side rhs the driven DOFs'
// coupling over the step from t to t + h (the package comment's
// formula), having read their end velocities.
func (dr *drive) couple(rhs []float64, space *assemble.Space, a, be, h, th, t float64) error {
	if err := dr.velocities(dr.v1, t+h); err != nil {
		return err
	}
	clear(dr.xm)
	clear(dr.xk)
	for k, i := range dr.dofs {
		v0, dv := dr.v[k], dr.v1[k]-dr.v[k]
		dr.xm[i] = h*a*v0 + (1+h*th*a)*dv
		dr.xk[i] = h*dr.q[k] + (h*h*th+h*be)*v0 + (h*th*be+h*h*th*th)*dv
	}
	dr.M.MulVecTo(dr.y, dr.xm)
	dr.K.MulVecTo(dr.z, dr.xk)
	for e, i := range space.DOFs.DOF {
		rhs[e] -= dr.y[i] + dr.z[i]
	}
	return nil
}

// full writes the body's full displacement and velocity, the driven
// DOFs' included, into dr.qf and dr.vf.
func (dr *drive) full(b *Body) {
	b.Space.Expand(dr.qf, b.Q, nil)
	dr.fill(dr.qf, dr.q)
	b.Space.Expand(dr.vf, b.V, nil)
	dr.fill(dr.vf, dr.v)
}

// start computes the whole body's M V, K V and K Q now, and returns twice
// its kinetic and elastic energies.
func (dr *drive) start(b *Body) (kin, ela float64) {
	dr.full(b)
	assemble.MulVec2To(dr.kv0, dr.mv0, dr.K, dr.M, dr.vf)
	dr.K.MulVecTo(dr.kq0, dr.qf)
	for i, v := range dr.vf {
		kin += v * dr.mv0[i]
		ela += dr.qf[i] * dr.kq0[i]
	}
	return kin, ela
}

// book ends the step of the driven DOFs (q1_c, v1_c) of a body whose free
// DOFs moved by dv, and returns the whole body's step as the stepper's
// book does (its damping work, the numerical dissipation's two terms,
// twice its kinetic and elastic energies) and the work of the driven
// DOFs' reaction, v_theta_c . h R_c.
func (dr *drive) book(b *Body, dv []float64, h, th float64) (damp, numM, numK, kin, ela, reaction float64) {
	a, be := b.damping.Alpha, b.damping.Beta
	b.Space.Expand(dr.dvf, dv, nil)
	for k, i := range dr.dofs {
		dr.dvf[i] = dr.v1[k] - dr.v[k]
		dr.q[k] += h * (th*dr.v1[k] + (1-th)*dr.v[k])
		dr.v[k] = dr.v1[k]
	}
	dr.full(b)
	mv1, kv1, kq1 := dr.y, dr.z, dr.wtmp
	assemble.MulVec2To(kv1, mv1, dr.K, dr.M, dr.vf)
	dr.K.MulVecTo(kq1, dr.qf)
	for i, v1 := range dr.vf {
		dV := dr.dvf[i]
		vt := th*v1 + (1-th)*(v1-dV)
		mvt := th*mv1[i] + (1-th)*dr.mv0[i]
		kvt := th*kv1[i] + (1-th)*dr.kv0[i]
		damp += h * vt * (a*mvt + be*kvt)
		numM += dV * (mv1[i] - dr.mv0[i])
		numK += h * vt * h * kvt
		kin += v1 * mv1[i]
		ela += dr.qf[i] * kq1[i]
	}
	for _, i := range dr.dofs {
		dm, dk := mv1[i]-dr.mv0[i], kv1[i]-dr.kv0[i]
		hR := dm + h*th*(a*dm+be*dk) + h*h*th*th*dk + h*(dr.kq0[i]+h*th*dr.kv0[i]+a*dr.mv0[i]+be*dr.kv0[i])
		vt := dr.vf[i] - (1-th)*dr.dvf[i]
		reaction += vt * hR
	}
	dr.mv0, dr.y = mv1, dr.mv0
	dr.kv0, dr.z = kv1, dr.kv0
	dr.kq0, dr.wtmp = kq1, dr.kq0
	return damp, numM, numK, kin, ela, reaction
}

// impactWork is the work an impact's velocity jump dv (on the free DOFs)
// makes the driven DOFs' reaction do: v_c . (M dV)_c, the impulse the
// driven nodes take to keep their velocity.
func (dr *drive) impactWork(b *Body, dv []float64) float64 {
	b.Space.Expand(dr.dvf, dv, nil)
	dr.M.MulVecTo(dr.y, dr.dvf)
	var w float64
	for k, i := range dr.dofs {
		w += dr.v[k] * dr.y[i]
	}
	return w
}

// restore takes a checkpoint's driven state, and computes again the
// products the next step starts from.
func (dr *drive) restore(b *Body, bs bodyState) error {
	if len(bs.DrivenQ) != len(dr.q) || len(bs.DrivenV) != len(dr.v) {
		return fmt.Errorf("body %q: a state of %d driven DOFs for %d", b.Name, len(bs.DrivenQ), len(dr.q))
	}
	copy(dr.q, bs.DrivenQ)
	copy(dr.v, bs.DrivenV)
	if dr.h == nil {
		dr.start(b)
		return nil
	}
	dr.h.factQ1, dr.h.factQt = slices.Clone(bs.DrivenFactQ1), slices.Clone(bs.DrivenFactQt)
	_, err := dr.startHyper(b)
	return err
}
