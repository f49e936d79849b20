package scene

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// Rigid is one rigid body: a rectangle, a convex polygon or a disk.
type Rigid struct {
	Name      string      `toml:"name"`
	Group     string      `toml:"group"`     // the rules' name for it; default ""
	Rectangle []float64   `toml:"rectangle"` // [width, height], centred on position
	Polygon   [][]float64 `toml:"polygon"`   // vertices, counter-clockwise, where they are
	// Shape is a polygon's vertices counter-clockwise about its centre
	// of mass, the body at Position turned by Angle: as a run's expanded
	// scene writes a builder's bodies (scene-as-run.toml).
	Shape    [][]float64 `toml:"shape"`
	Radius   float64     `toml:"radius"`    // a disk centred on position
	Position []float64   `toml:"position"`  // centre (rectangle, disk)
	Angle    float64     `toml:"angle"`     // rad, counter-clockwise
	Rho      float64     `toml:"rho"`       // kg/m^3
	Mass     float64     `toml:"mass"`      // kg per m, with inertia instead of rho
	Inertia  float64     `toml:"inertia"`   // kg m^2 per m, about the centre of mass
	Velocity []float64   `toml:"velocity"`  // m/s
	Omega    float64     `toml:"omega"`     // rad/s
	Gravity  []float64   `toml:"gravity"`   // m/s^2
	Force    []float64   `toml:"force"`     // N per m at the centre of mass
	Moment   float64     `toml:"moment"`    // N m per m
	LoadTime *LoadTime   `toml:"load_time"` // the factor of force and moment in time; none: constant
	Motion   *Motion     `toml:"motion"`    // driven: fixed, velocity, sine or record
	// Surface "top" makes a driven polygon a one-sided ground whose only
	// face others rest on is its top (rigid.Body.Surface).
	Surface string `toml:"surface"`
}

// RigidContacts are the rules of contact between rigid bodies.
type RigidContacts struct {
	Alert float64     `toml:"alert"` // m; default a tenth of the smallest body's radius
	Rules []RigidRule `toml:"rule"`
}

// RigidRule pairs two groups of rigid bodies.
type RigidRule struct {
	Groups []string `toml:"groups"` // two group names; "*" is every group
	Mu     float64  `toml:"mu"`
	// MuDynamic is the friction coefficient while sliding (default mu).
	MuDynamic *float64 `toml:"mu_dynamic"`
	Law       string   `toml:"law"` // shock (default) or signorini
	// DissipationIndex is delta of [JM91] section 6, in [0, 1]: 1
	// (default) is inelastic, 0 restores the normal velocity of a single
	// collision.
	DissipationIndex *float64 `toml:"dissipation_index"`
	// Restitution is Newton's coefficient e in [0, 1] of the shock law,
	// U_N+ >= -e U_N- at each closed unit, with Coulomb's cone on the
	// tangential impulse; TangentialRestitution (default 0) is the
	// tangential velocity's, U_T+ + e_T U_T- in Coulomb's law: 0 stops the
	// contact point of a sticking impact. (A dissipation index imposes
	// its law on both components alike.)
	Restitution           *float64 `toml:"restitution"`
	TangentialRestitution *float64 `toml:"tangential_restitution"`
	// Cohesion is the tension (N/m) each contact point touching at the
	// start holds before its bond breaks for good (mortar): 0, none.
	Cohesion float64 `toml:"cohesion"`
	// Rolling is the rolling resistance mu_r (m) of a contact where a
	// disk touches: a moment up to mu_r times the normal force against
	// the bodies' relative rotation (rigid.Rule.Rolling); 0, none.
	Rolling float64 `toml:"rolling"`
}

// checkRestitution checks a restitution coefficient: in [0, 1], under the
// shock law, and not beside a dissipation index (which says the same);
// and a tangential one: in [0, 1], beside Newton's restitution only.
func checkRestitution(where string, e, et, delta *float64, law string) error {
	switch {
	case et != nil && e == nil:
		return bad(where, "tangential_restitution", *et, "applies with restitution = e (Newton's); a dissipation index's law is on both components alike")
	case et != nil && !(*et >= 0 && *et <= 1):
		return bad(where, "tangential_restitution", *et, "expected a coefficient in [0, 1] (0: a sticking impact stops the contact point)")
	case e == nil:
		return nil
	case !(*e >= 0 && *e <= 1):
		return bad(where, "restitution", *e, "expected Newton's coefficient in [0, 1] (0: inelastic, 1: elastic)")
	case delta != nil:
		return bad(where, "restitution", *e, "give restitution or dissipation_index, not both: delta = (1 - e)/(1 + e)")
	case law == "signorini":
		return bad(where, "restitution", *e, "applies to the shock law only")
	}
	return nil
}

// tangential is a contact's tangential restitution: nil (the normal
// one's) under a dissipation index, e_T (default 0) under Newton's
// restitution.
func tangential(e, et *float64) *float64 {
	switch {
	case e == nil:
		return nil
	case et != nil:
		return et
	}
	return new(float64)
}

// maxRolling bounds a rolling resistance (m): a length of the order of
// a grain's contact zone, far below this.
const maxRolling = 1e3

// maxCohesion bounds a bond's tension (N/m): a mortar holds some 1e5,
// and far beyond it the change of variables' impulses swamp the problem's
// round-off.
const maxCohesion = 1e12

// restitution is the e of a contact's shock law: restitution as given, or
// that of the dissipation index (default 1: inelastic).
func restitution(delta, e *float64) float64 {
	switch {
	case e != nil:
		return *e
	case delta != nil:
		return rigid.Restitution(*delta)
	}
	return 0
}

func (r *Rigid) check(i int) error {
	where := fmt.Sprintf("rigid body %d", i+1)
	if err := fileName(r.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("rigid body %q", r.Name)
	shapes := 0
	for _, given := range []bool{r.Rectangle != nil, r.Polygon != nil, r.Shape != nil, r.Radius != 0} {
		if given {
			shapes++
		}
	}
	switch {
	case shapes == 0:
		return fmt.Errorf("%s: no shape (radius = 0 is none): give rectangle = [width, height], polygon = [[x, y], ...] or radius > 0, in m", where)
	case shapes != 1:
		return fmt.Errorf("%s: give exactly one shape: rectangle = [width, height], polygon = [[x, y], ...], shape = [[x, y], ...] or radius", where)
	case r.Rectangle != nil && (len(r.Rectangle) != 2 || !size(r.Rectangle[0]) || !size(r.Rectangle[1])):
		return bad(where, "rectangle", r.Rectangle, fmt.Sprintf("expected [width, height], each from %g to %g m", minSize, rigid.MaxCoordinate))
	case r.Radius != 0 && !size(r.Radius):
		return bad(where, "radius", r.Radius, fmt.Sprintf("expected a radius from %g to %g m", minSize, rigid.MaxCoordinate))
	case r.Polygon != nil && r.Position != nil:
		return fmt.Errorf("%s: a polygon's vertices place it: leave position out", where)
	case r.Polygon == nil && (len(r.Position) != 2 || !bounded(r.Position...)):
		return bad(where, "position", r.Position, fmt.Sprintf("expected the centre [x, y] in m, within +-%g", rigid.MaxCoordinate))
	case !bounded(r.Angle):
		return bad(where, "angle", r.Angle, fmt.Sprintf("expected an angle in rad, within +-%g", rigid.MaxCoordinate))
	case (r.Mass != 0 || r.Inertia != 0) && (!positive(r.Mass) || !positive(r.Inertia) || r.Rho != 0):
		return fmt.Errorf("%s: mass = %g, inertia = %g, rho = %g: give rho, or both mass (kg per m) and inertia (kg m^2 per m) positive, not both ways", where, r.Mass, r.Inertia, r.Rho)
	case r.Motion == nil && r.Mass == 0 && !positive(r.Rho):
		return bad(where, "rho", r.Rho, "expected a positive density in kg/m^3, or mass and inertia (a body without mass must be driven: give it a motion)")
	case r.Rho < 0 || !finite(r.Rho):
		return bad(where, "rho", r.Rho, "expected a non-negative density in kg/m^3")
	case r.Velocity != nil && (len(r.Velocity) != 2 || !bounded(r.Velocity...)):
		return bad(where, "velocity", r.Velocity, fmt.Sprintf("expected [vx, vy] in m/s, within +-%g", rigid.MaxCoordinate))
	case !bounded(r.Omega):
		return bad(where, "omega", r.Omega, fmt.Sprintf("expected an angular velocity in rad/s, within +-%g", rigid.MaxCoordinate))
	case r.Gravity != nil && (len(r.Gravity) != 2 || !bounded(r.Gravity...)):
		return bad(where, "gravity", r.Gravity, fmt.Sprintf("expected [gx, gy] in m/s^2, within +-%g", rigid.MaxCoordinate))
	case r.Force != nil && (len(r.Force) != 2 || !bounded(r.Force...)):
		return bad(where, "force", r.Force, fmt.Sprintf("expected [fx, fy] in N per m, within +-%g", rigid.MaxCoordinate))
	case !bounded(r.Moment):
		return bad(where, "moment", r.Moment, fmt.Sprintf("expected a moment in N m per m, within +-%g", rigid.MaxCoordinate))
	case r.Motion != nil && (r.Velocity != nil || r.Omega != 0 || r.Gravity != nil || r.Force != nil || r.Moment != 0 || r.LoadTime != nil):
		return fmt.Errorf("%s: a driven body (motion) takes its velocity from the motion: leave velocity, omega, gravity, force, moment and load_time out", where)
	case r.LoadTime != nil && r.Force == nil && r.Moment == 0:
		return fmt.Errorf("%s: load_time is given without a force or a moment for it to vary: give force = [fx, fy] or moment, or leave load_time out", where)
	}
	if err := r.LoadTime.check(where, "load_time"); err != nil {
		return err
	}
	for k, p := range r.Polygon {
		if len(p) != 2 || !bounded(p...) {
			return bad(where, fmt.Sprintf("polygon[%d]", k+1), p, fmt.Sprintf("expected [x, y] in m, within +-%g", rigid.MaxCoordinate))
		}
	}
	for k, p := range r.Shape {
		if len(p) != 2 || !bounded(p...) {
			return bad(where, fmt.Sprintf("shape[%d]", k+1), p, fmt.Sprintf("expected [x, y] in m about the centre of mass, within +-%g", rigid.MaxCoordinate))
		}
	}
	if r.Surface != "" && (r.Surface != "top" || r.Motion == nil || r.Radius != 0) {
		return bad(where, "surface", fmt.Sprintf("%q", r.Surface), `expected "top", on a driven polygon`)
	}
	if r.Motion != nil {
		return r.Motion.check(where)
	}
	return nil
}

// minSize is the smallest rigid body's extent: below it its area and
// inertia underflow or lose their digits to the position's round-off.
const minSize = 1e-9

// size reports whether x is a body's extent from minSize to
// rigid.MaxCoordinate.
func size(x float64) bool { return x >= minSize && x < rigid.MaxCoordinate }

// bounded reports whether every x is finite and within the coordinates
// rigid bodies can hold (rigid.MaxCoordinate).
func bounded(xs ...float64) bool {
	for _, x := range xs {
		if !(math.Abs(x) < rigid.MaxCoordinate) {
			return false
		}
	}
	return true
}

func (c *RigidContacts) check(groups, obstacles map[string]bool) error {
	if c.Alert < 0 || !finite(c.Alert) {
		return bad("[rigid_contacts]", "alert", c.Alert, "expected a positive alert distance in m")
	}
	for k, r := range c.Rules {
		where := fmt.Sprintf("[[rigid_contacts.rule]] %d", k+1)
		if len(r.Groups) != 2 {
			return bad(where, "groups", fmt.Sprintf("%q", r.Groups), `expected two group names, e.g. ["blocks", "ground"] ("*": every group)`)
		}
		for _, g := range r.Groups {
			if g != "*" && !groups[g] && !obstacles[g] {
				return bad(where, "groups", fmt.Sprintf("%q", r.Groups), fmt.Sprintf("%q is the group of no [[rigid]] body and the name of no [[obstacle]]", g))
			}
		}
		switch {
		case !(r.Mu >= 0 && r.Mu <= contact.MaxMu):
			return bad(where, "mu", r.Mu, muRange)
		case r.MuDynamic != nil && !(*r.MuDynamic >= 0 && *r.MuDynamic <= r.Mu):
			return bad(where, "mu_dynamic", *r.MuDynamic, muDynamicRange(r.Mu))
		case r.Law != "" && r.Law != "shock" && r.Law != "signorini":
			return bad(where, "law", fmt.Sprintf("%q", r.Law), "expected shock or signorini")
		case r.DissipationIndex != nil && !(*r.DissipationIndex >= 0 && *r.DissipationIndex <= 1):
			return bad(where, "dissipation_index", *r.DissipationIndex, "expected a value in [0, 1] (1: inelastic)")
		case r.DissipationIndex != nil && r.Law == "signorini":
			return bad(where, "dissipation_index", *r.DissipationIndex, "applies to the shock law only")
		case !(r.Cohesion >= 0) || r.Cohesion > maxCohesion:
			return bad(where, "cohesion", r.Cohesion, fmt.Sprintf("expected a tension in N/m from 0 (no bond) to %g", maxCohesion))
		case !(r.Rolling >= 0) || r.Rolling > maxRolling:
			return bad(where, "rolling", r.Rolling, fmt.Sprintf("expected a rolling resistance mu_r in m from 0 (none) to %g (a disk of radius R starts rolling on a slope of tan alpha = mu_r / R)", maxRolling))
		}
		if err := checkRestitution(where, r.Restitution, r.TangentialRestitution, r.DissipationIndex, r.Law); err != nil {
			return err
		}
	}
	return nil
}

// checkRigid checks the rigid bodies and their rules; names holds the
// names already taken by deformable bodies (it gets the rigid ones).
func (s *Scene) checkRigid(names map[string]bool) error {
	groups := map[string]bool{}
	for i := range s.Rigid {
		r := &s.Rigid[i]
		if err := r.check(i); err != nil {
			return err
		}
		if names[r.Name] {
			return fmt.Errorf("rigid body %q: the name is taken by another body", r.Name)
		}
		names[r.Name] = true
		groups[r.Group] = true
	}
	for i := range s.Grains {
		if err := s.Grains[i].check(i); err != nil {
			return err
		}
		groups[s.Grains[i].Group] = true
	}
	for i := range s.Walls {
		if err := s.Walls[i].check(i); err != nil {
			return err
		}
		if names[s.Walls[i].Name] {
			return fmt.Errorf("wall %q: the name is taken by another body or wall", s.Walls[i].Name)
		}
		names[s.Walls[i].Name] = true
		groups[s.Walls[i].group()] = true
	}
	for i := range s.Arches {
		if err := s.Arches[i].check(i); err != nil {
			return err
		}
		if names[s.Arches[i].Name] {
			return fmt.Errorf("arch %q: the name is taken by another body, wall or arch", s.Arches[i].Name)
		}
		names[s.Arches[i].Name] = true
		groups[s.Arches[i].group()] = true
	}
	if err := s.Periodic.check(); err != nil {
		return err
	}
	if !s.hasRigid() && (s.RigidContacts.Rules != nil || s.RigidContacts.Alert != 0 || s.Periodic.X != nil) {
		return errors.New("[rigid_contacts] or [periodic] without any [[rigid]] body, [[grains]], [[wall]] or [[arch]]")
	}
	if _, err := s.GapPairs(); err != nil {
		return err
	}
	obstacles := map[string]bool{}
	for _, o := range s.Obstacles {
		obstacles[o.Name] = true
	}
	if err := s.RigidContacts.check(groups, obstacles); err != nil {
		return err
	}
	for k, r := range s.RigidContacts.Rules {
		if r.Rolling > 0 && s.Solver.Method == "newton" {
			return bad(fmt.Sprintf("[[rigid_contacts.rule]] %d", k+1), "rolling", r.Rolling, `Newton's method has no rolling resistance: give [solver] method = "nlgs" or "auto" (which then runs NLGS alone)`)
		}
	}
	return nil
}

// namedObstacles returns the obstacles that a rule names: rigid bodies
// touch those (as driven bodies, rigid.ObstacleBodies), elastic bodies
// the ones their [[contact]] pairs name.
func (s *Scene) namedObstacles() []Obstacle {
	var out []Obstacle
	for _, o := range s.Obstacles {
		for _, r := range s.RigidContacts.Rules {
			if slices.Contains(r.Groups, o.Name) {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// GapPairs returns [output] gaps as pairs of indices of [[rigid]] bodies.
func (s *Scene) GapPairs() ([][2]int, error) {
	index := map[string]int{}
	for i, r := range s.Rigid {
		index[r.Name] = i
	}
	var out [][2]int
	for k, g := range s.Output.Gaps {
		var pair [2]int
		for j, name := range g {
			i, ok := index[name]
			if !ok || len(g) != 2 {
				return nil, bad("[output]", fmt.Sprintf("gaps[%d]", k+1), fmt.Sprintf("%q", g), "expected the names of two [[rigid]] bodies")
			}
			pair[j] = i
		}
		if len(g) != 2 || pair[0] == pair[1] {
			return nil, bad("[output]", fmt.Sprintf("gaps[%d]", k+1), fmt.Sprintf("%q", g), "expected the names of two different [[rigid]] bodies")
		}
		out = append(out, pair)
	}
	return out, nil
}

// hasRigid tells whether the scene has rigid bodies: given one by one,
// or by a builder ([[grains]], [[wall]], [[arch]]).
func (s *Scene) hasRigid() bool {
	return len(s.Rigid)+len(s.Grains)+len(s.Walls)+len(s.Arches) > 0
}

// rigidSystem builds the rigid bodies and their rules.
func (s *Scene) rigidSystem() (*rigid.System, error) {
	if !s.hasRigid() {
		return nil, nil
	}
	var bodies []*rigid.Body
	for i := range s.Rigid {
		b, err := s.Rigid[i].build(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err) // build names the body
		}
		bodies = append(bodies, b)
	}
	built, err := s.builtBodies()
	if err != nil {
		return nil, err
	}
	bodies = append(bodies, built...)
	for _, o := range s.namedObstacles() {
		co, err := o.build(s)
		if err != nil {
			return nil, fmt.Errorf("%s: obstacle %q: %w", s.Name, o.Name, err)
		}
		ob, err := rigid.ObstacleBodies(co)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		bodies = append(bodies, ob...)
	}
	var rules []rigid.Rule
	for _, r := range s.RigidContacts.Rules {
		law, _ := contact.ParseLaw(r.Law)
		if r.Law == "" {
			law = contact.Shock
		}
		rules = append(rules, rigid.Rule{A: r.Groups[0], B: r.Groups[1], Mu: r.Mu, MuDynamic: r.MuDynamic, Law: law, Restitution: restitution(r.DissipationIndex, r.Restitution),
			TangentialRestitution: tangential(r.Restitution, r.TangentialRestitution), Cohesion: r.Cohesion, Rolling: r.Rolling})
	}
	sys, err := rigid.NewSystem(bodies, rules, s.RigidContacts.Alert)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if p := s.Periodic.X; p != nil {
		if err := sys.SetPeriod(p[0], p[1]); err != nil {
			return nil, fmt.Errorf("%s: [periodic]: %w", s.Name, err)
		}
	}
	return sys, nil
}

func (r *Rigid) build(s *Scene) (*rigid.Body, error) {
	var shape rigid.Shape
	var center [2]float64
	var err error
	switch {
	case r.Rectangle != nil:
		shape, err = rigid.Rectangle(r.Rectangle[0], r.Rectangle[1])
		center = [2]float64{r.Position[0], r.Position[1]}
	case r.Polygon != nil:
		shape, center, err = rigid.NewPolygon(points(r.Polygon))
		if err != nil {
			err = fmt.Errorf("polygon: %w", err)
		}
	case r.Shape != nil:
		center = [2]float64{r.Position[0], r.Position[1]}
		if shape, err = rigid.PolygonAbout(points(r.Shape)); err != nil {
			err = fmt.Errorf("shape: %w", err)
		}
	default:
		shape, center = rigid.Disk{R: r.Radius}, [2]float64{r.Position[0], r.Position[1]}
	}
	if err != nil {
		return nil, fmt.Errorf("rigid body %q: %w", r.Name, err)
	}
	b, err := rigid.NewBody(r.Name, shape, center, r.Rho) // its errors name the body
	if err != nil {
		return nil, err
	}
	b.Group, b.Q[2], b.V[2] = r.Group, r.Angle, r.Omega
	if r.Mass != 0 {
		b.Mass, b.Inertia = r.Mass, r.Inertia
	}
	if r.Velocity != nil {
		b.V[0], b.V[1] = r.Velocity[0], r.Velocity[1]
	}
	if r.Gravity != nil {
		b.Gravity = [2]float64{r.Gravity[0], r.Gravity[1]}
	}
	if r.Force != nil {
		b.Force = [2]float64{r.Force[0], r.Force[1]}
	}
	b.Moment = r.Moment
	if b.LoadTime, err = r.LoadTime.build(s, "load_time"); err != nil {
		return nil, fmt.Errorf("rigid body %q: %w", r.Name, err)
	}
	if r.Motion != nil {
		if b.Motion, err = r.Motion.build(s); err != nil {
			return nil, fmt.Errorf("rigid body %q: %w", r.Name, err)
		}
	}
	if r.Surface == "top" {
		b.Surface = []int{topFace(b)}
	}
	return b, nil
}

// points are a table's [x, y] pairs.
func points(xy [][]float64) [][2]float64 {
	out := make([][2]float64, len(xy))
	for k, p := range xy {
		out[k] = [2]float64{p[0], p[1]}
	}
	return out
}

// topFace is the face of a polygon body whose outward normal points most
// upwards in its pose.
func topFace(b *rigid.Body) int {
	vs := b.Vertices(nil)
	best, up := 0, -2.0
	for k, v := range vs {
		w := vs[(k+1)%len(vs)]
		if n := -(w[0] - v[0]) / math.Hypot(w[0]-v[0], w[1]-v[1]); n > up {
			best, up = k, n
		}
	}
	return best
}
