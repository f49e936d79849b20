package timestep

import (
	"encoding/gob"
	"fmt"

	"github.com/fecontact/fecontact/contact"
)

// feFamily drives the Stepper's finite-element bodies, linear and
// hyperelastic, through the contact step (family).
type feFamily struct {
	st     *Stepper
	loaded []int // predict's columns of a compliance with an impulse
}

func (f *feFamily) len() int                                 { return f.st.NumBodies() }
func (f *feFamily) dofs(k int) int                           { return f.st.Body(k).Space.N() }
func (f *feFamily) compliance(k int) Compliance              { return f.st.Compliance(k) }
func (f *feFamily) massCompliance(k int) (Compliance, error) { return f.st.massCompliance(k) }
func (f *feFamily) begin(t, h, th float64) error             { return f.st.Begin() }
func (f *feFamily) start(k int) (v0, vfree []float64)        { return f.st.Body(k).V, f.st.FreeVelocity(k) }
func (f *feFamily) current(k int) []float64                  { return f.st.Body(k).V }
func (f *feFamily) impact(k int, r []float64) error          { return f.st.impact(k, r) }
func (f *feFamily) energy(e Energy) Energy                   { return e.Add(f.st.TotalEnergy()) }
func (f *feFamily) motion(int) contact.Motion                { return nil }
func (f *feFamily) name(k int) string                        { return f.st.Body(k).Name }
func (f *feFamily) carries() bool                            { return false }

// place expands the body's displacement onto its mesh's nodes (a
// placement's first place allots them).
func (f *feFamily) place(k, global int, cfg *placement) {
	b := f.st.Body(k)
	if cfg.disp[global] == nil {
		cfg.disp[global] = make([]float64, 2*len(b.Space.Mesh.Nodes))
	}
	b.Space.Expand(cfg.disp[global], b.Q, nil)
}

// predict is exact on the contact DOFs, through their compliance, and
// leaves the others free: only the contact nodes' end positions are
// written.
func (f *feFamily) predict(k, global int, v, r []float64, t, h, th float64, cfg *placement) {
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
	disp := cfg.disp[global]
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
func (f *feFamily) advance(r [][]float64, loaded bool) (bool, error) {
	if loaded {
		for k := range r {
			if err := f.st.AddImpulse(k, r[k]); err != nil {
				return false, err
			}
		}
	}
	return f.st.Advance()
}

func (f *feFamily) finish(r, shift [][]float64, loaded bool, step int) error { return nil }

func (f *feFamily) save(enc *gob.Encoder) error { return enc.Encode(f.st.state()) }

func (f *feFamily) load(dec *gob.Decoder) error {
	var st stepperState
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("finite-element bodies: damaged: %w", err)
	}
	return f.st.setState(st)
}
