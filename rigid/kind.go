package rigid

import (
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/kind"
)

// NewKind is the rigid bodies of sys as a kind of body a simulation
// drives (kind.Kind); a nil system has none. A driven body has no DOFs in
// the contact problem: nil velocities and an empty compliance. Its source
// is the bodies' contacts among themselves; those with finite-element
// bodies are the pairs' (a rigid outline as a carried obstacle).
func NewKind(sys *System) kind.Kind { return family{sys} }

type family struct{ sys *System }

func (f family) Name() string { return "rigid bodies" }

func (f family) Len() int {
	if f.sys == nil {
		return 0
	}
	return len(f.sys.Bodies)
}

func (f family) Motion(k int) contact.Motion { return f.sys.Bodies[k].Motion }

// Index is the place of body h, a *Body (kind.Holder).
func (f family) Index(h any) (int, bool) {
	b, ok := h.(*Body)
	if !ok || f.sys == nil {
		return 0, false
	}
	k := slices.Index(f.sys.Bodies, b)
	return k, k >= 0
}
func (f family) Carries() bool         { return true }
func (f family) BodyName(k int) string { return f.sys.Bodies[k].Name }

func (f family) DOFs(k int) int {
	eqs, _ := f.sys.Compliance(k)
	return len(eqs)
}

func (f family) Compliance(k int) kind.Compliance {
	eqs, c := f.sys.Compliance(k)
	return kind.Compliance{Eqs: eqs, C: c}
}

func (f family) MassCompliance(k int) (kind.Compliance, error) { return f.Compliance(k), nil }

func (f family) Place(k, global int, at *kind.Placement) { at.Poses[global] = f.sys.Bodies[k].Q }

func (f family) Begin(c kind.Clock) error {
	if f.sys != nil {
		f.sys.Begin(c.T, c.H, c.Theta)
	}
	return nil
}

func (f family) Start(k int) (v0, vfree []float64) {
	return f.sys.Velocity(k), f.sys.FreeVelocity(k)
}

func (f family) Current(k int) []float64 {
	if b := f.sys.Bodies[k]; !b.Driven() {
		return b.V[:]
	}
	return nil
}

func (f family) Impact(k int, r []float64) error {
	f.sys.Impact(k, r)
	return nil
}

// Predict gives a free body the end velocity of its impulse (its
// compliance is diagonal) and the pose it reaches; a driven body's pose
// follows its motion.
func (f family) Predict(k, global int, v, r []float64, c kind.Clock, at *kind.Placement) {
	b := f.sys.Bodies[k]
	t, h, th := c.T, c.H, c.Theta
	if b.Driven() {
		off, off0 := b.Motion.Offset(t+h), b.Motion.Offset(t)
		at.Poses[global] = [3]float64{b.Q[0] + off[0] - off0[0], b.Q[1] + off[1] - off0[1], b.Q[2]}
		return
	}
	eqs, cm := f.sys.Compliance(k)
	for j := range eqs {
		v[j] += cm[j*len(eqs)+j] * r[j] // diagonal
		at.Poses[global][j] = b.Q[j] + h*(th*v[j]+(1-th)*b.V[j])
	}
}

// Advance has nothing to iterate: the rigid bodies end their step in
// Finish, under the impulses of the last contact solve.
func (f family) Advance(r [][]float64, loaded bool) (bool, error) { return true, nil }

// Finish applies the impulses, ends the step, and refuses a state out of
// range or a body that tunnelled through another.
func (f family) Finish(r, shift [][]float64, loaded bool, step int) error {
	if f.sys == nil {
		return nil
	}
	if err := kind.FinishSystem(f.sys, r, shift, loaded, step); err != nil {
		return err
	}
	if err := f.sys.Tunnelled(); err != nil {
		return fmt.Errorf("step %d: %w", step, err)
	}
	return nil
}

func (f family) Energy(e kind.Energy) kind.Energy {
	for k := range f.Len() {
		r := f.sys.Energy(k)
		e = e.Add(kind.Energy{Kinetic: r.Kinetic, External: r.External, Numerical: r.Numerical, Contact: r.Contact})
	}
	return e
}

func (f family) Save(enc *gob.Encoder) error {
	return kind.SaveState(enc, f.sys != nil, func() SystemState { return f.sys.State() })
}

func (f family) Load(dec *gob.Decoder) error {
	return kind.LoadState(dec, "rigid bodies", f.sys != nil, func(st SystemState) error { return f.sys.SetState(st) })
}

func (f family) Source(base int, _ *kind.Placement) kind.Source { return source{f.sys, base} }

// source is the units of the rigid bodies' contacts among themselves,
// numbered from base in the step's global body index; a nil system has
// none.
type source struct {
	sys  *System
	base int
}

func (r source) Detect(cfg contact.Config) ([]contact.Unit, float64, error) {
	if r.sys == nil {
		return nil, math.Inf(1), nil
	}
	units, err := r.sys.detect(r.base, &r.sys.det.stepped)
	minGap := math.Inf(1)
	for _, u := range units {
		minGap = min(minGap, u.Gap)
	}
	return units, minGap, err
}

// AtEnd keeps the units of the start: the rigid bodies' contacts are
// detected on their poses at the start only.
func (r source) AtEnd(cfg contact.Config, start []contact.Unit, t float64) ([]contact.Unit, bool, error) {
	return start, false, nil
}

func (r source) Laws(units []contact.Unit, laws []kind.Law, ids []kind.ID) {
	for i := range units {
		r.law(&units[i], &laws[i])
		ids[i] = r.id(units[i].Key)
	}
}

// law sets a unit's law, zero before, field by field: the law built and
// copied whole was a quarter of the laws' time.
func (r source) law(u *contact.Unit, dst *kind.Law) {
	rule := r.sys.ruleOf(u.Key.A, u.Key.B)
	dst.Law, dst.Motion, dst.Exact = rule.Law, r.sys.Bodies[u.Key.B].Motion, true
	dst.Restitution, dst.TangentialRestitution = rule.Restitution, contact.Tangential(rule.Restitution, rule.TangentialRestitution)
	dst.Cohesion, dst.Rolling = rule.Cohesion, r.rollingOf(rule, u)
	dst.Reach, dst.Slop, dst.Bond = kind.Lengths(r.sys.Size(u.Key))
}

// rollingOf is a unit's rolling resistance: its rule's, where a disk
// touches.
func (r source) rollingOf(rule *Rule, u *contact.Unit) float64 {
	if rule.Rolling == 0 || !r.sys.rolls(u.Key.A, u.Key.B) {
		return 0
	}
	return rule.Rolling
}

// Roll appends the rows of a unit's rolling velocity, omega_A - omega_B
// on the free bodies' rotations (a driven body does not turn), in body
// order (kind.Roller).
func (r source) Roll(u *contact.Unit, dst []contact.Entry) []contact.Entry {
	lo, hi, sign := u.Key.A, u.Key.B, 1.0
	if hi < lo {
		lo, hi, sign = hi, lo, -1
	}
	for _, b := range [2]struct {
		body int
		sign float64
	}{{lo, sign}, {hi, -sign}} {
		if !r.sys.Bodies[b.body].Driven() {
			dst = append(dst, contact.Entry{Body: r.base + b.body, Eq: 2, N: b.sign})
		}
	}
	return dst
}

// id is the two bodies, the candidate's feature and whether it is an
// image across the periodic cell.
func (r source) id(k contact.Key) kind.ID {
	return kind.ID{Node: k.Node, A: k.A, B: k.B, Reverse: k.Reverse}
}

func (r source) Body(k contact.Key) int          { return r.base + k.A }
func (r source) Thickness(k contact.Key) float64 { return 1 } // masses and impulses per m
func (r source) Reverse(k contact.Key) bool      { return false }

// StateLen is a body's pose and velocity: x, y and rotation (kind.Stated).
func (f family) StateLen(int) (nq, nv int) { return 3, 3 }

func (f family) State(k int, q, v []float64) {
	b := f.sys.Bodies[k]
	copy(q, b.Q[:])
	copy(v, b.V[:])
}

// SetState moves or sets going a free body; a driven body's motion is
// prescribed (Motion), and it takes neither.
func (f family) SetState(k int, q, v []float64) error {
	b := f.sys.Bodies[k]
	if b.Driven() && (q != nil || v != nil) {
		return fmt.Errorf("rigid body %q is driven: its motion is prescribed by the scene, not set by hand", b.Name)
	}
	if err := errors.Join(kind.Finite("position", q), kind.Finite("velocity", v)); err != nil {
		return fmt.Errorf("rigid body %q: %w", b.Name, err)
	}
	if q != nil {
		b.Q = [3]float64(q)
	}
	if v != nil {
		b.V = [3]float64(v)
	}
	return nil
}

// ForceLen is a free body's force and moment (kind.Forced).
func (f family) ForceLen(k int) int {
	if f.sys.Bodies[k].Driven() {
		return 0
	}
	return 3
}

func (f family) SetForce(k int, load []float64) error {
	b := f.sys.Bodies[k]
	if err := kind.Finite("force", load); err != nil {
		return fmt.Errorf("rigid body %q: %w", b.Name, err)
	}
	b.Force, b.Moment = [2]float64{load[0], load[1]}, load[2]
	return nil
}

func (f family) Masses(k int, m []float64) {
	b := f.sys.Bodies[k]
	m[0], m[1], m[2] = b.Mass, b.Mass, b.Inertia
}
