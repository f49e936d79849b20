package discrete

import (
	"math"

	"github.com/fecontact/fecontact/contact"
)

// Detect returns the units of the masses near their obstacles in cfg (the
// time places moving ones) and the smallest gap among them (+Inf for
// none). A unit's Key is the contact's index (Pair), the mass (Node) and
// the obstacle's face (Edge); its rows act on the mass's x and y, DOFs
// 2 index and 2 index + 1 of body base + its component.
func (s *System) Detect(base int, cfg contact.Config) ([]contact.Unit, float64, error) {
	var units []contact.Unit
	minGap := math.Inf(1)
	for ci := range s.contacts {
		c := &s.contacts[ci]
		vObs := [2]float64{}
		if m := c.Obstacle.MotionIn(cfg); m != nil {
			vObs = m.Velocity(cfg.Time)
		}
		for _, i := range s.touching(c) {
			m := s.Masses[i]
			var err error
			s.touches, err = c.Obstacle.Touches(s.touches[:0], m.X, m.Radius, s.alert(c, m), cfg)
			if err != nil {
				return nil, 0, err
			}
			for _, t := range s.touches {
				minGap = math.Min(minGap, t.Gap)
				units = append(units, s.unit(base, ci, i, t, vObs))
			}
		}
	}
	return units, minGap, nil
}

// touching is the masses a contact applies to.
func (s *System) touching(c *Contact) []int {
	if c.Masses != nil {
		return c.Masses
	}
	all := make([]int, len(s.Masses))
	for i := range all {
		all[i] = i
	}
	return all
}

// alert is the distance within which a mass is paired with its contact's
// obstacle: the contact's Alert, and at least twice the way the mass can
// go in a step.
func (s *System) alert(c *Contact, m *Mass) float64 {
	a := math.Hypot(m.Gravity[0]+m.Force[0]/m.M, m.Gravity[1]+m.Force[1]/m.M)
	reach := 2 * (s.h*math.Hypot(m.V[0], m.V[1]) + s.h*s.h*a)
	return math.Max(c.Alert, reach)
}

func (s *System) unit(base, ci, i int, t contact.Touch, vObs [2]float64) contact.Unit {
	k, l := s.of[i], s.at[i]
	n, tg := t.N, [2]float64{-t.N[1], t.N[0]}
	u := contact.Unit{
		Key: contact.Key{Pair: ci, Node: i, Edge: t.Face},
		X:   [2]float64{s.Masses[i].X[0] - s.Masses[i].Radius*n[0], s.Masses[i].X[1] - s.Masses[i].Radius*n[1]}, N: n, T: tg, Gap: t.Gap, Weight: 1, Mu: s.contacts[ci].Mu,
		ObsN: n, ObsT: tg,
		Entries: []contact.Entry{
			{Body: base + k, Eq: 2 * l, N: n[0], T: tg[0]},
			{Body: base + k, Eq: 2*l + 1, N: n[1], T: tg[1]},
		},
	}
	u.Rigid = u.RigidAt(vObs)
	return u
}

// ContactOf returns the contact a unit of Detect came from.
func (s *System) ContactOf(k contact.Key) Contact { return s.contacts[k.Pair] }

// Size is the length a unit's penetration is measured against: the mass's
// radius, or for a point its contact's alert distance.
func (s *System) Size(k contact.Key) float64 {
	return math.Max(s.Masses[k.Node].Radius, s.contacts[k.Pair].Alert)
}
