package timestep

import (
	"encoding/gob"
	"fmt"

	"github.com/fecontact/fecontact/contact"
)

// family is one kind of body as the contact step drives it: what the step
// needs of a body, and nothing of how it moves. The Simulation keeps its
// families in order and numbers their bodies in one range, families one
// after the other: the index of contact.Entry.Body, of the generalised
// impulses and of the Delassus builder's compliances. A family sees its
// own bodies from 0.
//
// Three kinds implement it: the Stepper's finite-element bodies, linear
// and hyperelastic (family_fe.go), the rigid bodies of a rigid.System
// (family_rigid.go) and the point masses of a discrete.System
// (family_points.go). It is the counterpart of LMGC90's per-body-kind
// modules (RBDY2, mecaMAILx, each with its comp_vlocy) and of Chrono's
// ChPhysicsItem; a new kind of body is one more file, not new branches in
// the step.
type family interface {
	// len is the number of bodies.
	len() int
	// name is body k's name.
	name(k int) string
	// dofs is the length of body k's generalised impulse.
	dofs(k int) int
	// compliance is body k's compliance on the DOFs contact acts on, fixed
	// for the run (the Delassus builder keeps it).
	compliance(k int) Compliance
	// massCompliance is M^-1 on the same DOFs: the response to an impact,
	// which lasts no time.
	massCompliance(k int) (Compliance, error)
	// place writes body k's current configuration into the contact
	// configuration (a displacement or a pose), global being its index.
	place(k, global int, cfg *placement)
	// motion is body k's prescribed motion if it carries obstacles and is
	// driven (contact.Config.Driven), else nil.
	motion(k int) contact.Motion
	// carries tells whether the family's bodies carry obstacles
	// (contact.Obstacle.Carried): whether they have poses.
	carries() bool
	// begin starts the step of every body.
	begin(t, h, th float64) error
	// start is body k's velocity at the start of the step and its free
	// velocity (nil for a body whose motion is prescribed).
	start(k int) (v0, vfree []float64)
	// current is body k's velocity now (nil for a prescribed motion).
	current(k int) []float64
	// impact applies a generalised impulse r between steps: v += M^-1 r.
	impact(k int, r []float64) error
	// predict sets v, body k's free velocity, to the end velocity the
	// impulse r gives and writes the end configuration it reaches.
	predict(k, global int, v, r []float64, t, h, th float64, cfg *placement)
	// advance ends the step under the impulses r (the family's bodies'),
	// those of the last contact solve when loaded; done is false when a
	// body wants the contact problem solved again (a Newton update) and
	// advance called once more.
	advance(r [][]float64, loaded bool) (done bool, err error)
	// finish closes the step once every family's advance is done, and
	// checks the state it reached; shift is the part of the impulses r
	// whose time in the step moves the bodies' positions (arrival.go),
	// nil for a family whose bodies take none.
	finish(r, shift [][]float64, loaded bool, step int) error
	// energy adds the bodies' accounts to e.
	energy(e Energy) Energy
	// save writes what the bodies carry from one step to the next (a
	// checkpoint, Simulation.SaveState); load reads it back into bodies
	// built the same way.
	save(enc *gob.Encoder) error
	load(dec *gob.Decoder) error
}

// placement is the storage of a contact configuration: displacements of
// the finite-element bodies, poses and motions of the rigid ones, all
// indexed by the global body index (contact.Config).
type placement struct {
	disp   [][]float64
	poses  [][3]float64
	driven []contact.Motion
}

// config is the contact configuration at time t.
func (p *placement) config(t float64) contact.Config {
	return contact.Config{Time: t, Disp: p.disp, Poses: p.poses, Driven: p.driven}
}

// saveState writes a family's state, or the zero state of a family
// without a system (so that every stream has every family's part).
func saveState[S any](enc *gob.Encoder, present bool, state func() S) error {
	var st S
	if present {
		st = state()
	}
	return enc.Encode(st)
}

// loadState reads a family's state and gives it to set, unless the
// family has no system.
func loadState[S any](dec *gob.Decoder, what string, present bool, set func(S) error) error {
	var st S
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("%s: damaged: %w", what, err)
	}
	if !present {
		return nil
	}
	return set(st)
}

// system is what the families of whole systems (rigid bodies, point
// masses) end a step with.
type system interface {
	AddImpulse(k int, r []float64)
	AddShift(k int, r []float64)
	Finish()
	CheckState() error
}

// finishSystem applies the impulses of the last contact solve (when
// loaded) and their shifts, ends the system's step and refuses a state
// out of range.
func finishSystem(sys system, r, shift [][]float64, loaded bool, step int) error {
	if loaded {
		for k := range r {
			sys.AddImpulse(k, r[k])
			sys.AddShift(k, shift[k])
		}
	}
	sys.Finish()
	if err := sys.CheckState(); err != nil {
		return fmt.Errorf("after step %d: %w", step, err)
	}
	return nil
}
