package timestep

import (
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// rigidSource is the units of the rigid bodies' contacts among themselves
// (source), numbered from base in the step's global body index; a nil
// system has none.
type rigidSource struct {
	sys  *rigid.System
	base int
}

func (r rigidSource) detect(cfg contact.Config) ([]contact.Unit, float64, error) {
	if r.sys == nil {
		return nil, math.Inf(1), nil
	}
	units, err := r.sys.Detect(r.base)
	minGap := math.Inf(1)
	for _, u := range units {
		minGap = min(minGap, u.Gap)
	}
	return units, minGap, err
}

// atEnd keeps the units of the start: the rigid bodies' contacts are
// detected on their poses at the start only.
func (r rigidSource) atEnd(cfg contact.Config, start []contact.Unit, t float64) ([]contact.Unit, bool, error) {
	return start, false, nil
}

func (r rigidSource) law(u *contact.Unit) unitLaw {
	rule := r.sys.RuleOfUnit(u.Key)
	return unitLaw{law: rule.Law, motion: r.sys.Bodies[u.Key.B].Motion, restitution: rule.Restitution, exact: true}.sized(r.sys.Size(u.Key))
}

// id is the two bodies, the candidate's feature and whether it is an
// image across the periodic cell.
func (r rigidSource) id(k contact.Key) unitID {
	return unitID{kind: rigidUnits, node: k.Node, a: k.A, b: k.B, reverse: k.Reverse}
}

func (r rigidSource) body(k contact.Key) int          { return r.base + k.A }
func (r rigidSource) thickness(k contact.Key) float64 { return 1 } // masses and impulses per m
func (r rigidSource) reverse(k contact.Key) bool      { return false }
