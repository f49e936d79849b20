package scene

import (
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/fe"
)

// Mass is a point mass (package discrete): per m of thickness, like the
// rigid bodies.
type Mass struct {
	Name     string    `toml:"name"`
	Mass     float64   `toml:"mass"`      // kg per m
	Position []float64 `toml:"position"`  // m
	Velocity []float64 `toml:"velocity"`  // m/s
	Gravity  []float64 `toml:"gravity"`   // m/s^2
	Force    []float64 `toml:"force"`     // an applied force, N per m
	LoadTime *LoadTime `toml:"load_time"` // the force's factor in time; none: constant
	Radius   float64   `toml:"radius"`    // of its contact disc, m; 0: a point
}

// Spring joins two masses, or a mass and a fixed anchor: a stiffness along
// the line with a rest length, or a given stiffness matrix.
type Spring struct {
	Name            string      `toml:"name"`
	Masses          []string    `toml:"masses"` // two masses, or one with anchor
	Anchor          []float64   `toml:"anchor"` // m
	Stiffness       float64     `toml:"stiffness"`
	StiffnessMatrix [][]float64 `toml:"stiffness_matrix"` // [[K_t, W], [W, K_n]], N/m per m
	RestLength      *float64    `toml:"rest_length"`      // m; default the initial length
	Damping         float64     `toml:"damping"`          // a dashpot, N s/m per m
}

// PointContact makes masses touch an obstacle, a rigid body or an edge
// group of a body.
type PointContact struct {
	Name     string   `toml:"name"`
	Masses   []string `toml:"masses"` // default every mass
	Obstacle string   `toml:"obstacle"`
	Rigid    string   `toml:"rigid"`
	Side     *Side    `toml:"side"`
	Mu       float64  `toml:"mu"`
	// MuDynamic is the friction coefficient while sliding (default mu).
	MuDynamic *float64 `toml:"mu_dynamic"`
	Law       string   `toml:"law"` // shock (default) or signorini
	// DissipationIndex is delta of [JM91] section 6, in [0, 1], for the
	// shock law: 1 (default) is inelastic.
	DissipationIndex *float64 `toml:"dissipation_index"`
	// Restitution is Newton's coefficient e in [0, 1], and
	// TangentialRestitution its tangential one (RigidRule's).
	Restitution           *float64 `toml:"restitution"`
	TangentialRestitution *float64 `toml:"tangential_restitution"`
	Alert                 float64  `toml:"alert"` // m; default 1e-3 of the obstacle's extent, half the side's shortest edge
	// Cohesion is the tension (N/m) each mass touching at the run's start
	// holds before its bond breaks for good (0, the default: none).
	Cohesion float64 `toml:"cohesion"`
}

// checkPoints checks the masses' names and what the springs and point
// contacts name; the numbers are checked where the system is built
// (discrete.NewSystem), with the entity's name.
func (s *Scene) checkPoints(bodies, obstacles, rigids map[string]bool) error {
	masses := map[string]bool{}
	for i, m := range s.Masses {
		if err := fileName(m.Name); err != nil {
			return fmt.Errorf("mass %d: name %w", i+1, err)
		}
		if masses[m.Name] || bodies[m.Name] || rigids[m.Name] {
			return fmt.Errorf("mass %q: the name is taken by another body or mass", m.Name)
		}
		masses[m.Name] = true
		where := fmt.Sprintf("mass %q", m.Name)
		for _, v := range []struct {
			key  string
			vec  []float64
			need bool
		}{{"position", m.Position, true}, {"velocity", m.Velocity, false}, {"gravity", m.Gravity, false}, {"force", m.Force, false}} {
			if (v.need || v.vec != nil) && (len(v.vec) != 2 || !finite(v.vec...)) {
				return bad(where, v.key, v.vec, "expected [x, y], finite")
			}
		}
		if m.LoadTime != nil && m.Force == nil {
			return fmt.Errorf("%s: load_time is given without a force for it to vary: give force = [fx, fy], or leave load_time out", where)
		}
		if err := m.LoadTime.check(where, "load_time"); err != nil {
			return err
		}
	}
	for i, sp := range s.Springs {
		where, err := namedMasses("spring", i, sp.Name, sp.Masses, masses)
		if err != nil {
			return err
		}
		switch {
		case len(sp.Masses) == 2 && sp.Anchor != nil:
			return bad(where, "anchor", sp.Anchor, "a spring joins two masses or a mass and an anchor: leave the anchor out or name one mass")
		case len(sp.Masses) == 1 && (len(sp.Anchor) != 2 || !finite(sp.Anchor...)):
			return bad(where, "anchor", sp.Anchor, "expected [x, y], the fixed end of a spring on one mass")
		case len(sp.Masses) != 1 && len(sp.Masses) != 2:
			return bad(where, "masses", fmt.Sprintf("%q", sp.Masses), "expected two masses, or one and an anchor")
		case sp.StiffnessMatrix != nil && (len(sp.StiffnessMatrix) != 2 || len(sp.StiffnessMatrix[0]) != 2 || len(sp.StiffnessMatrix[1]) != 2):
			return bad(where, "stiffness_matrix", sp.StiffnessMatrix, "expected [[K_t, W], [W, K_n]]")
		}
	}
	for i, c := range s.PointContacts {
		where, err := namedMasses("point_contact", i, c.Name, c.Masses, masses)
		if err != nil {
			return err
		}
		given := 0
		for _, g := range []bool{c.Obstacle != "", c.Rigid != "", c.Side != nil} {
			if g {
				given++
			}
		}
		switch {
		case given != 1:
			return fmt.Errorf("%s: give exactly one of obstacle = \"name\", rigid = \"name\" and side = {body, group}", where)
		case c.Obstacle != "" && !obstacles[c.Obstacle]:
			return bad(where, "obstacle", fmt.Sprintf("%q", c.Obstacle), "expected the name of an [[obstacle]]")
		case c.Rigid != "" && !rigids[c.Rigid]:
			return bad(where, "rigid", fmt.Sprintf("%q", c.Rigid), "expected the name of a [[rigid]] body")
		case c.Side != nil && (!bodies[c.Side.Body] || c.Side.Group == ""):
			return bad(where, "side", fmt.Sprintf("{body = %q, group = %q}", c.Side.Body, c.Side.Group), "expected the name of a [[body]] and one of its edge groups")
		case c.Law != "" && c.Law != "signorini" && c.Law != "shock":
			return bad(where, "law", fmt.Sprintf("%q", c.Law), "expected shock or signorini")
		case c.DissipationIndex != nil && !(*c.DissipationIndex >= 0 && *c.DissipationIndex <= 1):
			return bad(where, "dissipation_index", *c.DissipationIndex, "expected a value in [0, 1]")
		case !(c.Cohesion >= 0) || c.Cohesion > maxCohesion:
			return bad(where, "cohesion", c.Cohesion, fmt.Sprintf("expected a tension in N/m from 0 (no bond) to %g", maxCohesion))
		}
		if err := checkRestitution(where, c.Restitution, c.TangentialRestitution, c.DissipationIndex, c.Law); err != nil {
			return err
		}
	}
	return nil
}

// namedMasses names entity i of a table for messages (by its name when
// it has one) and checks that the masses it names are [[mass]]es.
func namedMasses(table string, i int, name string, names []string, masses map[string]bool) (string, error) {
	where := fmt.Sprintf("%s %d", table, i+1)
	if name != "" {
		where = fmt.Sprintf("%s %q", table, name)
	}
	for _, n := range names {
		if !masses[n] {
			return where, bad(where, "masses", fmt.Sprintf("%q", names), fmt.Sprintf("%q is not a [[mass]]", n))
		}
	}
	return where, nil
}

// pointSystem builds the masses, springs and point contacts (nil without
// masses).
func (s *Scene) pointSystem(bodies []*fe.Body, index map[string]int, obstacles, carriers map[string]*contact.Obstacle) (*discrete.System, error) {
	if len(s.Masses) == 0 {
		return nil, nil
	}
	at := map[string]int{}
	var masses []*discrete.Mass
	for i, m := range s.Masses {
		at[m.Name] = i
		f, err := m.LoadTime.build(s, "load_time")
		if err != nil {
			return nil, fmt.Errorf("mass %q: %w", m.Name, err)
		}
		masses = append(masses, &discrete.Mass{Name: m.Name, M: m.Mass, X: vec(m.Position), V: vec(m.Velocity), Gravity: vec(m.Gravity),
			Force: vec(m.Force), ForceTime: f, Radius: m.Radius})
	}
	var springs []discrete.Spring
	for _, sp := range s.Springs {
		d := discrete.Spring{Name: sp.Name, A: at[sp.Masses[0]], B: discrete.Anchored, Anchor: vec(sp.Anchor), K: sp.Stiffness, Rest: sp.RestLength, Damping: sp.Damping}
		if len(sp.Masses) == 2 {
			d.B = at[sp.Masses[1]]
		}
		if k := sp.StiffnessMatrix; k != nil {
			d.Matrix = &[2][2]float64{{k[0][0], k[0][1]}, {k[1][0], k[1][1]}}
		}
		springs = append(springs, d)
	}
	var contacts []discrete.Contact
	for i, c := range s.PointContacts {
		d, err := c.build(at, bodies, index, obstacles, carriers)
		if err != nil {
			return nil, fmt.Errorf("%s: point_contact %d (%s): %w", s.Name, i+1, c.Name, err)
		}
		contacts = append(contacts, d)
	}
	sys, err := discrete.NewSystem(masses, springs, contacts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return sys, nil
}

func (c PointContact) build(at map[string]int, bodies []*fe.Body, index map[string]int, obstacles, carriers map[string]*contact.Obstacle) (discrete.Contact, error) {
	law, err := contact.ParseLaw(c.Law)
	if c.Law == "" {
		law, err = contact.Shock, nil
	}
	if err != nil {
		return discrete.Contact{}, err
	}
	d := discrete.Contact{Name: c.Name, Mu: c.Mu, MuDynamic: c.MuDynamic, Law: law, Alert: c.Alert, Restitution: restitution(c.DissipationIndex, c.Restitution),
		TangentialRestitution: tangential(c.Restitution, c.TangentialRestitution), Cohesion: c.Cohesion}
	for _, n := range c.Masses {
		d.Masses = append(d.Masses, at[n])
	}
	switch {
	case c.Obstacle != "":
		d.Obstacle = obstacles[c.Obstacle]
	case c.Rigid != "":
		d.Obstacle = carriers[c.Rigid]
	default:
		if d.Side, err = side(bodies, index, *c.Side); err != nil {
			return discrete.Contact{}, err
		}
	}
	return d, nil
}

func vec(v []float64) [2]float64 {
	if len(v) != 2 {
		return [2]float64{}
	}
	return [2]float64{v[0], v[1]}
}
