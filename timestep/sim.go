package timestep

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
)

// DefaultTheta is the theta of a Simulation whose options leave it zero:
// 1/2, the scheme that conserves energy.
const DefaultTheta = 0.5

// SimOptions configure a Simulation. Only H is required: the zero value of
// every other field is the default.
type SimOptions struct {
	H     float64 // time step, s
	Theta float64 // in [1/2, 1]; 0 means DefaultTheta
	// Solver configures NLGS; its Start and Warm are set by the simulation
	// (warm start from the previous step's impulses). Its ChangeTol left
	// zero stops on the residual alone: warm-started impulses of a
	// hyperstatic contact set (a block resting on a floor) drift along the
	// set of solutions and would never meet a bound on their change.
	Solver signorini.Options
	// Strict stops the simulation when NLGS does not converge; otherwise the
	// step goes on with the last iterate and is counted in Unconverged.
	Strict bool
	// OnProblem, if set, sees every contact problem a step solves, before
	// it is solved (to export it, say): the first, the one solved again
	// about the predicted end configuration, those of a hyperelastic
	// body's Newton updates. The last a step shows is the one whose
	// solution the step applied. It must not keep or change it.
	OnProblem func(step int, p *signorini.Problem) error
	// Rigid holds the rigid bodies stepped with the elastic ones, nil for
	// none. In the velocity vectors and in contact.Entry.Body their
	// indices follow the elastic bodies': rigid body k is body
	// len(bodies) + k.
	Rigid *rigid.System
	// Points holds the point masses and springs stepped with the others,
	// nil for none; its components (masses that springs join) are bodies
	// after the rigid ones.
	Points *discrete.System
}

// StepStats describes one step.
type StepStats struct {
	Step               int
	Time               float64
	Units              int // contact units detected (within the alert distance)
	Open, Stick, Slide int
	Sweeps             int     // NLGS's sweeps of the step's contact solves
	ContactNewton      int     // Newton's iterations of the step's contact solves (signorini.Solve)
	Residual           float64 // the natural-map residual of the solve applied (and of an impact at the step's start), relative (signorini.Residual)
	Converged          bool
	// Complementarity is the step's complementarity gap, J (per m of
	// thickness for plane bodies): sum over the units of |P_N (U_N + s)| +
	// |P_T U_T + mu P_N |U_T||, the velocities those of the solve (W P +
	// q), 0 exactly where the laws hold; ComplementarityRel is it over
	// sum |P| (|U| + |q|), the scale of the step's contact power.
	Complementarity, ComplementarityRel float64
	// ConeViolation is the largest violation of the Coulomb cone by an
	// applied impulse, max(0, -P_N, |P_T| - mu P_N), over the largest
	// impulse: 0 but for round-off.
	ConeViolation float64
	// An impact resolved at the step's start (impactOn) that missed its
	// tolerance, and its residual: the step's certificate takes them in.
	impactUnconverged bool
	impactResidual    float64
	MinGap            float64 // smallest gap of a candidate node at the start of the step (negative: penetration)
	NormalWork        float64 // sum of P_N U_N,theta this step (the loss of the contact law, <= 0)
	PushOutWork       float64 // the same for units found penetrated, which the law pushes out
	FrictionWork      float64 // sum of P_T U_T,theta this step (<= 0)
	ObstacleWork      float64 // work of moving obstacles on the bodies this step
	Corrected         int     // times the contact problem was solved again about the predicted end configuration
	Newton            int     // contact solves after the first on a hyperelastic body's new Newton tangent
	NewtonIterations  int     // the most Newton iterations of a hyperelastic body; 0 without one
	Factorisations    int     // of the hyperelastic bodies' tangents (one per iteration, fewer under modified Newton)

	// Deepest is the deepest node of any pair's sides (either side of a
	// pair of bodies) inside the other body or the obstacle at the start of
	// the step (Depth 0: none; contact.Detector.Deepest): the penetration
	// the units' linearised gaps do not show, such as a node that entered
	// through a face no unit held it against. Rigid bodies' contacts are
	// not measured.
	Deepest contact.Overlap
}

// ContactState is one unit's state after a step, for output.
type ContactState struct {
	Key     contact.Key
	X       [2]float64 // position of the unit's node at the start of the step
	N, T    [2]float64
	Impulse [2]float64 // P = (P_N, P_T), Pa s (an impulse density)
	// Velocity is the local velocity the law holds on: (U_N + s, U_T),
	// U = W P + q of the solve applied, s the law's shift (m/s); P x U
	// is the unit's complementarity (StepStats.Complementarity).
	Velocity [2]float64
	Mu       float64 // the unit's friction coefficient
	Gap      float64 // weighted gap / weight: the mean gap, m
	Weight   float64 // sum of the unit's P_ij, m^2: Impulse x Weight is in N s
	Status   signorini.Status
	// Body is the index of the body the unit's node belongs to, which its
	// force acts on: finite-element bodies in order, then rigid bodies.
	Body int
	// Reverse marks a unit of an antagonist's node on the candidate's
	// edges (the second pass of a pair).
	Reverse bool

	thickness float64 // m, that the impulse density is spread over (Force)
}

// Simulation runs bodies with contact: each step detection, free velocity,
// Delassus operator from the bodies' compliances, NLGS with warm start,
// end velocities and positions.
type Simulation struct {
	Stepper  *Stepper
	Detector *contact.Detector // without pairs when only rigid bodies touch
	Rigid    *rigid.System     // nil without rigid bodies
	Points   *discrete.System  // nil without point masses
	opt      SimOptions

	families []family       // the kinds of body, in the order of the global body index
	sources  []source       // where units come from: the pairs first, then the rigid bodies
	paired   int            // the last step's units of the pairs, the first of s.contacts
	pointed  [2]int         // the range of s.contacts of the point masses' units
	base     []int          // each family's first global body index
	at       placement      // the contact configuration of the step's start, or its predicted end
	prev     contact.Config // the last step's start, a copy, for the swept tunnelling check
	turned   map[*Body]bool // linear bodies RotationWarnings has warned of
	r        [][]float64    // the bodies' generalised impulses of the step
	shift    [][]float64    // their parts that move the positions (arrival.go)
	delassus *Delassus
	warm     map[unitID]warmStart
	contacts []ContactState
	work     stepWork
	// Cumulative works of contact (see StepStats) and the count of steps
	// whose NLGS did not converge.
	NormalWork, FrictionWork, ObstacleWork, PushOutWork float64
	Unconverged                                         int
	// InitialPenetration is the largest depth found at the first step (m):
	// bodies that start interpenetrated are pushed apart (PushOutWork).
	InitialPenetration float64
}

// stepWork is the storage of a step that the next one reuses.
type stepWork struct {
	v0, vfree, v1      [][]float64
	q, mu, shift, warm []float64
	u0, rigid1         [][2]float64
	active, push       []bool
	// The units that arrive inside the step (arrival.go): their shift
	// coefficient h (1 - theta) - tau, their free relative acceleration
	// and that of the bodies alone (obstacles' left out); those that
	// arrive in the next step (soon).
	arrive, soon  []bool
	noArrival     bool // the step resolves no impact inside itself (shiftsPush)
	corr          []float64
	acc, accBody  [][2]float64
	sh, dsh       []float64 // the impacts' shift impulses and what they move the units by
	uf            []float64 // the units' free normal velocities at the step's end
	prob          signorini.Problem
	res           signorini.Result
	vpred         [][]float64
	from, endFrom []int // the sources' units' ranges at the start and at the predicted end
	step          step  // what the phases of the step hand on
	// The impacts at a step's start (impactNow): their units and
	// restitutions, the bodies' mass compliances as far as fetched, and
	// the builder of W on them.
	impactUnits []contact.Unit
	impactE     []float64
	impactShift []float64
	mcomp       []Compliance
	mhave       []bool
	md          *Delassus
}

// unitID is a unit's identity across steps (source.id).
type unitID struct {
	kind            unitKind
	pair, node      int
	reverse, valley bool
	a, b            int
}

// unitKind keeps apart the identities of different sources' units.
type unitKind uint8

const (
	pairUnits unitKind = iota
	rigidUnits
	pointUnits
)

// NewSimulation takes every node of the detector's sides as a contact node
// of its body (whatever Body.ContactNodes says, which it leaves as it is),
// then factorises the bodies (NewStepper). What it is given is the
// simulation's from then on: it steps the bodies, the rigid system and
// the point masses, and prepares the point masses for its step
// (discrete.System.Prepare); a state set after it (a velocity) is not in
// the energy ledger's start. Each side names its body (Body.Side,
// contact.NewSide). det may be nil (rigid bodies only, opt.Rigid); an
// obstacle that a rigid body carries must name one of them (index
// len(bodies) + k).
func NewSimulation(bodies []*Body, det *contact.Detector, opt SimOptions) (*Simulation, error) {
	opt = opt.withDefaults()
	if det == nil {
		det = &contact.Detector{}
	}
	bs := boundaries(det, opt.Points)
	nodes, err := contactNodes(bodies, bs)
	if err != nil {
		return nil, err
	}
	st, err := newStepper(opt.H, opt.Theta, bodies, nodes)
	if err != nil {
		return nil, err
	}
	st.inSimulation = true
	s := &Simulation{Stepper: st, Detector: det, Rigid: opt.Rigid, Points: opt.Points, opt: opt, warm: map[unitID]warmStart{}, turned: map[*Body]bool{}}
	points, err := newPointFamily(opt.Points, opt.H, opt.Theta)
	if err != nil {
		return nil, err
	}
	s.families = []family{&feFamily{st: st}, rigidFamily{opt.Rigid}, points}
	comps := s.number()
	s.sources = []source{&pairSource{det: det, driven: s.at.driven}, rigidSource{opt.Rigid, s.base[1]}, pointSource{opt.Points, s.base[2], s.at.driven}}
	if err := s.checkCarriers(bs); err != nil {
		return nil, err
	}
	if s.delassus, err = NewDelassus(comps...); err != nil {
		return nil, err
	}
	return s, nil
}

func (o SimOptions) withDefaults() SimOptions {
	if o.Theta == 0 {
		o.Theta = DefaultTheta
	}
	if o.Solver.ChangeTol == 0 {
		o.Solver.ChangeTol = -1
	}
	return o
}

// boundary is what one contact pair, or one point contact, puts in touch:
// finite-element sides and an obstacle, named for messages; thickness is
// that of what touches a carried obstacle (a pair's candidate; 1 for
// masses).
type boundary struct {
	what      string
	sides     []*contact.Side
	obstacle  *contact.Obstacle
	thickness float64
}

// boundaries lists the pairs' and the point masses' boundaries.
func boundaries(det *contact.Detector, points *discrete.System) []boundary {
	var bs []boundary
	for _, p := range det.Pairs {
		b := boundary{what: fmt.Sprintf("contact pair %q", p.Name), sides: []*contact.Side{p.Candidate}, obstacle: p.Obstacle, thickness: p.Candidate.Thickness()}
		if p.Antagonist != nil {
			b.sides = append(b.sides, p.Antagonist)
		}
		bs = append(bs, b)
	}
	if points != nil {
		for _, c := range points.Contacts() {
			b := boundary{what: fmt.Sprintf("point contact %q", c.Name), obstacle: c.Obstacle, thickness: 1}
			if c.Side != nil {
				b.sides = []*contact.Side{c.Side}
			}
			bs = append(bs, b)
		}
	}
	return bs
}

// contactNodes checks that each side belongs to the body it names and
// collects, per body, the nodes of its sides.
func contactNodes(bodies []*Body, bs []boundary) ([][]int, error) {
	seen, nodes := make([]map[int]bool, len(bodies)), make([][]int, len(bodies))
	for i := range seen {
		seen[i] = map[int]bool{}
	}
	for _, b := range bs {
		for _, side := range b.sides {
			i := side.Body
			if i < 0 || i >= len(bodies) || bodies[i].Space.Mesh != side.Mesh || bodies[i].Space.DOFs != side.DOFs {
				return nil, fmt.Errorf("simulation: %s: side %q names body %d, %s", b.what, side.Group, i, owner(bodies, side))
			}
			for _, n := range side.AllNodes() {
				if !seen[i][n] {
					seen[i][n] = true
					nodes[i] = append(nodes[i], n)
				}
			}
		}
	}
	return nodes, nil
}

// owner says which of the bodies a side that names the wrong one belongs to.
func owner(bodies []*Body, side *contact.Side) string {
	for i, b := range bodies {
		if b.Space.Mesh == side.Mesh && b.Space.DOFs == side.DOFs {
			return fmt.Sprintf("but it is an edge group of body %d %q: give that index (Body.Side, contact.NewSide)", i, b.Name)
		}
	}
	return "but it belongs to none of the simulation's " + plural.N(len(bodies), "body", "bodies")
}

// number gives the families' bodies their global indices (s.base), their
// impulse storage and their places in the contact configuration, and
// returns their compliances in that order.
func (s *Simulation) number() []Compliance {
	var comps []Compliance
	for _, f := range s.families {
		s.base = append(s.base, len(s.r))
		for k := range f.len() {
			comps = append(comps, f.compliance(k))
			s.r = append(s.r, make([]float64, f.dofs(k)))
			s.shift = append(s.shift, make([]float64, f.dofs(k)))
			s.at.driven = append(s.at.driven, f.motion(k))
		}
	}
	s.at.disp, s.at.poses = make([][]float64, len(s.r)), make([][3]float64, len(s.r))
	return comps
}

// checkCarriers checks the obstacles that a body carries: the body must
// be one with poses (a rigid body, index len(bodies) + k), and what
// touches it 1 m thick, since rigid bodies' masses are per m of thickness.
func (s *Simulation) checkCarriers(bs []boundary) error {
	for _, b := range bs {
		o := b.obstacle
		if o == nil || !o.Carried {
			continue
		}
		f, k := s.family(o.Body)
		if o.Body >= len(s.r) || !f.carries() {
			return fmt.Errorf("simulation: %s: obstacle %q is carried by body %d, which is not a rigid body: of the simulation's %s, %s", b.what, o.Name, o.Body, plural.N(len(s.r), "body", "bodies"), s.carriers())
		}
		if t := b.thickness; t != 1 {
			return fmt.Errorf("simulation: %s: the candidate is %g m thick: against rigid body %q it must be 1 m thick (rigid bodies' masses and impulses are per m of thickness)", b.what, t, f.name(k))
		}
	}
	return nil
}

// TotalEnergy sums the accounts of every body.
func (s *Simulation) TotalEnergy() Energy {
	var e Energy
	for _, f := range s.families {
		e = f.energy(e)
	}
	return e
}

// carriers says which global body indices carry obstacles.
func (s *Simulation) carriers() string {
	var ranges []string
	for fi, f := range s.families {
		if n := f.len(); n > 0 && f.carries() {
			ranges = append(ranges, fmt.Sprintf("%d to %d", s.base[fi], s.base[fi]+n-1))
		}
	}
	if len(ranges) == 0 {
		return "none is rigid"
	}
	return "the rigid ones are " + strings.Join(ranges, ", ")
}

// Contacts returns the units of the last step with their impulses.
func (s *Simulation) Contacts() []ContactState { return s.contacts }

// StartContacts sets Contacts, before the first step, to the units found
// in the initial configuration, with no impulse: what a first output frame
// shows (the first step starts from the same detection). After the first
// step it does nothing.
func (s *Simulation) StartContacts() error {
	if s.Stepper.Steps() > 0 {
		return nil
	}
	s.placeAll()
	cfg := s.at.config(s.Stepper.Time())
	s.contacts = s.contacts[:0]
	for _, src := range s.sources {
		units, _, err := src.detect(cfg)
		if err != nil {
			return fmt.Errorf("the contacts at the start: %w", err)
		}
		for _, u := range units {
			s.contacts = append(s.contacts, ContactState{Key: u.Key, X: u.X, N: u.N, T: u.T, Gap: u.Gap / u.Weight, Weight: u.Weight, Mu: u.Mu,
				Body: src.body(u.Key), Reverse: src.reverse(u.Key), thickness: src.thickness(u.Key)})
		}
	}
	return nil
}

// Force returns the force of a unit of the last step on the body of its
// node (impulse / h, in N per m of thickness: the impulse density times the
// unit's weight, over h and over the candidate's thickness; rigid bodies'
// impulses are per m already).
func (s *Simulation) Force(c ContactState) [2]float64 {
	scale := c.Weight / s.Stepper.H() / c.thickness
	return [2]float64{scale * (c.Impulse[0]*c.N[0] + c.Impulse[1]*c.T[0]), scale * (c.Impulse[0]*c.N[1] + c.Impulse[1]*c.T[1])}
}

// PairForces returns, per contact pair of the detector, the resultant
// force of the last step's contact impulses on the pair's candidate body
// (impulse / h, in N per m of the candidate's thickness) and the number of
// its closed units (P_N > 0). A reverse unit (an antagonist node on the
// candidate's edges) acts on the antagonist: it counts with the opposite
// sign. Rigid bodies' contacts belong to no pair.
func (s *Simulation) PairForces() (force [][2]float64, closed []int) {
	pairs := s.Detector.Pairs
	force, closed = make([][2]float64, len(pairs)), make([]int, len(pairs))
	for _, c := range s.contacts[:s.paired] {
		if c.Impulse[0] <= 0 {
			continue
		}
		f, sign := s.Force(c), 1.0
		if c.Key.Reverse {
			sign = -1
		}
		for k := range 2 {
			force[c.Key.Pair][k] += sign * f[k]
		}
		closed[c.Key.Pair]++
	}
	return force, closed
}

// PointForces returns, per point contact of the point masses
// (discrete.System.Contacts), the resultant force of the last step's
// contact impulses on its masses (impulse / h, N per m) and the number of
// its closed units.
func (s *Simulation) PointForces() (force [][2]float64, closed []int) {
	if s.Points == nil {
		return nil, nil
	}
	n := len(s.Points.Contacts())
	force, closed = make([][2]float64, n), make([]int, n)
	for _, c := range s.contacts[s.pointed[0]:s.pointed[1]] {
		if c.Impulse[0] <= 0 {
			continue
		}
		f := s.Force(c)
		force[c.Key.Pair][0] += f[0]
		force[c.Key.Pair][1] += f[1]
		closed[c.Key.Pair]++
	}
	return force, closed
}

// Describe names a node found inside the other body or the obstacle (a
// StepStats.Deepest): its pair, body and position, and its depth.
func (s *Simulation) Describe(o contact.Overlap) string {
	p := s.Detector.Pairs[o.Pair]
	side, other := p.Candidate, p.Antagonist
	if o.Reverse {
		side, other = other, side
	}
	var inside string
	if other != nil {
		inside = fmt.Sprintf("body %q", s.Stepper.Body(other.Body).Name)
	} else {
		inside = fmt.Sprintf("obstacle %q", p.Obstacle.Name)
	}
	pair := fmt.Sprintf("contact pair %d", o.Pair+1)
	if p.Name != "" {
		pair += fmt.Sprintf(" %q", p.Name)
	}
	return fmt.Sprintf("%s: node %d of body %q, at (%.6g, %.6g), is %.3g m inside %s",
		pair, o.Node, s.Stepper.Body(side.Body).Name, o.X[0], o.X[1], o.Depth, inside)
}

// overlapError describes a node found inside the other body deeper than
// the alert distance: at the start, or after step done steps.
func (s *Simulation) overlapError(o contact.Overlap, done int) error {
	p := s.Detector.Pairs[o.Pair]
	what := fmt.Sprintf("%s, deeper than the alert distance %.3g m, where detection cannot see it", s.Describe(o), p.Alert)
	if done == 0 {
		fix := "move the bodies apart"
		if p.Obstacle != nil && p.Obstacle.Radius == 0 {
			fix = "move the body out of the obstacle, or list the polyline's points the other way round (the obstacle is on their right)"
		}
		return fmt.Errorf("at the start: %s: %s", what, fix)
	}
	return fmt.Errorf("after step %d (t = %.6g s): %s: the contact was missed, the body moved farther than the alert distance in a step (tunnelling): use a smaller h or a larger alert", done, s.Stepper.Time(), what)
}

// sweptError describes a node that went through the other body or the
// obstacle during step done and ended outside it (contact.Detector.Swept).
func (s *Simulation) sweptError(o contact.Overlap, done int) error {
	return fmt.Errorf("during step %d (to t = %.6g s): %s on its way, deeper than the alert distance %.3g m, and ended outside it: the body went through the other in one step (tunnelling): use a smaller h or a larger alert",
		done, s.Stepper.Time(), s.Describe(o), s.Detector.Pairs[o.Pair].Alert)
}

// keep copies cfg into s.prev, reusing its storage.
func (s *Simulation) keep(cfg contact.Config) {
	s.prev.Time = cfg.Time
	if len(s.prev.Disp) != len(cfg.Disp) {
		s.prev.Disp = make([][]float64, len(cfg.Disp))
	}
	for i, u := range cfg.Disp {
		s.prev.Disp[i] = append(s.prev.Disp[i][:0], u...)
	}
	s.prev.Poses = append(s.prev.Poses[:0], cfg.Poses...)
}

// Step advances the simulation by one step.
//
// The contact problem is linearised about the configuration at the start
// of the step. When the configuration that solution predicts at the end of
// the step has a unit deeper than predictTol of its length (a point sliding
// over a curved or kinked surface, where the linearised gap lags), the
// problem is detected and linearised again about that predicted end
// configuration and solved once more, warm-started: one fixed-point
// iteration on the geometry, so that curvature does not leave penetrations
// that a law which never creates energy could not push out again.
func (s *Simulation) Step() (StepStats, error) {
	k := &s.work.step
	*k = step{t: s.Stepper.Time(), h: s.Stepper.H(), th: s.Stepper.Theta()}
	k.stats = StepStats{Step: s.Stepper.Steps() + 1, Time: k.t + k.h, MinGap: math.Inf(1)}
	for _, phase := range []func(*step) error{
		s.place,       // the configuration at the start, checked for overlaps and tunnelling
		s.detect,      // the contact units of the elastic and the rigid bodies
		s.impactFirst, // bodies that start touching while approaching
		s.free,        // the bodies' free velocities over the step
		s.impactNow,   // rigid bodies and free masses that touch while approaching
		s.contact,     // the contact impulses, corrected about the predicted end
		s.advance,     // the bodies' end state (Newton's updates re-solve contact)
	} {
		if err := phase(k); err != nil {
			return k.stats, err
		}
	}
	k.stats.Units = len(k.units)
	k.stats.NewtonIterations, k.stats.Factorisations = s.Stepper.Newton(), s.Stepper.Factorisations()
	s.record(k.units, k.res, k.u0, k.rigid1, k.active, k.push, k.th, &k.stats)
	return k.stats, nil
}

// step is what the phases of one Step hand on to each other.
type step struct {
	t, h, th   float64
	cfg        contact.Config
	units      []contact.Unit // every unit, each source's together, sources in order
	from       []int          // where each source's units start in units, and their end
	v0, vfree  [][]float64    // velocities at the start and free, as contact.Entry.Body indexes them
	vpred      [][]float64    // the predicted end velocities the problem was built on, if any
	prob       *signorini.Problem
	u0, rigid1 [][2]float64
	active     []bool
	push       []bool
	res        *signorini.Result
	stats      StepStats
}

// place expands the bodies' displacements and poses into the start
// configuration, refuses a node deeper than the alert distance or one that
// tunnelled through a boundary since the last step, and notes the deepest.
func (s *Simulation) place(k *step) error {
	st := s.Stepper
	s.placeAll()
	k.cfg = s.at.config(k.t)
	deep := s.Detector.Deepest(k.cfg, st.Steps() == 0)
	if ov := s.Detector.Missed(deep); len(ov) > 0 {
		return s.overlapError(ov[0], st.Steps())
	}
	if st.Steps() > 0 {
		if ov := s.Detector.Swept(s.prev, k.cfg); len(ov) > 0 {
			return s.sweptError(ov[0], st.Steps())
		}
	}
	s.keep(k.cfg)
	for _, o := range deep {
		if o.Depth > k.stats.Deepest.Depth {
			k.stats.Deepest = o
		}
	}
	return nil
}

// detect finds the units of every source.
func (s *Simulation) detect(k *step) error {
	k.from = append(s.work.from[:0], 0)
	for j, src := range s.sources {
		units, minGap, err := src.detect(k.cfg)
		if err != nil {
			return fmt.Errorf("step %d (t = %g): %w", k.stats.Step, k.t, err)
		}
		// The first source's storage (the Detector's, kept until its
		// next detection but one) holds them all, as it has room.
		if j == 0 {
			k.units = units
		} else {
			k.units = append(k.units, units...)
		}
		k.from = append(k.from, len(k.units))
		k.stats.MinGap = min(k.stats.MinGap, minGap)
	}
	s.work.from = k.from
	k.stats.Units = len(k.units)
	if k.stats.Step == 1 {
		s.InitialPenetration = max(0, -k.stats.MinGap)
	}
	return nil
}

// impactFirst applies the impact of bodies that touch at t = 0 while
// approaching (impact.go).
func (s *Simulation) impactFirst(k *step) error {
	if s.Stepper.Steps() > 0 || len(k.units) == 0 {
		return nil
	}
	return s.startImpact(k.units, k.t, k.h, k.th, &k.stats)
}

// free starts the step of every body: its velocity at the start and its
// free velocity.
func (s *Simulation) free(k *step) error {
	var err error
	k.v0, k.vfree, err = s.begin(k.t, k.h, k.th)
	return err
}

// contact builds and solves the contact problem and, when the end it
// predicts is too deep somewhere, detects there and solves again.
func (s *Simulation) contact(k *step) error {
	if err := s.pose(k); err != nil || len(k.units) == 0 {
		return err
	}
	if err := s.solveApply(k); err != nil {
		return err
	}
	if s.shiftsPush(k) { // the impacts inside the step as the theta-method's (arrival.go)
		s.work.noArrival = true
		err := s.resolve(k)
		s.work.noArrival = false
		if err != nil {
			return err
		}
	}
	for range maxCorrections {
		vp := s.predict(k.vfree, k.h, k.th)
		units, from, deep, err := s.atEnd(k)
		if err != nil || !deep {
			return err
		}
		k.stats.Corrected++
		k.units, k.from, k.vpred = units, from, vp
		if err := s.resolve(k); err != nil {
			return err
		}
	}
	return nil
}

// atEnd asks every source for its units at the predicted end
// configuration, and whether one is too deep there.
func (s *Simulation) atEnd(k *step) (units []contact.Unit, from []int, deep bool, err error) {
	cfg := s.at.config(s.Stepper.endTime())
	from = append(s.work.endFrom[:0], 0)
	for j, src := range s.sources {
		u, d, err := src.atEnd(cfg, k.units[k.from[j]:k.from[j+1]], k.t)
		if err != nil {
			return nil, nil, false, err
		}
		if j == 0 {
			units = u
		} else {
			units = append(units, u...)
		}
		from, deep = append(from, len(units)), deep || d
	}
	// The ranges the step goes on with are the start's storage from now
	// on, and the old start's the next correction's.
	s.work.from, s.work.endFrom = from, s.work.from
	return units, from, deep, nil
}

// sourceOf is the source of unit a of the step.
func (s *Simulation) sourceOf(a int) source {
	from := s.work.step.from
	j := 0
	for from[j+1] <= a {
		j++
	}
	return s.sources[j]
}

// pose builds the contact problem of the step's units.
func (s *Simulation) pose(k *step) error {
	var err error
	k.prob, k.u0, k.rigid1, k.active, k.push, err = s.problem(k.units, k.v0, k.vfree, k.vpred, k.t, k.h, k.th)
	return err
}

// solveApply solves the posed problem and turns its impulses into the
// bodies' generalised impulses.
func (s *Simulation) solveApply(k *step) error {
	var err error
	if k.res, err = s.solve(k.prob, k.units, &k.stats); err != nil {
		return err
	}
	s.impulses(k.units, k.res, k.active)
	return nil
}

// resolve builds the contact problem again (new units, or a new Newton
// tangent) and solves it.
func (s *Simulation) resolve(k *step) error {
	if err := s.pose(k); err != nil {
		return err
	}
	return s.solveApply(k)
}

// advance ends the step of every body under the contact impulses. While
// a body asks for it (a hyperelastic body's Newton update, newton.go), the
// contact problem is solved again on its new tangent.
func (s *Simulation) advance(k *step) error {
	loaded := len(k.units) > 0
	for {
		done := true
		for fi, f := range s.families {
			d, err := f.advance(s.impulsesOf(fi), loaded)
			if err != nil {
				return err
			}
			done = done && d
		}
		if done {
			break
		}
		k.stats.Newton++
		if loaded {
			if err := s.resolve(k); err != nil {
				return err
			}
		}
	}
	for fi, f := range s.families {
		b := s.base[fi]
		if err := f.finish(s.impulsesOf(fi), s.shift[b:b+f.len()], loaded, k.stats.Step); err != nil {
			return err
		}
	}
	return nil
}

// impulsesOf is family fi's part of the generalised impulses s.r.
func (s *Simulation) impulsesOf(fi int) [][]float64 {
	b := s.base[fi]
	return s.r[b : b+s.families[fi].len()]
}

// begin starts the step of every body and returns their velocities at
// the start and their free velocities, indexed like contact.Entry.Body.
func (s *Simulation) begin(t, h, th float64) (v0, vfree [][]float64, err error) {
	w := &s.work
	w.v0, w.vfree = reuse.Zeroed(w.v0, len(s.r)), reuse.Zeroed(w.vfree, len(s.r))
	for fi, f := range s.families {
		if err := f.begin(t, h, th); err != nil {
			return nil, nil, err
		}
		for k := range f.len() {
			i := s.base[fi] + k
			w.v0[i], w.vfree[i] = f.start(k)
		}
	}
	return w.v0, w.vfree, nil
}

// maxCorrections bounds the solves about predicted end configurations.
// One is enough where the geometry is smooth; more chatter between frames
// where it is not (measured on the colliding blocks at refine 4: 20 um of
// penetration with one, 222 um with three).
const maxCorrections = 1

// predictTol is the depth, relative to a unit's length, beyond which the
// end configuration predicted by the first solve triggers the second.
const predictTol = 1e-4

// impulses sets s.r to the bodies' generalised impulses of the units,
// and s.shift to those of the units that arrive inside the step times
// their shift coefficients (arrival.go).
func (s *Simulation) impulses(units []contact.Unit, res *signorini.Result, active []bool) {
	for i := range s.r {
		clear(s.r[i])
		clear(s.shift[i])
	}
	for a := range units {
		if active[a] {
			P := [2]float64{res.R[2*a], res.R[2*a+1]}
			units[a].AddImpulse(s.r, P)
			if s.work.arrive[a] {
				c := s.work.corr[a]
				units[a].AddImpulse(s.shift, [2]float64{c * P[0], c * P[1]})
			}
		}
	}
}

// NodeDepths returns, per elastic body and node, how deep the node lies
// inside the other body or the obstacle of a contact pair whose side it is
// on, in the current configuration (0 outside, and for nodes of no side):
// the measure of StepStats.Deepest, node by node, for output. dst is
// reused when it has the shape.
func (s *Simulation) NodeDepths(dst [][]float64) [][]float64 {
	st := s.Stepper
	if len(dst) != st.NumBodies() {
		dst = make([][]float64, st.NumBodies())
	}
	for i := range dst {
		dst[i] = reuse.Zeroed(dst[i], len(st.Body(i).Space.Mesh.Nodes))
	}
	s.placeAll() // placed again at the next step's start
	s.Detector.DepthsTo(dst, s.at.config(st.Time()))
	return dst
}

// placeAll writes every body's current configuration into s.at.
func (s *Simulation) placeAll() {
	for fi, f := range s.families {
		for k := range f.len() {
			f.place(k, s.base[fi]+k, &s.at)
		}
	}
}

// predict returns the end velocities the impulses s.r give and sets s.at
// to the end configuration they reach (for finite-element bodies exact on
// the contact DOFs, free elsewhere, and placed on the contact nodes).
func (s *Simulation) predict(vfree [][]float64, h, th float64) [][]float64 {
	if len(s.work.vpred) != len(vfree) {
		s.work.vpred = make([][]float64, len(vfree))
	}
	v := s.work.vpred
	t := s.Stepper.Time()
	for fi, f := range s.families {
		for k := range f.len() {
			i := s.base[fi] + k
			v[i] = append(v[i][:0], vfree[i]...)
			f.predict(k, i, v[i], s.r[i], t, h, th, &s.at)
		}
	}
	return v
}

// problem builds the one-step contact problem: free local velocities, the
// law's shift per unit, and W from the bodies' compliances.
//
// With pred nil the units are at the start of the step; otherwise they were
// detected at the end configuration predicted by the velocities pred, and
// their gap is carried back to the start along the linearisation: g_start =
// g_pred - h (theta U_pred + (1-theta) U_start), in their frames.
func (s *Simulation) problem(units []contact.Unit, v0, vfree, pred [][]float64, t, h, th float64) (p *signorini.Problem, u0, rigid1 [][2]float64, active, push []bool, err error) {
	n := len(units)
	w := &s.work
	w.q, w.mu, w.shift = reuse.Zeroed(w.q, 2*n), reuse.Zeroed(w.mu, n), reuse.Zeroed(w.shift, n)
	w.u0, w.rigid1, w.active, w.push = reuse.Zeroed(w.u0, n), reuse.Zeroed(w.rigid1, n), reuse.Zeroed(w.active, n), reuse.Zeroed(w.push, n)
	w.arrive, w.soon, w.corr, w.acc, w.accBody = reuse.Zeroed(w.arrive, n), reuse.Zeroed(w.soon, n), reuse.Zeroed(w.corr, n), reuse.Zeroed(w.acc, n), reuse.Zeroed(w.accBody, n)
	w.uf = reuse.Zeroed(w.uf, n)
	w.prob = signorini.Problem{Q: w.q, Mu: w.mu, Shift: w.shift}
	p, u0, rigid1, active, push = &w.prob, w.u0, w.rigid1, w.active, w.push
	for a := range units {
		u := &units[a]
		ul := s.lawOf(a, u)
		rigid1[a] = u.Rigid
		if ul.motion != nil {
			rigid1[a] = u.RigidAt(ul.motion.Velocity(t + h))
		}
		uf := u.Velocity(vfree)
		uf[0] += rigid1[a][0] - u.Rigid[0]
		uf[1] += rigid1[a][1] - u.Rigid[1]
		u0[a] = u.Velocity(v0)
		p.Q[2*a], p.Q[2*a+1], p.Mu[a] = uf[0], uf[1], s.mu(a, u)
		w.uf[a] = uf[0]
		g := u.Gap
		if pred != nil {
			up := u.Velocity(pred)
			g -= h * (th*(up[0]+rigid1[a][0]-u.Rigid[0]) + (1-th)*u0[a][0])
		}
		if s.arriving(a, u, ul, g, uf, pred != nil, h, th) {
			continue
		}
		switch ul.law {
		case contact.Positional:
			active[a] = true
			g = slack(g, ul.slop)
			p.Shift[a] = positionalShift(closable(g, ul.slop, w.soon[a]), u0[a][0], h, th, ul.reach, w.soon[a])
			push[a] = g < 0
		case contact.Shock:
			active[a] = ul.restitution == 0 || slack(g, ul.slop)+h*uf[0] <= 0
			p.Shift[a] = shockShift(u0[a][0], th, ul.restitution)
			if ul.restitution == 0 {
				p.Shift[a] += allowance(closable(slack(g, ul.slop), ul.slop, w.soon[a]), u0[a][0], h, th, w.soon[a])
			}
			if !active[a] {
				p.Shift[a] = math.Inf(1) // always open
			}
			// The law on U_end + e U_start, a positive multiple of the
			// mean velocity of [JM91] section 6 for the dissipation index
			// delta = (1 - e)/(1 + e).
			p.Q[2*a] += ul.restitution * u0[a][0]
			p.Q[2*a+1] += ul.restitution * u0[a][1]
		}
	}
	p.W, err = s.delassus.Build(units)
	return p, u0, rigid1, active, push, err
}

// arriving sets unit a's law to an impact inside the step when it is
// one (arrival.go), and reports whether it is.
func (s *Simulation) arriving(a int, u *contact.Unit, ul unitLaw, g float64, uf [2]float64, pred bool, h, th float64) bool {
	w := &s.work
	if !ul.exact || pred || th != 0.5 || w.noArrival {
		return false
	}
	u0 := w.u0[a]
	acc := [2]float64{(uf[0] - u0[0]) / h, (uf[1] - u0[1]) / h}
	amax := largestAcceleration(u, w.step.v0, w.step.vfree, u.Rigid, w.rigid1[a], h)
	tau, ok := arrival(slack(g, ul.slop), u0[0], acc[0], amax, h)
	if !ok {
		// One that arrives in the next step may close its whole gap but
		// not pass it (problem's laws).
		next, soon := arrival(slack(g, ul.slop), u0[0], acc[0], amax, 2*h)
		w.soon[a] = soon && next > h
		return false
	}
	w.active[a], w.arrive[a], w.acc[a] = true, true, acc
	w.corr[a] = arrivingLaw(w.q[2*a:2*a+2], &w.shift[a], uf, u0, acc, ul.shockRestitution(), tau, h, th)
	vb0, vb1 := u.Velocity(w.step.v0), u.Velocity(w.step.vfree)
	w.accBody[a] = [2]float64{(vb1[0] - vb0[0]) / h, (vb1[1] - vb0[1]) / h}
	return true
}

// unitLaw is what the contact problem needs of a unit's law: the law, the
// motion of its antagonist when that is prescribed (an obstacle's or a
// driven rigid body's; nil otherwise), the most penetration the positional
// law pushes out in a step and the gaps it takes for touching (its reach
// and slop, sized), and the shock law's restitution.
type unitLaw struct {
	law         contact.Law
	motion      contact.Motion
	reach, slop float64
	restitution float64
	// exact tells a unit whose bodies can take an impact inside the step
	// (arrival.go): rigid bodies, free point masses and obstacles.
	exact bool
}

// shockRestitution is the restitution e of the law on U+ + e U-: the
// shock law's, 0 under the positional law.
func (ul unitLaw) shockRestitution() float64 {
	if ul.law == contact.Shock {
		return ul.restitution
	}
	return 0
}

// sized sets the positional law's reach and the slop (both laws') for a
// unit of the given length.
func (ul unitLaw) sized(length float64) unitLaw {
	ul.reach, ul.slop = pushReach*length, slop*length
	return ul
}

// lawOf is unit a's law, as its source says.
func (s *Simulation) lawOf(a int, u *contact.Unit) unitLaw { return s.sourceOf(a).law(u) }

// positionalShift is the shift s of the Positional law (see problem), U_N,end + s >= 0,
// for a unit of gap g and normal velocity u0 at the start of the step.
//
// A unit that arrives in the next step (arrival.go: soon) may close its
// whole gap (U_N,end >= -(g/h + (1 - theta) U_N,start)/theta: at most onto
// the surface), so that the step before an impact leaves the impact to
// the next step, all of it.
func positionalShift(g, u0, h, th, reach float64, soon bool) float64 {
	if g < 0 {
		return max(g, -reach)/h + (1-th)*u0
	}
	if gm := g/h + (1-th)*u0; soon && gm > 0 {
		return gm / th
	}
	return max(g/h+(1-th)*u0, (1-th)*u0/th)
}

// shockShift is the shift s of the Shock law, U_N,end + e U_N,start + s >=
// 0, for a unit of normal velocity u0 at the start of the step and
// restitution e. It is 0 but where the unit separates at the start (u0 >
// 0: a pivot whose lever arm turned in the last step, a centripetal
// velocity) and e is below (1-theta)/theta: there the law held at equality
// would leave U_N,theta = (1 - theta - theta e) u0 > 0 with P_N > 0,
// positive work. The shift makes U_N,theta = 0 instead, the positional
// law's second bound (design.md section 6).
func shockShift(u0, th, e float64) float64 {
	return max(0, ((1-th)/th-e)*u0)
}

// allowance is the approach the inelastic shock law lets a unit of gap g
// (less the slop) and normal velocity u0 at the start of the step make by
// its end, U_N,end >= -allowance: its gap at the mid configuration over h,
// when positive. Every unit the detection finds takes part (LMGC90's
// IQS_CLB, which allows the gap at the start). A body arriving at a gap
// larger than half its step's travel then lands on the surface in two
// steps, where the law on units that take part when their gap closes under
// the free velocity stopped it short, held by an impulse across the gap (a
// point mass 26 um above a floor), and bodies that fall together stay
// under the law: under that forecast a deposit, whose neighbours have no
// relative free velocity, fell onto the floor layer by layer (LMGC90's
// 1 000-disk deposit: 60 sweeps a step against 4.9 over 1 000 steps), and
// the pillar's joint opened unlike LMGC90's (TestPillarJointAgainstLMGC90).
// Its work is not positive: with P_N > 0, U_N,theta is at most -theta times
// the allowance.
//
// A unit that arrives in the next step, whose impact is then resolved
// when it comes (arrival.go: soon), is allowed its whole gap, U_N,end >=
// -g_m/(h theta): it ends the step at most on the surface, and the impact
// comes in the next step, all of it (the allowance of g_m/h stopped a
// rocking block's corner in two steps, the first while it was still a gap
// away). Every other unit keeps LMGC90's allowance: given the whole gap
// too, the pillar's joint at 0.5 s moved from 128 mm (at h = 1, 0.5 and
// 0.25 ms) to 73 mm at h = 1 ms. Its work is not positive either: with
// P_N > 0, U_N,theta = -g/h.
func allowance(g, u0, h, th float64, soon bool) float64 {
	if soon {
		return max(g+h*(1-th)*u0, 0) / (h * th)
	}
	return max(g+h*(1-th)*u0, 0) / h
}

// pushReach is the most of a penetration, relative to the unit's length,
// that the law pushes out in one step: small penetrations left by the
// linearised geometry go at once, a deep one (bodies that start
// interpenetrated) goes over several steps instead of at a speed that
// would throw the bodies apart.
const pushReach = 1e-3

// slop is the gap, relative to a unit's length, within which the
// positional law, and the inelastic shock law's allowance, take a rigid
// body's or a point mass's unit for touching, neither pushing out a
// penetration nor letting a gap close (the shock law, 363 sweeps a step on
// TestPileAtRest's pile without it). A pile at rest has its contacts at
// gaps of round-off (a deposit read from 8-digit files overlaps by up to
// 1e-8 m; a step's update leaves 1e-10): without it each is pushed out and
// let close again by g/h every step, a new contact problem each step (585
// disks at rest: 24 sweeps a step instead of 2.5, TestPileAtRest). A
// penetration is held within the slop, not pushed out. Finite-element
// units have none (pairSource.law).
const slop = 1e-5

// closable is the gap a unit of slack gap g lets close in the step: g,
// and for a unit that arrives in the next step (soon) half its slop more,
// so that it starts that step touching and its impact is resolved at the
// start (impactNow). Closed to the slop's edge, round-off decided whether
// it touched or arrived a hair inside the step, where shiftsPush could put
// the impact at the theta-method's time and let the unit in by h (1 -
// theta) |U_N| (0.62 mm in the pillar).
func closable(g, slop float64, soon bool) float64 {
	if soon && g >= 0 {
		return g + slop/2
	}
	return g
}

// slack is the gap g the positional law and the shock law's allowance act
// on: g less the slop towards zero, and zero within it. Both ways: a law that let round-off gaps close
// while it held round-off overlaps took 2 206 sweeps a step on
// TestPileAtRest's pile at rest.
func slack(g, slop float64) float64 {
	switch {
	case g > slop:
		return g - slop
	case g < -slop:
		return g + slop
	}
	return 0
}

// solve runs NLGS warm-started from the previous step's impulses of the
// same candidate nodes.
func (s *Simulation) solve(p *signorini.Problem, units []contact.Unit, stats *StepStats) (*signorini.Result, error) {
	if s.opt.OnProblem != nil {
		if err := s.opt.OnProblem(stats.Step, p); err != nil {
			return nil, err
		}
	}
	opt := s.opt.Solver
	opt.Start = signorini.Warm
	s.work.warm = reuse.Zeroed(s.work.warm, 2*len(units))
	opt.Warm = s.work.warm
	opt.Reuse = &s.work.res
	for a, u := range units {
		w := s.warm[s.sourceOf(a).id(u.Key)]
		opt.Warm[2*a], opt.Warm[2*a+1] = w.p[0], w.p[1]
	}
	res, err := signorini.Solve(p, opt)
	if errors.Is(err, signorini.ErrNotConverged) {
		s.Unconverged++
		if s.opt.Strict {
			return nil, fmt.Errorf("step %d (t = %g): %w (the run stops here: strict)", stats.Step, stats.Time, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("step %d (t = %g): %w", stats.Step, stats.Time, err)
	}
	stats.Sweeps, stats.ContactNewton = res.Sweeps, res.NewtonIterations
	stats.Residual, stats.Converged = max(res.Residual, stats.impactResidual), err == nil && !stats.impactUnconverged
	certify(p, res, stats)
	clear(s.warm)
	for a, u := range units {
		slid := res.Status[a] == signorini.SlideForward || res.Status[a] == signorini.SlideBackward
		s.warm[s.sourceOf(a).id(u.Key)] = warmStart{p: [2]float64{res.R[2*a], res.R[2*a+1]}, slid: slid}
	}
	return res, nil
}

// warmStart is what a unit's solve leaves to the next: its impulses (the
// warm start) and whether it slid (its friction coefficient, mu).
type warmStart struct {
	p    [2]float64
	slid bool
}

// mu is unit a's friction coefficient in this step's problem: the dynamic
// one where the unit has one and slid in the last solve, the static one
// (Mu) where it stuck, was open or is new.
func (s *Simulation) mu(a int, u *contact.Unit) float64 {
	if u.MuDynamic != nil && s.warm[s.sourceOf(a).id(u.Key)].slid {
		return *u.MuDynamic
	}
	return u.Mu
}

// certify measures how well the solve applied holds the laws: the
// complementarity gap of its impulses and velocities, and the cone
// violation of its impulses (StepStats).
func certify(p *signorini.Problem, res *signorini.Result, stats *StepStats) {
	var gap, scale, violation, largest float64
	for a, mu := range p.Mu {
		pn, pt := res.R[2*a], res.R[2*a+1]
		if pn == 0 && pt == 0 {
			continue // open, or never closing (an infinite shift)
		}
		un, ut := res.U[2*a]+p.Shift[a], res.U[2*a+1]
		gap += math.Abs(pn*un) + math.Abs(pt*ut+mu*pn*math.Abs(ut))
		scale += math.Hypot(pn, pt) * (math.Hypot(un, ut) + math.Hypot(p.Q[2*a], p.Q[2*a+1]))
		violation = max(violation, -pn, math.Abs(pt)-mu*pn)
		largest = max(largest, math.Hypot(pn, pt))
	}
	stats.Complementarity, stats.ComplementarityRel, stats.ConeViolation = gap, 0, 0
	if scale > 0 {
		stats.ComplementarityRel = gap / scale
	}
	if largest > 0 {
		stats.ConeViolation = violation / largest
	}
}

// record books the works of contact and keeps the units' states for output.
func (s *Simulation) record(units []contact.Unit, res *signorini.Result, u0, rigid1 [][2]float64, active, push []bool, th float64, stats *StepStats) {
	s.work.v1 = s.velocitiesTo(s.work.v1)
	v1 := s.work.v1
	s.contacts = s.contacts[:0]
	for a := range units {
		u := &units[a]
		src := s.sourceOf(a)
		cs := ContactState{Key: u.Key, X: u.X, N: u.N, T: u.T, Gap: u.Gap / u.Weight, Weight: u.Weight,
			Body: src.body(u.Key), Reverse: src.reverse(u.Key), thickness: src.thickness(u.Key)}
		if res != nil && active[a] {
			P := [2]float64{res.R[2*a], res.R[2*a+1]}
			U1 := u.Velocity(v1)
			U1[0] += rigid1[a][0] - u.Rigid[0]
			U1[1] += rigid1[a][1] - u.Rigid[1]
			var rt [2]float64
			for c := 0; c < 2; c++ {
				ut := th*U1[c] + (1-th)*u0[a][c]
				rt[c] = th*rigid1[a][c] + (1-th)*u.Rigid[c]
				if s.work.arrive[a] { // the impact's own work (arrival.go)
					cf := s.work.corr[a]
					ut -= cf * s.work.acc[a][c]
					rt[c] -= cf * (s.work.acc[a][c] - s.work.accBody[a][c])
				}
				switch {
				case c == 0 && push[a]:
					stats.PushOutWork += P[0] * ut
				case c == 0:
					stats.NormalWork += P[0] * ut
				default:
					stats.FrictionWork += P[1] * ut
				}
			}
			stats.ObstacleWork -= P[0]*rt[0] + P[1]*rt[1]
			cs.Impulse, cs.Status = P, res.Status[a]
			cs.Velocity, cs.Mu = [2]float64{res.U[2*a], res.U[2*a+1]}, s.work.prob.Mu[a]
			if sh := s.work.prob.Shift[a]; !math.IsInf(sh, 0) {
				cs.Velocity[0] += sh
			}
		}
		switch cs.Status {
		case signorini.Open:
			stats.Open++
		case signorini.Stick:
			stats.Stick++
		default:
			stats.Slide++
		}
		s.contacts = append(s.contacts, cs)
	}
	s.paired = s.work.step.from[1]
	s.pointed = [2]int{s.work.step.from[2], s.work.step.from[3]}
	s.NormalWork += stats.NormalWork
	s.PushOutWork += stats.PushOutWork
	s.FrictionWork += stats.FrictionWork
	s.ObstacleWork += stats.ObstacleWork
}
