package discrete

import (
	"encoding/gob"
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/kind"
)

// NewKind is the point masses of sys as a kind of body a simulation
// drives (kind.Kind), prepared for the simulation's step h and theta
// (Prepare: a System is one simulation's); a nil system has none. Each
// component (masses that springs join) is one body, its DOFs its masses'
// x and y; its source is the masses' contacts with obstacles, rigid
// bodies and finite-element sides.
func NewKind(sys *System, h, theta float64) (kind.Kind, error) {
	if sys != nil {
		if err := sys.Prepare(h, theta); err != nil {
			return nil, err
		}
	}
	return family{sys}, nil
}

type family struct{ sys *System }

func (f family) Name() string { return "point masses" }

func (f family) Len() int {
	if f.sys == nil {
		return 0
	}
	return f.sys.Len()
}

func (f family) BodyName(k int) string {
	return fmt.Sprintf("masses of %q", f.sys.Masses[f.sys.Component(k)[0]].Name)
}

func (f family) DOFs(k int) int { return 2 * len(f.sys.Component(k)) }

func (f family) Compliance(k int) kind.Compliance {
	eqs, c := f.sys.Compliance(k)
	return kind.Compliance{Eqs: eqs, C: c}
}

func (f family) MassCompliance(k int) (kind.Compliance, error) {
	eqs, c := f.sys.MassCompliance(k)
	return kind.Compliance{Eqs: eqs, C: c}, nil
}

// Place has nothing to write: masses touch obstacles, which the contact
// configuration does not hold.
func (f family) Place(k, global int, at *kind.Placement) {}

func (f family) Motion(int) contact.Motion { return nil }
func (f family) Carries() bool             { return false }

func (f family) Begin(c kind.Clock) error {
	if f.sys == nil {
		return nil
	}
	return f.sys.Begin(c.T)
}

func (f family) Start(k int) (v0, vfree []float64) {
	return f.sys.Velocity(k), f.sys.FreeVelocity(k)
}

func (f family) Current(k int) []float64 { return f.sys.Current(k) }

func (f family) Impact(k int, r []float64) error {
	f.sys.Impact(k, r)
	return nil
}

// Predict gives the end velocity of the impulse through the exact
// compliance; the masses' units are kept from the start (the source's
// AtEnd), so no configuration is written.
func (f family) Predict(k, global int, v, r []float64, c kind.Clock, at *kind.Placement) {
	_, cm := f.sys.Compliance(k)
	n := len(v)
	for i := range n {
		for j := range n {
			v[i] += cm[i*n+j] * r[j]
		}
	}
}

// Advance has nothing to iterate: the components are linear.
func (f family) Advance(r [][]float64, loaded bool) (bool, error) { return true, nil }

// Finish applies the impulses, ends the step and refuses a state out of
// range.
func (f family) Finish(r, shift [][]float64, loaded bool, step int) error {
	if f.sys == nil {
		return nil
	}
	return kind.FinishSystem(f.sys, r, shift, loaded, step)
}

func (f family) Energy(e kind.Energy) kind.Energy {
	for k := range f.Len() {
		p := f.sys.Energy(k)
		e = e.Add(kind.Energy{Kinetic: p.Kinetic, Elastic: p.Elastic, External: p.External, Damping: p.Damping, Numerical: p.Numerical, Contact: p.Contact})
	}
	return e
}

func (f family) Save(enc *gob.Encoder) error {
	return kind.SaveState(enc, f.sys != nil, func() SystemState { return f.sys.State() })
}

func (f family) Load(dec *gob.Decoder) error {
	return kind.LoadState(dec, "point masses", f.sys != nil, func(st SystemState) error { return f.sys.SetState(st) })
}

func (f family) Source(base int, at *kind.Placement) kind.Source { return source{f.sys, base, at} }

// source is the units of point masses against obstacles, rigid bodies and
// finite-element sides, the masses' components numbered from base in the
// step's global body index; at holds the motions of the driven rigid
// bodies (contact.Config.Driven). A nil system has none.
type source struct {
	sys  *System
	base int
	at   *kind.Placement
}

func (p source) Detect(cfg contact.Config) ([]contact.Unit, float64, error) {
	if p.sys == nil {
		return nil, math.Inf(1), nil
	}
	return p.sys.Detect(p.base, cfg)
}

// AtEnd keeps the units of the start: a mass's unit is a point on a face,
// whose normal a step does not turn but on a disc obstacle.
func (p source) AtEnd(cfg contact.Config, start []contact.Unit, t float64) ([]contact.Unit, bool, error) {
	return start, false, nil
}

func (p source) Laws(units []contact.Unit, laws []kind.Law, ids []kind.ID) {
	for i := range units {
		p.law(&units[i], &laws[i])
		ids[i] = p.id(units[i].Key)
	}
}

func (p source) law(u *contact.Unit, l *kind.Law) {
	c := p.sys.ContactOf(u.Key)
	comp, _ := p.sys.Of(u.Key.Node)
	*l = kind.Law{Law: c.Law, Restitution: c.Restitution, TangentialRestitution: contact.Tangential(c.Restitution, c.TangentialRestitution),
		Cohesion: c.Cohesion, Exact: c.Side == nil && p.sys.Free(comp)}.Sized(p.sys.Size(u.Key))
	if c.Obstacle != nil {
		l.Motion = c.Obstacle.MotionIn(contact.Config{Driven: p.at.Driven})
	}
}

// id is the contact, the mass and the obstacle's face.
func (p source) id(k contact.Key) kind.ID {
	return kind.ID{Pair: k.Pair, Node: k.Node, A: k.Edge}
}

func (p source) Body(k contact.Key) int {
	c, _ := p.sys.Of(k.Node)
	return p.base + c
}

func (p source) Thickness(k contact.Key) float64 { return 1 } // masses and impulses per m
func (p source) Reverse(k contact.Key) bool      { return false }

// StateLen is a component's masses' x and y (kind.Stated).
func (f family) StateLen(k int) (nq, nv int) { n := f.DOFs(k); return n, n }

func (f family) State(k int, q, v []float64) {
	for l, i := range f.sys.Component(k) {
		m := f.sys.Masses[i]
		if q != nil {
			q[2*l], q[2*l+1] = m.X[0], m.X[1]
		}
		if v != nil {
			v[2*l], v[2*l+1] = m.V[0], m.V[1]
		}
	}
}

// SetState moves the masses or sets them going; the springs' energy and
// the kinetic energy they change are booked at the next step's start
// (System.Begin).
func (f family) SetState(k int, q, v []float64) error {
	if err := errors.Join(kind.Finite("position", q), kind.Finite("velocity", v)); err != nil {
		return fmt.Errorf("%s: %w", f.BodyName(k), err)
	}
	for l, i := range f.sys.Component(k) {
		m := f.sys.Masses[i]
		if q != nil {
			m.X = [2]float64{q[2*l], q[2*l+1]}
		}
		if v != nil {
			m.V = [2]float64{v[2*l], v[2*l+1]}
		}
	}
	return nil
}

// ForceLen is a component's masses' applied forces, x and y
// (kind.Forced).
func (f family) ForceLen(k int) int { return f.DOFs(k) }

func (f family) SetForce(k int, load []float64) error {
	if err := kind.Finite("force", load); err != nil {
		return fmt.Errorf("%s: %w", f.BodyName(k), err)
	}
	f.sys.setForce(k, load)
	return nil
}

func (f family) Masses(k int, m []float64) {
	for l, i := range f.sys.Component(k) {
		m[2*l], m[2*l+1] = f.sys.Masses[i].M, f.sys.Masses[i].M
	}
}
