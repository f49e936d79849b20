package timestep

import (
	"encoding/gob"
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/kind"
)

// feFamily drives the Stepper's finite-element bodies, linear and
// hyperelastic, through the contact step (kind.Kind); its source is the
// Detector's pairs: sides against sides, obstacles and the outlines of
// rigid bodies.
type feFamily struct {
	st     *Stepper
	det    *contact.Detector
	loaded []int // Predict's columns of a compliance with an impulse
}

func (f *feFamily) Name() string { return "finite-element bodies" }

func (f *feFamily) Source(base int, at *kind.Placement) kind.Source {
	return &pairSource{det: f.det, at: at}
}

func (f *feFamily) Len() int                                      { return f.st.NumBodies() }
func (f *feFamily) DOFs(k int) int                                { return f.st.Body(k).Space.N() }
func (f *feFamily) Compliance(k int) kind.Compliance              { return f.st.Compliance(k) }
func (f *feFamily) MassCompliance(k int) (kind.Compliance, error) { return f.st.massCompliance(k) }
func (f *feFamily) Start(k int) (v0, vfree []float64)             { return f.st.Body(k).V, f.st.FreeVelocity(k) }
func (f *feFamily) Current(k int) []float64                       { return f.st.Body(k).V }
func (f *feFamily) Impact(k int, r []float64) error               { return f.st.impact(k, r) }
func (f *feFamily) Energy(e kind.Energy) kind.Energy              { return e.Add(f.st.TotalEnergy()) }
func (f *feFamily) Motion(int) contact.Motion                     { return nil }
func (f *feFamily) BodyName(k int) string                         { return f.st.Body(k).Name }
func (f *feFamily) Carries() bool                                 { return false }

// Begin starts the bodies' step over the simulation's clock, whose step
// and theta the bodies were factorised for.
func (f *feFamily) Begin(c kind.Clock) error {
	if c.H != f.st.h || c.Theta != f.st.theta {
		return fmt.Errorf("finite-element bodies: a step of h = %g, theta = %g for bodies factorised for h = %g, theta = %g", c.H, c.Theta, f.st.h, f.st.theta)
	}
	f.st.time = c.T
	return f.st.Begin()
}

// Iterations and Factorisations are the hyperelastic bodies' counts of the
// step (kind.Iterated).
func (f *feFamily) Iterations() int     { return f.st.Newton() }
func (f *feFamily) Factorisations() int { return f.st.Factorisations() }

// Steps is the steps the bodies took: the simulation's clock in a
// checkpoint before version 5, kept in this family's section.
func (f *feFamily) Steps() int { return f.st.Steps() }

// place expands the body's displacement onto its mesh's nodes (a
// placement's first place allots them).
func (f *feFamily) Place(k, global int, at *kind.Placement) {
	b := f.st.Body(k)
	if at.Disp[global] == nil {
		at.Disp[global] = make([]float64, 2*len(b.Space.Mesh.Nodes))
	}
	b.Space.Expand(at.Disp[global], b.Q, nil)
}

// predict is exact on the contact DOFs, through their compliance, and
// leaves the others free: only the contact nodes' end positions are
// written.
func (f *feFamily) Predict(k, global int, v, r []float64, clock kind.Clock, at *kind.Placement) {
	h, th := clock.H, clock.Theta
	b := f.st.Body(k)
	c := f.st.Compliance(k)
	nb := len(c.Eqs)
	// Few contact DOFs carry an impulse: sum over those columns only (the
	// same sum, in the same order, less its zero terms).
	loaded := f.loaded[:0]
	for l, e := range c.Eqs {
		if r[e] != 0 {
			loaded = append(loaded, l)
		}
	}
	f.loaded = loaded
	disp := at.Disp[global]
	for i, e := range c.Eqs {
		var dv float64
		row := c.C[i*nb : (i+1)*nb]
		for _, l := range loaded {
			dv += row[l] * r[c.Eqs[l]]
		}
		v[e] += dv
		disp[b.Space.DOFs.DOF[e]] = b.Q[e] + h*(th*v[e]+(1-th)*b.V[e])
	}
}

// advance adds the impulses and advances the bodies; a hyperelastic body
// that takes a Newton update asks for another contact solve.
func (f *feFamily) Advance(r [][]float64, loaded bool) (bool, error) {
	if loaded {
		for k := range r {
			if err := f.st.AddImpulse(k, r[k]); err != nil {
				return false, err
			}
		}
	}
	return f.st.Advance()
}

func (f *feFamily) Finish(r, shift [][]float64, loaded bool, step int) error { return nil }

func (f *feFamily) Save(enc *gob.Encoder) error { return enc.Encode(f.st.state()) }

func (f *feFamily) Load(dec *gob.Decoder) error {
	var st stepperState
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("finite-element bodies: damaged: %w", err)
	}
	return f.st.setState(st)
}

// StateLen is the body's nodes' displacements and velocities, x and y per
// node of its mesh (kind.Stated).
func (f *feFamily) StateLen(k int) (nq, nv int) {
	n := 2 * len(f.st.Body(k).Space.Mesh.Nodes)
	return n, n
}

func (f *feFamily) State(k int, q, v []float64) {
	b := f.st.Body(k)
	if q != nil {
		b.Space.Expand(q, b.Q, nil)
	}
	if v != nil {
		b.Space.Expand(v, b.V, nil)
	}
}

// SetState takes the free DOFs' displacements and velocities from the
// nodes' (the ledger books the change at the next step's start); a fixed
// DOF keeps its zero, and a nonzero value there is refused.
func (f *feFamily) SetState(k int, q, v []float64) error {
	b := f.st.Body(k)
	for _, x := range []struct {
		what string
		to   []float64
	}{{"displacement", q}, {"velocity", v}} {
		if err := kind.Finite(x.what, x.to); err != nil {
			return fmt.Errorf("body %q: %w", b.Name, err)
		}
		for i, e := range b.Space.DOFs.Eq {
			if x.to != nil && e < 0 && x.to[i] != 0 {
				return fmt.Errorf("body %q: %s %g of node %d's %c: the node is fixed there (the scene's fix): expected 0", b.Name, x.what, x.to[i], i/2, "xy"[i%2])
			}
		}
	}
	for i, e := range b.Space.DOFs.Eq {
		if e < 0 {
			continue
		}
		if q != nil {
			b.Q[e] = q[i]
		}
		if v != nil {
			b.V[e] = v[i]
		}
	}
	return nil
}

// Masses are the nodes' row-sum masses (Body.NodalMasses), for x and y.
func (f *feFamily) Masses(k int, m []float64) {
	for i, mi := range f.st.Body(k).masses {
		m[2*i], m[2*i+1] = mi, mi
	}
}
