package scene

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// Variant changes a scene without editing it: every generated rectangle
// gets Refine times as many cells in each direction, and Kind (if set)
// replaces its cell kind.
type Variant struct {
	Refine int    // 0 or 1: as written
	Kind   string // "" keeps the file's kinds
}

// Model is a scene turned into objects: its bodies (spaces, matrices,
// initial state) and contact pairs, before any factorisation.
type Model struct {
	Scene    *Scene
	Bodies   []*fe.Body
	Detector *contact.Detector
	Rigid    *rigid.System    // nil without [[rigid]] bodies
	Points   *discrete.System // nil without [[mass]]es
	// Kinds are the bodies of the registered kinds' tables (Register).
	Kinds []kind.Kind
}

// Model builds the scene's bodies and contact pairs.
//
// The bodies' size is estimated first (see Estimate) and a scene whose
// estimate exceeds MemoryLimit is refused before anything of its size is
// allocated.
func (s *Scene) Model(v Variant) (*Model, error) {
	est, meshes, err := s.estimate(v)
	if err != nil {
		return nil, err
	}
	if err := est.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	m := &Model{Scene: s}
	index := map[string]int{}
	for i := range s.Bodies {
		if meshes[i] == nil {
			if meshes[i], err = s.mesh(&s.Bodies[i], v); err != nil {
				return nil, fmt.Errorf("%s: body %q: %w", s.Name, s.Bodies[i].Name, err)
			}
		}
		b, err := s.body(&s.Bodies[i], meshes[i])
		if err != nil {
			return nil, fmt.Errorf("%s: body %q: %w", s.Name, s.Bodies[i].Name, err)
		}
		index[b.Name] = i
		m.Bodies = append(m.Bodies, b)
	}
	if m.Rigid, err = s.rigidSystem(); err != nil {
		return nil, err
	}
	obstacles := map[string]*contact.Obstacle{}
	for _, o := range s.Obstacles {
		if obstacles[o.Name], err = o.build(s); err != nil {
			return nil, fmt.Errorf("%s: obstacle %q: %w", s.Name, o.Name, err)
		}
	}
	carriers := map[string]*contact.Obstacle{}
	for k, r := range s.Rigid {
		carriers[r.Name] = m.Rigid.Bodies[k].Obstacle()
		carriers[r.Name].Body = len(m.Bodies) + k // as the simulation will number it
	}
	var pairs []*contact.Pair
	for i, c := range s.Contacts {
		p, err := c.build(m.Bodies, index, obstacles, carriers)
		if err != nil {
			return nil, fmt.Errorf("%s: contact %d (%s): %w", s.Name, i+1, c.Name, err)
		}
		pairs = append(pairs, p)
	}
	det, err := contact.NewDetector(pairs...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	m.Detector = det
	if m.Points, err = s.pointSystem(m.Bodies, index, obstacles, carriers); err != nil {
		return nil, err
	}
	if m.Kinds, err = s.buildKinds(); err != nil {
		return nil, err
	}
	return m, nil
}

// Simulation factorises the model's bodies and returns the simulation;
// onProblem (may be nil) is passed on as SimOptions.OnProblem.
func (m *Model) Simulation(onProblem ...func(step int, p *signorini.Problem) error) (*timestep.Simulation, error) {
	s := m.Scene
	order, err := signorini.ParseOrder(s.Solver.Order)
	if err != nil {
		return nil, fmt.Errorf("[solver]: %w", err)
	}
	method, _ := signorini.ParseMethod(s.Solver.Method) // checked with the scene
	// Zero is signorini's default.
	newton := 0
	if n := s.Solver.NewtonIterations; n != nil {
		newton = *n
	}
	change := -1.0
	if s.Solver.ChangeTolerance != nil {
		change = *s.Solver.ChangeTolerance
	}
	opts := timestep.SimOptions{
		H: s.Time.H, Theta: s.Time.Theta, Strict: s.Solver.Strict,
		Solver: signorini.Options{Method: method, NewtonIterations: newton,
			Order: order, Tol: s.Solver.Tolerance, ChangeTol: change, MaxSweeps: s.Solver.MaxSweeps, Omega: s.Solver.Relaxation,
			Measure: map[string]signorini.Measure{"velocity": signorini.VelocityChange}[s.Solver.Measure]},
		Rigid: m.Rigid, Points: m.Points, Kinds: m.Kinds,
	}
	if len(onProblem) > 0 {
		opts.OnProblem = onProblem[0]
	}
	sim, err := timestep.NewSimulation(m.Bodies, m.Detector, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	sim.Stepper.SetModifiedNewton(s.Solver.Newton == "modified")
	return sim, nil
}

func (s *Scene) mesh(b *Body, v Variant) (*mesh.Mesh, error) {
	if b.Gmsh != "" {
		path := b.Gmsh
		if filepath.IsAbs(path) {
			return mesh.ReadGmsh(path)
		}
		if s.Files != nil {
			f, err := s.Files.Open(filepath.ToSlash(filepath.Clean(path)))
			if err != nil {
				return nil, fmt.Errorf("mesh: %w", err)
			}
			defer f.Close()
			return mesh.DecodeGmsh(f, filepath.Join(s.Dir, path))
		}
		return mesh.ReadGmsh(filepath.Join(s.Dir, path))
	}
	r := b.Rectangle
	k, f, err := r.variant(v)
	if err != nil {
		return nil, err
	}
	n := int(f)
	m, err := mesh.Rectangle([2]float64{r.Origin[0], r.Origin[1]}, r.Size[0], r.Size[1], n*r.Cells[0], n*r.Cells[1], k)
	if err != nil {
		return nil, err
	}
	m.Name = b.Name + " " + m.Name
	return m, nil
}

// variant returns the rectangle's cell kind and refinement factor under v.
func (r *Rectangle) variant(v Variant) (mesh.Kind, float64, error) {
	kind := r.Kind
	if v.Kind != "" {
		kind = v.Kind
	}
	k, err := mesh.ParseKind(kind)
	if err != nil {
		return k, 0, fmt.Errorf("rectangle.kind: %w", err)
	}
	return k, float64(max(v.Refine, 1)), nil
}

// Material is the body's material.
func (b *Body) Material() element.Elastic {
	return element.Elastic{E: b.E, Nu: b.Nu, Rho: b.Rho, Thickness: b.Thickness, PlaneStress: b.Plane == "stress"}
}

func (s *Scene) body(b *Body, m *mesh.Mesh) (*fe.Body, error) {
	var fixes []assemble.Fix
	var driven []fe.Driven
	for k, f := range b.Fixed {
		comp, _ := assemble.ParseComp(f.Components)
		fixes = append(fixes, assemble.Fix{Group: f.Group, Comp: comp})
		if f.Motion != nil && f.Motion.Type != "" && f.Motion.Type != "fixed" {
			motion, err := f.Motion.build(s)
			if err != nil {
				return nil, fmt.Errorf("fixed %d: %w", k+1, err)
			}
			driven = append(driven, fe.Driven{Group: f.Group, Comp: comp, Motion: motion})
		}
	}
	if err := heldTwice(m, b.Fixed); err != nil {
		return nil, err
	}
	space, err := assemble.NewSpace(m, fixes...)
	if err != nil {
		return nil, err
	}
	var g [2]float64
	if b.Gravity != nil {
		g = [2]float64{b.Gravity[0], b.Gravity[1]}
	}
	var dil element.Dilatation
	if b.Dilatation == "mean" {
		if c := slices.IndexFunc(m.Cells, func(c mesh.Cell) bool { return c.Kind == mesh.T3 }); c >= 0 {
			return nil, fmt.Errorf(`dilatation = "mean": %s is T3, whose dilatation is one per cell already, so it would still lock: mesh with Q4, Q8 or T6`, m.CellAt(c))
		}
		dil = element.MeanDilatation
	}
	var tractions []fe.Traction
	for k, tr := range b.Traction {
		if _, err := m.EdgeGroup(tr.Group); err != nil {
			return nil, fmt.Errorf("traction %d: group %q: %w: give one of the mesh's edge groups", k+1, tr.Group, err)
		}
		load, err := tr.load(s)
		if err != nil {
			return nil, fmt.Errorf("traction %d: %w", k+1, err)
		}
		tractions = append(tractions, load)
	}
	body, err := fe.NewBody(b.Name, space, b.Material(), fe.BodyOptions{
		Lumped: b.Lumped, Gravity: g, Ramp: b.Ramp, Damping: fe.Rayleigh{Alpha: b.Damping.Alpha, Beta: b.Damping.Beta},
		Law: models[b.Model], Dilatation: dil, Traction: tractions, Driven: driven,
	})
	if err != nil {
		return nil, err
	}
	if b.Velocity != nil {
		v0 := [2]float64{b.Velocity[0], b.Velocity[1]}
		body.SetVelocity(func([2]float64) [2]float64 { return v0 })
	}
	return body, nil
}

// heldTwice refuses a node's component that one fixed entry clamps and
// another drives: which the user meant is not for the program to choose.
func heldTwice(m *mesh.Mesh, fixed []Fixed) error {
	by := map[int]int{} // full DOF index: the entry (from 1) that holds it, negative when it drives
	for k, f := range fixed {
		nodes, err := m.NodeGroup(f.Group)
		if err != nil {
			return fmt.Errorf("fixed %d: %w", k+1, err)
		}
		comp, _ := assemble.ParseComp(f.Components)
		entry := k + 1
		if f.Motion != nil && f.Motion.Type != "" && f.Motion.Type != "fixed" {
			entry = -entry
		}
		for _, n := range nodes {
			for c := range 2 {
				if comp&(assemble.X<<c) == 0 {
					continue
				}
				i := 2*n + c
				if other, ok := by[i]; ok && (other < 0 || entry < 0) && other != entry {
					return fmt.Errorf("node %d's %c is held by fixed %d and fixed %d, and at least one drives it: give each node's component one entry (a group without the shared nodes)", n, "xy"[c], abs(other), abs(entry))
				}
				by[i] = entry
			}
		}
	}
	return nil
}

func abs(k int) int { return max(k, -k) }

func (o Obstacle) build(s *Scene) (*contact.Obstacle, error) {
	out := &contact.Obstacle{Name: o.Name, Radius: o.Radius}
	if o.Center != nil {
		out.Center = [2]float64{o.Center[0], o.Center[1]}
	}
	for _, p := range o.Points {
		out.Points = append(out.Points, [2]float64{p[0], p[1]})
	}
	if t := o.Motion.Type; t != "" && t != "fixed" {
		m, err := o.Motion.build(s)
		if err != nil {
			return nil, err
		}
		out.Motion = m
	}
	return out, nil
}

func (m Motion) build(s *Scene) (contact.Motion, error) {
	switch m.Type {
	case "record":
		return m.record(s)
	case "velocity":
		return contact.ConstantVelocity{V: [2]float64{m.Velocity[0], m.Velocity[1]}}, nil
	case "sine":
		l := math.Hypot(m.Direction[0], m.Direction[1])
		return contact.Sine{Amplitude: m.Amplitude, Period: m.Period, Direction: [2]float64{m.Direction[0] / l, m.Direction[1] / l}}, nil
	}
	return contact.Fixed{}, nil
}

func side(bodies []*fe.Body, index map[string]int, sd Side) (*contact.Side, error) {
	i := index[sd.Body]
	s, err := bodies[i].Side(sd.Group)
	if err == nil {
		s.Body = i // as the simulation will number it: the warnings read it before
	}
	return s, err
}

// build makes the pair; obstacles and carriers are the obstacles by name
// and the rigid bodies' boundaries by the bodies' names.
func (c Contact) build(bodies []*fe.Body, index map[string]int, obstacles, carriers map[string]*contact.Obstacle) (*contact.Pair, error) {
	cand, err := side(bodies, index, c.Candidate)
	if err != nil {
		return nil, fmt.Errorf("candidate: %w", err)
	}
	p := &contact.Pair{Name: c.Name, Candidate: cand, Mu: c.Mu, MuDynamic: c.MuDynamic, Alert: c.Alert, OneWay: c.OneWay, Cohesion: c.Cohesion}
	p.Basis, _ = contact.ParseBasis(c.Basis)
	p.Law, _ = contact.ParseLaw(c.Law)
	if c.Antagonist != nil {
		if p.Antagonist, err = side(bodies, index, *c.Antagonist); err != nil {
			return nil, fmt.Errorf("antagonist: %w", err)
		}
	} else if c.Rigid != "" {
		p.Obstacle = carriers[c.Rigid]
	} else {
		p.Obstacle = obstacles[c.Obstacle]
	}
	return p, p.Check()
}

// Warnings lists what the model can tell before it runs: nodes that start
// inside another body or an obstacle deeper than the alert distance (the
// first step refuses them), bodies whose initial speed carries them
// farther than a pair's alert distance in one step (contact may be
// missed), and contact sides whose Courant number is small (chatter).
func (m *Model) Warnings() []string {
	out := append(slices.Clone(m.Scene.notes), m.speedWarnings()...)
	out = append(out, m.courantWarnings()...)
	out = append(out, m.pointWarnings()...)
	return append(out, m.rigidWarnings()...)
}

// pointWarnings warns of point masses that nothing touches while the
// scene has something to touch (they pass through it), and of springs of
// zero length (isotropic, which a spring along a line is not).
func (m *Model) pointWarnings() []string {
	sys := m.Points
	if sys == nil {
		return nil
	}
	var out []string
	touched := make([]bool, len(sys.Masses))
	for _, c := range sys.Contacts() {
		for _, i := range c.Masses {
			touched[i] = true
		}
	}
	var loose []string
	for i, t := range touched {
		if !t {
			loose = append(loose, fmt.Sprintf("%q", sys.Masses[i].Name))
		}
	}
	something := len(m.Scene.Obstacles) > 0 || len(m.Bodies) > 0 || m.Rigid != nil && len(m.Rigid.Bodies) > 0
	if len(loose) > 0 && something {
		what, verb, it := "point mass", "meets", "it passes"
		if len(loose) > 1 {
			what, verb, it = "point masses", "meet", "they pass"
		}
		out = append(out, fmt.Sprintf("%s %s %s no [[point_contact]]: %s through every obstacle and body (add a [[point_contact]]; without masses = [...] it takes every mass)", what, strings.Join(loose, ", "), verb, it))
	}
	for _, sp := range sys.Springs() {
		if sp.ZeroLength(sys.Masses) {
			out = append(out, fmt.Sprintf("spring %q starts with both ends at one point: it has no line to act along and pulls the same in every direction (stiffness %g N/m per m in x and in y)", sp.Name, sp.K))
		}
	}
	return out
}

// rigidWarnings warns of the rigid bodies' set-ups that run without an
// error and give what the user did not mean: a free body whose initial
// speed carries it farther than the alert distance in a step, a rule that
// an earlier one shadows (the first match wins, so it never applies), and
// groups whose bodies meet no rule (they pass through each other).
func (m *Model) rigidWarnings() []string {
	sys := m.Rigid
	if sys == nil {
		return nil
	}
	var out []string
	h := m.Scene.Time.H
	fast, fastest, most := 0, "", 0.0 // one line for a million fast grains
	for _, b := range sys.Bodies {
		travel := h * (math.Hypot(b.V[0], b.V[1]) + math.Abs(b.V[2])*b.Shape.Radius())
		if !b.Driven() && travel > sys.Alert() {
			fast++
			if travel > most {
				fastest, most = b.Name, travel
			}
		}
	}
	if fast > 0 {
		others := ""
		if fast > 1 {
			others = fmt.Sprintf(" (the fastest of %d rigid bodies that do)", fast)
		}
		out = append(out, fmt.Sprintf("rigid body %q moves %.3g m per step at its initial speed, more than the alert distance %.3g m%s: contact may be missed (use a smaller h or a larger [rigid_contacts] alert)", fastest, most, sys.Alert(), others))
	}
	groups, free, members := rigidGroups(sys)
	rules := sys.Rules()
	for k, r := range rules {
		if j, ok := shadowed(rules, k, groups); ok {
			out = append(out, fmt.Sprintf("[[rigid_contacts.rule]] %d (groups %q and %q) never applies: rule %d (%q and %q) comes first and matches every pair it names (the first match wins): put the more specific rule first", k+1, r.A, r.B, j+1, rules[j].A, rules[j].B))
		}
	}
	var unpaired []string
	for x, a := range groups {
		for _, b := range groups[x:] {
			if !free[a] && !free[b] || a == b && (!free[a] || members[a] < 2) {
				continue // no free body to touch, or none other in its group
			}
			if !slices.ContainsFunc(rules, func(r rigid.Rule) bool { return r.Matches(a, b) }) {
				unpaired = append(unpaired, fmt.Sprintf("%q with %q", a, b))
			}
		}
	}
	if len(unpaired) > 0 {
		out = append(out, fmt.Sprintf("no [[rigid_contacts.rule]] pairs the rigid bodies of groups %s: they pass through each other (add a rule, groups = [\"*\", \"*\"] for all)", strings.Join(unpaired, ", ")))
	}
	return out
}

// rigidGroups lists the rigid bodies' groups in order of first use, which
// have a free body, and how many bodies each has.
func rigidGroups(sys *rigid.System) ([]string, map[string]bool, map[string]int) {
	var groups []string
	free, members := map[string]bool{}, map[string]int{}
	for _, b := range sys.Bodies {
		if !slices.Contains(groups, b.Group) {
			groups = append(groups, b.Group)
		}
		free[b.Group] = free[b.Group] || !b.Driven()
		members[b.Group]++
	}
	return groups, free, members
}

// shadowed reports an earlier rule that matches every pair of groups rule
// k matches, the first such.
func shadowed(rules []rigid.Rule, k int, groups []string) (int, bool) {
	for j := range rules[:k] {
		covers, any := true, false
		for _, a := range groups {
			for _, b := range groups {
				if rules[k].Matches(a, b) {
					any = true
					covers = covers && rules[j].Matches(a, b)
				}
			}
		}
		if any && covers {
			return j, true
		}
	}
	return 0, false
}

// chatterCourant is the Courant number c h / dx of a contact side below
// which its nodes chatter during an impact: a step is then too short for
// the wave to cross a cell, so a node pushed back by its neighbours opens
// again before the next one closes (measured: at 0.06 a bar's contact
// nodes open and re-close 8 times during its impact and identical Q4
// blocks at 20 m/s lose 4.9 % of their speed; 2.1 % without chatter at
// 0.6).
const chatterCourant = 0.1

// courantWarnings warns of each contact side of a body whose Courant
// number c h / dx, c its dilatational (P) wave speed (element.Elastic.
// WaveSpeeds, what info prints) and dx its side's shortest edge, is below
// chatterCourant.
func (m *Model) courantWarnings() []string {
	var out []string
	h := m.Scene.Time.H
	for i, p := range m.Detector.Pairs {
		for _, side := range []*contact.Side{p.Candidate, p.Antagonist} {
			if side == nil {
				continue
			}
			b := m.Bodies[side.Body]
			c, _ := b.Material.WaveSpeeds()
			if !(c > 0) || math.IsInf(c, 0) { // a body of matrices
				continue
			}
			dx := math.Inf(1)
			for _, e := range side.Edges() {
				dx = math.Min(dx, side.Mesh.EdgeLength(e))
			}
			if courant := c * h / dx; courant < chatterCourant {
				out = append(out, fmt.Sprintf("contact %d %q: body %q: c h / dx = %.2g (P-wave speed c = %.3g m/s, side edges from %.3g m, h = %g s): below about %g the contact nodes open and close again during an impact (chatter, a few %% of the rebound speed lost): take h nearer dx/c = %.3g s, or finer cells along the side",
					i+1, p.Name, b.Name, courant, c, dx, h, chatterCourant, dx/c))
			}
		}
	}
	return out
}

// speedWarnings are Warnings' first two kinds.
func (m *Model) speedWarnings() []string {
	var out []string
	for _, o := range m.Detector.Overlaps(contact.Config{}, true) {
		c := m.Scene.Contacts[o.Pair]
		out = append(out, fmt.Sprintf("contact %d %q: a node (at %.4g, %.4g) starts %.3g m inside the other body or obstacle, more than the alert distance: the run will refuse it", o.Pair+1, c.Name, o.X[0], o.X[1], o.Depth))
	}
	for i, p := range m.Detector.Pairs {
		for _, side := range []*contact.Side{p.Candidate, p.Antagonist} {
			if side == nil {
				continue
			}
			b := m.Scene.Bodies[side.Body]
			if b.Velocity == nil {
				continue
			}
			if travel := math.Hypot(b.Velocity[0], b.Velocity[1]) * m.Scene.Time.H; travel > p.Alert {
				out = append(out, fmt.Sprintf("contact %d %q: body %q moves %.3g m per step at its initial speed, more than the alert distance %.3g m: contact may be missed (use a smaller h or a larger alert)", i+1, p.Name, b.Name, travel, p.Alert))
			}
		}
	}
	return out
}
