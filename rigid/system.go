package rigid

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
)

// Rule says that bodies of groups A and B touch, with friction coefficient
// Mu and law Law. "" or "*" matches every group.
//
// Restitution applies to the Shock law: it is imposed on U_end + e U_start
// (normal and tangential), the weighted mean velocity of [JM91] section 6
// whose dissipation index is delta = (1 - e)/(1 + e). The zero value is
// delta = 1, inelastic (the pillar of [JM91] section 9); e = 1 is delta =
// 0, which restores the normal velocity of a single collision.
// TangentialRestitution, where set, is the tangential component's own e_T
// instead (Newton's restitution: 0, a sticking impact stops the contact
// point; e on the normal component alone).
type Rule struct {
	A, B                  string
	Mu                    float64
	MuDynamic             *float64 // while sliding (contact.Unit.MuDynamic); nil: Mu throughout
	Law                   contact.Law
	Restitution           float64
	TangentialRestitution *float64
	// Cohesion is the tension (N/m) each unit touching at the run's start
	// holds before it breaks for good (kind.Law.Cohesion); 0: none.
	Cohesion float64
	// Rolling is mu_r (m), the rolling resistance of a contact where a
	// disk touches: a moment up to mu_r times the normal force against
	// the two bodies' relative rotation (kind.Law.Rolling); 0: none. A
	// disk on a plane starts rolling at tan alpha = mu_r / R.
	Rolling float64
}

// Restitution returns the e of dissipation index delta in [0, 1].
func Restitution(delta float64) float64 { return (1 - delta) / (1 + delta) }

// Matches reports whether the rule pairs a body of group a with one of
// group b.
func (r Rule) Matches(a, b string) bool {
	m := func(pat, g string) bool { return pat == "" || pat == "*" || pat == g }
	return (m(r.A, a) && m(r.B, b)) || (m(r.A, b) && m(r.B, a))
}

// Energy is a free body's energy account over the run, per m of
// thickness: Kinetic is its current value, the others accumulate. At theta
// = 1/2 Kinetic - External - Contact stays at its initial value; Numerical
// is the dissipation of theta > 1/2, (theta - 1/2) dv' M dv per step.
type Energy struct {
	Kinetic, External, Numerical, Contact float64
}

// System is a set of rigid bodies, the rules of their contacts and the
// alert distance, stepped by the theta-method (Begin, AddImpulse,
// Finish) inside a simulation that solves their contacts.
type System struct {
	Bodies []*Body

	rules  []Rule     // set and checked by NewSystem (Rules)
	alert  float64    // m (Alert)
	period [2]float64 // set and checked by SetPeriod (Period)

	q0, dq       [][3]float64 // per body: the pose at the start of the step, and its change
	rule         [][]int      // group index pairs -> first matching rule, or -1
	group        []int        // per body: its group's index
	v0, vfree, r [][3]float64
	load         [][3]float64 // each body's force and moment over the step (LoadTime)
	shift        [][3]float64 // impulses whose time in the step moves the position (AddShift)
	energy       []Energy
	h, theta, t  float64
	det          detectWork
}

// Rules are the rules of contact, the first that matches a pair of
// groups applying (a copy: they are fixed by NewSystem).
func (s *System) Rules() []Rule { return append([]Rule(nil), s.rules...) }

// Alert is the distance within which two bodies' features are paired (m):
// NewSystem's, or a tenth of the smallest body's radius when it was zero.
func (s *System) Alert() float64 { return s.alert }

// Period is the periodic cell along x, [Period[0], Period[1]), when
// Period[1] > Period[0] (SetPeriod): a free body whose centre leaves it
// re-enters at the other end with its velocity, and bodies near one end
// touch the images of those near the other (shifted by the period).
func (s *System) Period() [2]float64 { return s.period }

// NewSystem checks the bodies and the rules and records the bodies'
// initial positions, from which driven ones move.
func NewSystem(bodies []*Body, rules []Rule, alert float64) (*System, error) {
	s := &System{Bodies: bodies, rules: ownRules(rules), alert: alert}
	names := map[string]bool{}
	groups := map[string]int{}
	var list []string
	minR := math.Inf(1)
	for _, b := range bodies {
		if err := b.check(); err != nil {
			return nil, err
		}
		if names[b.Name] {
			return nil, fmt.Errorf("rigid body %q: the name is used twice", b.Name)
		}
		names[b.Name] = true
		if b.Driven() {
			off, v := b.Motion.Offset(0), b.Motion.Velocity(0)
			b.start = [2]float64{b.Q[0] - off[0], b.Q[1] - off[1]}
			b.V = [3]float64{v[0], v[1], 0}
		}
		if _, ok := groups[b.Group]; !ok {
			groups[b.Group] = len(list)
			list = append(list, b.Group)
		}
		s.group = append(s.group, groups[b.Group])
		minR = min(minR, b.Shape.Radius())
	}
	for k, r := range rules {
		if !(r.Mu >= 0 && r.Mu <= contact.MaxMu) {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): friction coefficient %g: expected a value in [0, %g] (%g already sticks)", k+1, r.A, r.B, r.Mu, contact.MaxMu, contact.MaxMu)
		}
		if err := contact.CheckDynamic(r.Mu, r.MuDynamic); err != nil {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): %w", k+1, r.A, r.B, err)
		}
		if r.Law != contact.Positional && r.Law != contact.Shock {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): unknown law %d", k+1, r.A, r.B, r.Law)
		}
		if et := r.TangentialRestitution; et != nil && !(*et >= 0 && *et <= 1) {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): tangential restitution %g: expected a value in [0, 1]", k+1, r.A, r.B, *et)
		}
		if !(r.Cohesion >= 0) || math.IsInf(r.Cohesion, 0) {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): cohesion %g N/m: expected a finite tension >= 0", k+1, r.A, r.B, r.Cohesion)
		}
		if !(r.Restitution >= 0 && r.Restitution <= 1) {
			return nil, fmt.Errorf("rigid contact rule %d (%q with %q): restitution %g: expected a value in [0, 1] (a dissipation index in [0, 1])", k+1, r.A, r.B, r.Restitution)
		}
	}
	if s.alert == 0 && len(bodies) > 0 {
		s.alert = minR / 10
	}
	if !(s.alert > 0) || math.IsInf(s.alert, 0) {
		return nil, fmt.Errorf("rigid bodies: alert = %g m: expected a positive, finite distance", s.alert)
	}
	s.rule = make([][]int, len(list))
	for i, a := range list {
		s.rule[i] = make([]int, len(list))
		for j, b := range list {
			s.rule[i][j] = -1
			for k, r := range rules {
				if r.Matches(a, b) {
					s.rule[i][j] = k
					break
				}
			}
		}
	}
	n := len(bodies)
	s.v0, s.vfree, s.r, s.energy = make([][3]float64, n), make([][3]float64, n), make([][3]float64, n), make([]Energy, n)
	s.shift = make([][3]float64, n)
	for i, b := range bodies {
		if !b.Driven() {
			s.energy[i].Kinetic = b.kinetic(b.V)
		}
	}
	return s, nil
}

// SetPeriod makes the cell [x0, x1) periodic along x (see Period). The
// cell must be at least as wide as the largest body (across any direction
// for a free body, along x for a driven one, which does not turn), so that
// the images one period away are all a body can meet (a body never touches
// its own image: a base one period long tiles the line with them).
func (s *System) SetPeriod(x0, x1 float64) error {
	big := 0.0
	for _, b := range s.Bodies {
		w := 2 * b.Shape.Radius()
		if vs := b.Vertices(nil); b.Driven() && len(vs) > 0 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range vs {
				lo, hi = min(lo, v[0]), max(hi, v[0])
			}
			w = hi - lo
		}
		big = max(big, w)
	}
	if !(x1-x0 >= big*(1-1e-12)) || math.IsInf(x1-x0, 0) || math.IsNaN(x0) {
		return fmt.Errorf("rigid bodies: period [%g, %g]: expected a finite cell at least as wide as the largest body (%.3g m across)", x0, x1, big)
	}
	if !(math.Abs(x0) < MaxCoordinate && math.Abs(x1) < MaxCoordinate) {
		return fmt.Errorf("rigid bodies: period [%g, %g]: expected ends within +-%g m, where the bodies can be", x0, x1, MaxCoordinate)
	}
	s.period = [2]float64{x0, x1}
	return nil
}

// RuleOf returns the rule between bodies i and j, or false when they do not
// touch.
func (s *System) RuleOf(i, j int) (Rule, bool) {
	if r := s.ruleOf(i, j); r != nil {
		return *r, true
	}
	return Rule{}, false
}

// ruleOf is RuleOf by pointer, nil where none: the step reads a unit's
// rule twice (its unit, its law), and a Rule's copy, with its stores
// read back at once, cost as much as the rest of the law.
func (s *System) ruleOf(i, j int) *Rule {
	if k := s.rule[s.group[i]][s.group[j]]; k >= 0 {
		return &s.rules[k]
	}
	return nil
}

func (b *Body) kinetic(v [3]float64) float64 {
	return (b.Mass*(v[0]*v[0]+v[1]*v[1]) + b.Inertia*v[2]*v[2]) / 2
}

// Eqs are a free body's equations: x, y, phi.
var freeEqs = []int{0, 1, 2}

// Compliance returns the equations of body i seen by contact and the
// inverse of its mass matrix on them (row-major): none for a driven body.
func (s *System) Compliance(i int) (eqs []int, c []float64) {
	b := s.Bodies[i]
	if b.Driven() {
		return nil, nil
	}
	return freeEqs, []float64{1 / b.Mass, 0, 0, 0, 1 / b.Mass, 0, 0, 0, 1 / b.Inertia}
}

// Begin starts a step of length h from time t: the free velocities, those
// the bodies would have at the end without contact.
func (s *System) Begin(t, h, theta float64) {
	s.t, s.h, s.theta = t, h, theta
	if len(s.q0) != len(s.Bodies) {
		s.q0, s.dq, s.load = make([][3]float64, len(s.Bodies)), make([][3]float64, len(s.Bodies)), make([][3]float64, len(s.Bodies))
	}
	for i, b := range s.Bodies {
		s.rebook(i)
		s.q0[i] = b.Q
		s.v0[i], s.r[i], s.shift[i] = b.V, [3]float64{}, [3]float64{}
		s.vfree[i] = [3]float64{b.V[0] + h*b.Gravity[0], b.V[1] + h*b.Gravity[1], b.V[2]}
		s.load[i] = b.loadOver(t, h, theta)
		if b.loaded() {
			s.vfree[i][0] += h * s.load[i][0] / b.Mass
			s.vfree[i][1] += h * s.load[i][1] / b.Mass
			s.vfree[i][2] += h * s.load[i][2] / b.Inertia
		}
	}
}

// loadOver is the body's force and moment over a step from t: constant,
// or their LoadTime factor theta-weighted over the step's ends.
func (b *Body) loadOver(t, h, theta float64) [3]float64 {
	load := [3]float64{b.Force[0], b.Force[1], b.Moment}
	if b.LoadTime != nil {
		f := theta*b.LoadTime(t+h) + (1-theta)*b.LoadTime(t)
		for k := range load {
			load[k] *= f
		}
	}
	return load
}

// rebook books a velocity the caller set since the last step (or since
// NewSystem) as external work: the kinetic energy it adds or takes is the
// caller's work, and the ledger still closes.
func (s *System) rebook(i int) {
	b, e := s.Bodies[i], &s.energy[i]
	if b.Driven() {
		return
	}
	if k := b.kinetic(b.V); k != e.Kinetic {
		e.External += k - e.Kinetic
		e.Kinetic = k
	}
}

// Velocity returns body i's velocity at the start of the step (nil for a
// driven body, which has no DOFs in the contact problem).
func (s *System) Velocity(i int) []float64 {
	if s.Bodies[i].Driven() {
		return nil
	}
	return s.v0[i][:]
}

// FreeVelocity returns body i's free velocity (nil for a driven body).
func (s *System) FreeVelocity(i int) []float64 {
	if s.Bodies[i].Driven() {
		return nil
	}
	return s.vfree[i][:]
}

// AddImpulse adds a generalised contact impulse (N s, N s, N m s) to body
// i's step.
func (s *System) AddImpulse(i int, r []float64) {
	for k := range r {
		s.r[i][k] += r[k]
	}
}

// AddShift adds to body i's step the impulse r of impacts that came at
// other times in the step than the theta-method assumes (an impact that
// closes a gap inside the step, timestep's arrival): the step's position
// moves by M^-1 r on top of the theta-method's, its velocity not. The
// shift's work against gravity is booked as the body's, and taken from
// its contact work, so that the ledger holds (design.md section 7b).
func (s *System) AddShift(i int, r []float64) {
	for k := range r {
		s.shift[i][k] += r[k]
	}
}

// Impact applies a generalised impulse r to free body i between steps, a
// velocity jump v += M^-1 r (an impact that lasts no time), and books its
// work r . (v- + v+)/2, the change of the kinetic energy, as contact work.
func (s *System) Impact(i int, r []float64) {
	b := s.Bodies[i]
	if b.Driven() {
		return
	}
	m := [3]float64{b.Mass, b.Mass, b.Inertia}
	e := &s.energy[i]
	for k := range r {
		dv := r[k] / m[k]
		e.Contact += r[k] * (b.V[k] + dv/2)
		b.V[k] += dv
	}
	e.Kinetic = b.kinetic(b.V)
}

// Finish ends the step: end velocities v1 = vfree + M^-1 r, positions
// q1 = q0 + h (theta v1 + (1 - theta) v0), and the energy accounts.
func (s *System) Finish() {
	h, th := s.h, s.theta
	for i, b := range s.Bodies {
		if b.Driven() {
			off := b.Motion.Offset(s.t + h)
			b.Q = [3]float64{b.start[0] + off[0], b.start[1] + off[1], b.Q[2]}
			s.dq[i] = [3]float64{b.Q[0] - s.q0[i][0], b.Q[1] - s.q0[i][1]}
			v := b.Motion.Velocity(s.t + h)
			b.V = [3]float64{v[0], v[1], 0}
			continue
		}
		m := [3]float64{b.Mass, b.Mass, b.Inertia}
		v0, e := s.v0[i], &s.energy[i]
		var v1, vt [3]float64
		for k := range 3 {
			v1[k] = s.vfree[i][k] + s.r[i][k]/m[k]
			vt[k] = th*v1[k] + (1-th)*v0[k]
			b.Q[k] += h * vt[k]
			s.dq[i][k] = h * vt[k]
			dv := v1[k] - v0[k]
			e.Numerical += (th - 0.5) * m[k] * dv * dv
			e.Contact += s.r[i][k] * vt[k]
		}
		e.External += h * b.Mass * (b.Gravity[0]*vt[0] + b.Gravity[1]*vt[1])
		load := s.load[i]
		if b.loaded() {
			e.External += h * (load[0]*vt[0] + load[1]*vt[1] + load[2]*vt[2])
		}
		for k := range 3 {
			dq := s.shift[i][k] / m[k]
			b.Q[k] += dq
			s.dq[i][k] += dq
			if k < 2 {
				w := b.Mass * b.Gravity[k] * dq
				e.External += w
				e.Contact -= w
			}
			if w := load[k] * dq; w != 0 {
				e.External += w
				e.Contact -= w
			}
		}
		e.Kinetic = b.kinetic(v1)
		b.V = v1
		if p := s.period; p[1] > p[0] {
			l := p[1] - p[0]
			b.Q[0] -= l * math.Floor((b.Q[0]-p[0])/l)
		}
	}
	s.t += h // the bodies are at the end of the step
}

// Energy returns body i's account (zero for a driven body).
func (s *System) Energy(i int) Energy { return s.energy[i] }

// ownRules copies the rules, each with its own dynamic coefficient: a
// caller's change to the rules it gave, or to the coefficient it pointed
// at, reaches no contact.
func ownRules(rules []Rule) []Rule {
	own := append([]Rule(nil), rules...)
	for k := range own {
		if d := own[k].MuDynamic; d != nil {
			v := *d
			own[k].MuDynamic = &v
		}
		if et := own[k].TangentialRestitution; et != nil {
			v := *et
			own[k].TangentialRestitution = &v
		}
	}
	return own
}

// loaded reports whether a body has a force or a moment besides gravity.
func (b *Body) loaded() bool { return b.Force != [2]float64{} || b.Moment != 0 }
