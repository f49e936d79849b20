package fe

import (
	"fmt"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/element"
)

// The driven groups of a hyperelastic body (drive.go's for a linear one):
// its internal force and damping stiffness take the driven
// displacements, its Newton residual the driven velocities' inertia and
// damping through the full mass matrix and the full damping stiffness,
// and its ledger books the whole body, the reaction's work from the
// driven rows of the full internal force:
//
//	h R_c = [M dV + h (theta f(Q1) + (1 - theta) f(Q0)) + h C V_theta]_c.

// hyperDrive is what a hyperelastic body's drive keeps beside drive's.
type hyperDrive struct {
	all          *assemble.Space // the body's mesh with nothing fixed
	mat          element.Hyperelastic
	q1           []float64   // the driven displacements at the step's end
	fint0, fint1 []float64   // the full internal force at the step's start and end
	kd           *csr.Matrix // the full damping stiffness at q_theta; nil without beta
	kdv, vt, x   []float64   // full Kd V_theta, V_theta and scratch
	// The driven displacements where modified Newton's kept factor was
	// made (its iterate's and q_theta's), for a checkpoint to make it again.
	factQ1, factQt []float64
}

// newHyperDrive prepares a hyperelastic body's drive.
func newHyperDrive(dr *drive, space *assemble.Space, mat element.Hyperelastic, beta float64) (*hyperDrive, error) {
	all, err := assemble.NewSpace(space.Mesh)
	if err != nil {
		return nil, err
	}
	n := 2 * len(space.Mesh.Nodes)
	hd := &hyperDrive{all: all, mat: mat, q1: make([]float64, len(dr.dofs))}
	for _, p := range []*[]float64{&hd.fint0, &hd.fint1, &hd.kdv, &hd.vt, &hd.x} {
		*p = make([]float64, n)
	}
	if beta != 0 {
		hd.kd = all.NewMatrix()
	}
	return hd, nil
}

// begin reads the driven velocities at the step's end t + h and moves
// the driven displacements there.
func (dr *drive) beginHyper(h, th, t float64) error {
	if err := dr.velocities(dr.v1, t+h); err != nil {
		return err
	}
	for k := range dr.dofs {
		dr.h.q1[k] = dr.q[k] + h*(th*dr.v1[k]+(1-th)*dr.v[k])
	}
	return nil
}

// inertia adds to the free residual res the driven velocities' inertia
// and mass damping, M_fc (dv_c + h alpha v_theta,c).
func (dr *drive) inertia(res []float64, space *assemble.Space, a, h, th float64) {
	clear(dr.h.x)
	for k, i := range dr.dofs {
		dr.h.x[i] = dr.v1[k] - dr.v[k] + h*a*(th*dr.v1[k]+(1-th)*dr.v[k])
	}
	dr.M.MulVecTo(dr.y, dr.h.x)
	for e, i := range space.DOFs.DOF {
		res[e] += dr.y[i]
	}
}

// fillTheta writes q_theta's driven displacements into the full vector dst.
func (dr *drive) fillTheta(dst []float64, th float64) {
	for k, i := range dr.dofs {
		dst[i] = dr.q[k] + th*(dr.h.q1[k]-dr.q[k])
	}
}

// damping sets the free Kd V_theta kdv from the full damping stiffness at
// the full q_theta qt (driven displacements in), for V_theta of free part
// vt: the driven DOFs' share included.
func (dr *drive) damping(kdv []float64, b *Body, qt, vt []float64, th float64) error {
	hd := dr.h
	if err := hd.all.HyperDamping(hd.mat, qt, hd.kd); err != nil {
		return fmt.Errorf("body %s: the damping stiffness: %w", b.Name, err)
	}
	b.Space.Expand(hd.vt, vt, nil)
	for k, i := range dr.dofs {
		hd.vt[i] = th*dr.v1[k] + (1-th)*dr.v[k]
	}
	hd.kd.MulVecTo(hd.kdv, hd.vt)
	for e, i := range b.Space.DOFs.DOF {
		kdv[e] = hd.kdv[i]
	}
	return nil
}

// startHyper computes the whole body's M V and internal force now, and
// returns twice its kinetic energy.
func (dr *drive) startHyper(b *Body) (kin float64, err error) {
	dr.full(b)
	dr.M.MulVecTo(dr.mv0, dr.vf)
	if _, err := dr.h.all.Hyper(dr.h.mat, dr.qf, dr.h.fint0, nil); err != nil {
		return 0, fmt.Errorf("body %s: %w", b.Name, err)
	}
	for i, v := range dr.vf {
		kin += v * dr.mv0[i]
	}
	return kin, nil
}

// bookHyper ends the step of a driven hyperelastic body, its free DOFs at
// v1 and q1, and returns the whole body's terms of finishHyper: its
// damping work, inertia dV' M dV, internal work dQ' (theta f1 + (1 -
// theta) f0) and twice its kinetic energy, and the reaction's work.
func (dr *drive) bookHyper(b *Body, v1, q1 []float64, h, th float64) (damp, inertia, internal, kin, reaction float64, err error) {
	hd, a, be := dr.h, b.damping.Alpha, b.damping.Beta
	b.Space.Expand(dr.dvf, v1, nil) // V1, then dV below
	dr.fill(dr.dvf, dr.v1)
	b.Space.Expand(dr.qf, q1, nil)
	dr.fill(dr.qf, hd.q1)
	mv1 := dr.y
	dr.M.MulVecTo(mv1, dr.dvf)
	if _, err := hd.all.Hyper(hd.mat, dr.qf, hd.fint1, nil); err != nil {
		return 0, 0, 0, 0, 0, fmt.Errorf("body %s: %w", b.Name, err)
	}
	b.Space.Expand(dr.vf, b.V, nil) // V0 and Q0: the step's start
	dr.fill(dr.vf, dr.v)
	b.Space.Expand(dr.wtmp, b.Q, nil)
	dr.fill(dr.wtmp, dr.q)
	f0, f1 := hd.fint0, hd.fint1
	for i, v1i := range dr.dvf {
		dV := v1i - dr.vf[i]
		dq := dr.qf[i] - dr.wtmp[i]
		mvt := th*mv1[i] + (1-th)*dr.mv0[i]
		c := a * mvt
		if be != 0 {
			c += be * hd.kdv[i]
		}
		damp += dq * c
		inertia += dV * (mv1[i] - dr.mv0[i])
		internal += dq * (th*f1[i] + (1-th)*f0[i])
		kin += v1i * mv1[i]
	}
	for k, i := range dr.dofs {
		c := a * (th*mv1[i] + (1-th)*dr.mv0[i])
		if be != 0 {
			c += be * hd.kdv[i]
		}
		hR := mv1[i] - dr.mv0[i] + h*(th*f1[i]+(1-th)*f0[i]) + h*c
		reaction += (th*dr.v1[k] + (1-th)*dr.v[k]) * hR
	}
	copy(dr.q, hd.q1)
	copy(dr.v, dr.v1)
	dr.mv0, dr.y = mv1, dr.mv0
	hd.fint0, hd.fint1 = hd.fint1, hd.fint0
	return damp, inertia, internal, kin, reaction, nil
}
