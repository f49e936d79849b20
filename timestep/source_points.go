package timestep

import (
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
)

// pointSource is the units of point masses against obstacles, rigid
// bodies and finite-element sides (source), the masses' components
// numbered from base in the step's global body index; driven is the
// motions of the driven rigid bodies (contact.Config.Driven). A nil
// system has none.
type pointSource struct {
	sys    *discrete.System
	base   int
	driven []contact.Motion
}

func (p pointSource) detect(cfg contact.Config) ([]contact.Unit, float64, error) {
	if p.sys == nil {
		return nil, math.Inf(1), nil
	}
	return p.sys.Detect(p.base, cfg)
}

// atEnd keeps the units of the start: a mass's unit is a point on a face,
// whose normal a step does not turn but on a disc obstacle.
func (p pointSource) atEnd(cfg contact.Config, start []contact.Unit, t float64) ([]contact.Unit, bool, error) {
	return start, false, nil
}

func (p pointSource) law(u *contact.Unit) unitLaw {
	c := p.sys.ContactOf(u.Key)
	comp, _ := p.sys.Of(u.Key.Node)
	ul := unitLaw{law: c.Law, restitution: c.Restitution, exact: c.Side == nil && p.sys.Free(comp)}.sized(p.sys.Size(u.Key))
	if c.Obstacle != nil {
		ul.motion = c.Obstacle.MotionIn(contact.Config{Driven: p.driven})
	}
	return ul
}

// id is the contact, the mass and the obstacle's face.
func (p pointSource) id(k contact.Key) unitID {
	return unitID{kind: pointUnits, pair: k.Pair, node: k.Node, a: k.Edge}
}

func (p pointSource) body(k contact.Key) int {
	c, _ := p.sys.Of(k.Node)
	return p.base + c
}

func (p pointSource) thickness(k contact.Key) float64 { return 1 } // masses and impulses per m
func (p pointSource) reverse(k contact.Key) bool      { return false }
