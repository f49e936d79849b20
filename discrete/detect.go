package discrete

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
)

// Detect returns the units of the masses near their obstacles in cfg (the
// time places moving ones) and the smallest gap among them (+Inf for
// none). A unit's Key is the contact's index (Pair), the mass (Node) and
// the obstacle's face (Edge); its rows act on the mass's x and y, DOFs
// 2 index and 2 index + 1 of body base + its component.
func (s *System) Detect(base int, cfg contact.Config) ([]contact.Unit, float64, error) {
	if cfg.Time == 0 {
		if err := s.startsOutside(cfg); err != nil {
			return nil, 0, err
		}
	}
	var units []contact.Unit
	minGap := math.Inf(1)
	for ci := range s.contacts {
		c := &s.contacts[ci]
		s.discs = s.discs[:0]
		for _, i := range c.Masses {
			m := s.Masses[i]
			s.discs = append(s.discs, contact.Disc{X: m.X, R: m.Radius, Alert: s.alert(c, m)})
		}
		var err error
		if s.touches, err = c.touches(s.touches[:0], s.discs, cfg); err != nil {
			return nil, 0, fmt.Errorf("point contact %q: %w", c.Name, err)
		}
		for _, t := range s.touches {
			minGap = min(minGap, t.Gap)
			units = append(units, s.unit(base, ci, c.Masses[t.Disc], t, cfg))
		}
	}
	return units, minGap, nil
}

// startsOutside refuses a mass that starts inside one of its contacts'
// obstacles or sides deeper than the contact sees (its alert): it would
// pass through unseen, the run going on without a word.
func (s *System) startsOutside(cfg contact.Config) error {
	for ci := range s.contacts {
		c := &s.contacts[ci]
		for _, i := range c.Masses {
			m := s.Masses[i]
			seen := s.alert(c, m)
			far := []contact.Disc{{X: m.X, R: m.Radius, Alert: math.MaxFloat64 / 4}}
			ts, err := c.touches(nil, far, cfg)
			if err != nil {
				return fmt.Errorf("point contact %q: %w", c.Name, err)
			}
			// The nearest face says which side the centre is on.
			near := slices.MinFunc(append(ts, contact.Touch{Gap: math.Inf(1)}), func(a, b contact.Touch) int {
				return cmp.Compare(math.Abs(a.Gap+m.Radius), math.Abs(b.Gap+m.Radius))
			})
			if depth := -(near.Gap + m.Radius); depth > seen+m.Radius {
				return fmt.Errorf("mass %d %q starts inside what point contact %d%s touches: its centre (%g, %g) is %.3g m deep, past the %.3g m within which the contact sees it (it would pass through unseen): place the mass outside, or raise the contact's alert", i+1, m.Name, ci+1, quoted(c.Name), m.X[0], m.X[1], depth, seen)
			}
		}
	}
	return nil
}

// touches is where the masses' discs touch the contact's obstacle or side
// in cfg.
func (c *Contact) touches(dst []contact.Touch, discs []contact.Disc, cfg contact.Config) ([]contact.Touch, error) {
	if c.Side != nil {
		return c.Side.Touches(dst, discs, cfg), nil
	}
	return c.Obstacle.Touches(dst, discs, cfg)
}

// alert is the distance within which a mass is paired with its contact's
// obstacle: the contact's Alert, and at least twice the way the mass can
// go in a step.
func (s *System) alert(c *Contact, m *Mass) float64 {
	a := math.Hypot(m.Gravity[0]+m.Force[0]/m.M, m.Gravity[1]+m.Force[1]/m.M)
	reach := 2 * (s.h*math.Hypot(m.V[0], m.V[1]) + s.h*s.h*a)
	return max(c.Alert, reach)
}

// unit is mass i's unit of touch t with contact ci: +n, +t on the mass's
// x and y; -N_k n, -N_k t on a side's edge nodes; -n, -t, -(r x n),
// -(r x t) on a free rigid body that carries the obstacle (r from its
// centre to the touch), or a driven one's velocity as the rigid term.
func (s *System) unit(base, ci, i int, t contact.Touch, cfg contact.Config) contact.Unit {
	c, m := &s.contacts[ci], s.Masses[i]
	k, l := s.of[i], s.at[i]
	n, tg := t.N, [2]float64{-t.N[1], t.N[0]}
	u := contact.Unit{
		Key: contact.Key{Pair: ci, Node: i, Edge: t.Face},
		X:   [2]float64{m.X[0] - m.Radius*n[0], m.X[1] - m.Radius*n[1]},
		N:   n, T: tg, Gap: t.Gap, Weight: 1, Mu: c.Mu, MuDynamic: contact.Dynamic(c.Mu, c.MuDynamic),
	}
	var es []contact.Entry
	switch o := c.Obstacle; {
	case c.Side != nil:
		var driven [2]float64
		es, driven = c.Side.Rows(es, t, n, tg, cfg)
		u.Rigid, u.Driven = driven, driven
	case o.MotionIn(cfg) != nil:
		u.ObsN, u.ObsT = n, tg
		u.Rigid = u.RigidAt(o.MotionIn(cfg).Velocity(cfg.Time))
	case o.Carried:
		q := cfg.Poses[o.Body]
		r := [2]float64{t.X[0] - q[0], t.X[1] - q[1]}
		es = append(es, contact.Entry{Body: o.Body, Eq: 0, N: -n[0], T: -tg[0]}, contact.Entry{Body: o.Body, Eq: 1, N: -n[1], T: -tg[1]},
			contact.Entry{Body: o.Body, Eq: 2, N: -cross(r, n), T: -cross(r, tg)})
	}
	es = append(es, contact.Entry{Body: base + k, Eq: 2 * l, N: n[0], T: tg[0]}, contact.Entry{Body: base + k, Eq: 2*l + 1, N: n[1], T: tg[1]})
	slices.SortFunc(es, func(a, b contact.Entry) int { return cmp.Or(cmp.Compare(a.Body, b.Body), cmp.Compare(a.Eq, b.Eq)) })
	u.Entries = es
	return u
}

func cross(a, b [2]float64) float64 { return a[0]*b[1] - a[1]*b[0] }

// ContactOf returns the contact a unit of Detect came from.
func (s *System) ContactOf(k contact.Key) Contact { return s.contacts[k.Pair] }

// Size is the length a unit's penetration and slop are measured against:
// the mass's radius, or for a point its contact's default alert distance
// (1e-3 of the obstacle's extent): not the alert a user set, whose slop
// of 1e-5 of 1e10 m made a mass rest 0.1 m above a plane.
func (s *System) Size(k contact.Key) float64 {
	c := &s.contacts[k.Pair]
	return max(s.Masses[k.Node].Radius, c.defaultAlert())
}

// quoted is " \"name\"", or nothing for no name.
func quoted(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" %q", name)
}
