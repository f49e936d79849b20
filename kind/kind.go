package kind

import (
	"encoding/gob"

	"github.com/fecontact/fecontact/contact"
)

// Kind is a kind of body as a simulation takes it: its bodies (Family) and
// where their contact units come from (Source).
type Kind interface {
	Family
	// Source is the kind's source of contact units, its bodies numbered
	// from base in the simulation's global index, the driven rigid
	// bodies' motions read from at's Driven when it detects; nil for a
	// kind whose units another kind's source brings.
	Source(base int, at *Placement) Source
}

// Family is a kind's bodies as the contact step drives them: what the step
// needs of a body, and nothing of how it moves. A family sees its own
// bodies from 0; global is a body's index in the simulation's range (that
// of contact.Entry.Body, of the generalised impulses and of the
// compliances).
type Family interface {
	// Name names the family in messages and in a checkpoint, whose
	// section it is ("rigid bodies").
	Name() string
	// Len is the number of bodies.
	Len() int
	// BodyName is body k's name.
	BodyName(k int) string
	// DOFs is the length of body k's generalised impulse.
	DOFs(k int) int
	// Compliance is body k's compliance on the DOFs contact acts on, fixed
	// for the run (the step's Delassus builder keeps it).
	Compliance(k int) Compliance
	// MassCompliance is M^-1 on the same DOFs: the response to an impact,
	// which lasts no time.
	MassCompliance(k int) (Compliance, error)
	// Place writes body k's current configuration (a displacement or a
	// pose) into the placement at global.
	Place(k, global int, at *Placement)
	// Motion is body k's prescribed motion if it carries obstacles and is
	// driven (contact.Config.Driven), else nil.
	Motion(k int) contact.Motion
	// Carries tells whether the family's bodies carry obstacles
	// (contact.Obstacle.Carried): whether they have poses.
	Carries() bool
	// Begin starts the step of every body over the clock's step.
	Begin(c Clock) error
	// Start is body k's velocity at the start of the step and its free
	// velocity (nil for a body whose motion is prescribed).
	Start(k int) (v0, vfree []float64)
	// Current is body k's velocity now (nil for a prescribed motion).
	Current(k int) []float64
	// Impact applies a generalised impulse r between steps: v += M^-1 r,
	// its work booked as contact work.
	Impact(k int, r []float64) error
	// Predict sets v, body k's free velocity, to the end velocity the
	// impulse r gives, and writes the end configuration it reaches.
	Predict(k, global int, v, r []float64, c Clock, at *Placement)
	// Advance ends the step under the impulses r (the family's bodies'),
	// those of the last contact solve when loaded; done is false when a
	// body wants the contact problem solved again (a Newton update) and
	// Advance called once more. While one family asks, every family's
	// Advance is called again with the new solve's impulses: a family
	// that was done takes them in place of the last ones (the rigid
	// bodies and point masses, which apply theirs in Finish, do;
	// finite-element bodies, whose step ends in their own Advance, take
	// only the impulses it ended on and refuse others by name).
	Advance(r [][]float64, loaded bool) (done bool, err error)
	// Finish closes the step once every family's Advance is done, and
	// checks the state it reached; shift is the part of the impulses r
	// whose time in the step moves the bodies' positions (an impact
	// inside the step), nil for a family whose bodies take none.
	Finish(r, shift [][]float64, loaded bool, step int) error
	// Energy adds the bodies' accounts to e.
	Energy(e Energy) Energy
	// Save writes what the bodies carry from one step to the next (the
	// family's section of a checkpoint); Load reads it back into bodies
	// built the same way.
	Save(enc *gob.Encoder) error
	Load(dec *gob.Decoder) error
}

// Source is where contact units come from, and what the step needs to
// know of its units: their law, their identity across steps (for the
// warm start), the body and the thickness their force is for, and their
// units again at the end configuration a solve predicts.
type Source interface {
	// Detect returns the units at cfg and the smallest gap it saw (+Inf
	// for none).
	Detect(cfg contact.Config) (units []contact.Unit, minGap float64, err error)
	// AtEnd returns the units at the predicted end configuration cfg,
	// their obstacle terms at the start time t, and whether one is deep;
	// a source whose units do not follow the prediction returns start
	// unchanged and false.
	AtEnd(cfg contact.Config, start []contact.Unit, t float64) (units []contact.Unit, deep bool, err error)
	// Laws sets laws[i] to units[i]'s law and ids[i] to its identity
	// across steps (its Source left 0: the step sets it), laws and ids
	// zero before (a law may be set field by field), read once a step
	// into the step's storage: a call a unit, with the law returned by
	// value, cost as much as making them (two thirds of reading a pile's
	// laws).
	Laws(units []contact.Unit, laws []Law, ids []ID)
	// Body is the global index of the body the unit's node belongs to:
	// the body its force acts on.
	Body(k contact.Key) int
	// Thickness is the thickness the unit's impulse density is spread
	// over (m): its force is per m of it.
	Thickness(k contact.Key) float64
	// Reverse tells a unit of an antagonist's node on the candidate's
	// edges (the second pass of a pair of sides).
	Reverse(k contact.Key) bool
}

// ID is a unit's identity across steps: the source it comes from (its
// place in the simulation's list) and what the source says identifies it
// (a pair and a candidate node, two bodies and a feature, a contact, a
// mass and a face).
type ID struct {
	Source          int
	Pair, Node      int
	Reverse, Valley bool
	A, B            int
}

// Clock is the simulation's time as a step sees it: the step's start t,
// its length h and theta.
type Clock struct {
	T, H, Theta float64
}

// Placement is the storage of a contact configuration: displacements of
// the finite-element bodies and the velocities of their driven DOFs,
// poses and motions of the rigid ones, all indexed by the global body
// index (contact.Config).
type Placement struct {
	Disp   [][]float64
	Poses  [][3]float64
	Driven []contact.Motion
	Moving [][]float64
}

// Config is the contact configuration at time t.
func (p *Placement) Config(t float64) contact.Config {
	return contact.Config{Time: t, Disp: p.Disp, Poses: p.Poses, Driven: p.Driven, Moving: p.Moving}
}

// Compliance is a body's compliance on some of its equations: an impulse r
// on Eqs changes their velocities by C r (C symmetric, row-major,
// len(Eqs) x len(Eqs)).
type Compliance struct {
	Eqs []int
	C   []float64
}
