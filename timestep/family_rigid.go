package timestep

import (
	"encoding/gob"
	"fmt"

	"github.com/fecontact/fecontact/contact"

	"github.com/fecontact/fecontact/rigid"
)

// rigidFamily drives the rigid bodies of a rigid.System through the
// contact step (family); a nil system has none. A driven body has no DOFs
// in the contact problem: nil velocities and an empty compliance.
type rigidFamily struct {
	sys *rigid.System
}

func (f rigidFamily) len() int {
	if f.sys == nil {
		return 0
	}
	return len(f.sys.Bodies)
}

func (f rigidFamily) motion(k int) contact.Motion { return f.sys.Bodies[k].Motion }
func (f rigidFamily) carries() bool               { return true }
func (f rigidFamily) name(k int) string           { return f.sys.Bodies[k].Name }

func (f rigidFamily) dofs(k int) int {
	eqs, _ := f.sys.Compliance(k)
	return len(eqs)
}

func (f rigidFamily) compliance(k int) Compliance {
	eqs, c := f.sys.Compliance(k)
	return Compliance{Eqs: eqs, C: c}
}

func (f rigidFamily) massCompliance(k int) (Compliance, error) { return f.compliance(k), nil }

func (f rigidFamily) place(k, global int, cfg *placement) { cfg.poses[global] = f.sys.Bodies[k].Q }

func (f rigidFamily) begin(t, h, th float64) error {
	if f.sys != nil {
		f.sys.Begin(t, h, th)
	}
	return nil
}

func (f rigidFamily) start(k int) (v0, vfree []float64) {
	return f.sys.Velocity(k), f.sys.FreeVelocity(k)
}

func (f rigidFamily) current(k int) []float64 {
	if b := f.sys.Bodies[k]; !b.Driven() {
		return b.V[:]
	}
	return nil
}

func (f rigidFamily) impact(k int, r []float64) error {
	f.sys.Impact(k, r)
	return nil
}

// predict gives a free body the end velocity of its impulse (its
// compliance is diagonal) and the pose it reaches; a driven body's pose
// follows its motion.
func (f rigidFamily) predict(k, global int, v, r []float64, t, h, th float64, cfg *placement) {
	b := f.sys.Bodies[k]
	if b.Driven() {
		off, off0 := b.Motion.Offset(t+h), b.Motion.Offset(t)
		cfg.poses[global] = [3]float64{b.Q[0] + off[0] - off0[0], b.Q[1] + off[1] - off0[1], b.Q[2]}
		return
	}
	eqs, c := f.sys.Compliance(k)
	for j := range eqs {
		v[j] += c[j*len(eqs)+j] * r[j] // diagonal
		cfg.poses[global][j] = b.Q[j] + h*(th*v[j]+(1-th)*b.V[j])
	}
}

// advance has nothing to iterate: the rigid bodies end their step in
// finish, under the impulses of the last contact solve.
func (f rigidFamily) advance(r [][]float64, loaded bool) (bool, error) { return true, nil }

// finish applies the impulses, ends the step, and refuses a state out of
// range or a body that tunnelled through another.
func (f rigidFamily) finish(r, shift [][]float64, loaded bool, step int) error {
	if f.sys == nil {
		return nil
	}
	if err := finishSystem(f.sys, r, shift, loaded, step); err != nil {
		return err
	}
	if err := f.sys.Tunnelled(); err != nil {
		return fmt.Errorf("step %d: %w", step, err)
	}
	return nil
}

func (f rigidFamily) energy(e Energy) Energy {
	for k := range f.len() {
		r := f.sys.Energy(k)
		e = e.Add(Energy{Kinetic: r.Kinetic, External: r.External, Numerical: r.Numerical, Contact: r.Contact})
	}
	return e
}

func (f rigidFamily) save(enc *gob.Encoder) error {
	return saveState(enc, f.sys != nil, func() rigid.SystemState { return f.sys.State() })
}

func (f rigidFamily) load(dec *gob.Decoder) error {
	return loadState(dec, "rigid bodies", f.sys != nil, func(st rigid.SystemState) error { return f.sys.SetState(st) })
}
