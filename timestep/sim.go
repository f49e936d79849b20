package timestep

import (
	"fmt"
	"strings"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/kind"
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
	// it is solved (to export it, say): the impact at its start, the
	// first, the one solved again (its impacts at the theta-method's time,
	// about the predicted end configuration, at the static friction
	// coefficient), those of a hyperelastic body's Newton updates. The
	// last a step shows is the one whose solution the step applied. It
	// must not keep or change it.
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
	// Kinds are other kinds of body an embedding program brings
	// (kind.Kind), stepped with the others, their bodies after the point
	// masses and their sources' units after theirs, in this order.
	Kinds []kind.Kind
}

// StepStats describes one step.
type StepStats struct {
	Step               int
	Time               float64
	Units              int // contact units detected (within the alert distance)
	Open, Stick, Slide int
	Sweeps             int // NLGS's sweeps of every contact solve of the step (OnProblem lists them)
	// Solves counts the step's contact solves and their sweeps by the
	// reason each was made (SolveReason); their sweeps add up to Sweeps.
	Solves [NumSolveReasons]SolveCount
	// Dynamic counts the units at their dynamic friction coefficient in
	// the solve applied (they slid the step before and slide on), and
	// StickAttempts those set back to the static one and solved again
	// because their slip turned back in the step (solve.go).
	Dynamic, StickAttempts int
	ContactNewton          int     // Newton's iterations of every contact solve of the step (signorini.Solve)
	Residual               float64 // the natural-map residual of the solve applied (and of an impact at the step's start), relative (signorini.Residual)
	Converged              bool
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

// SolveReason is why a step solved a contact problem: its own, or one
// of the problems a step solves again or besides (StepStats.Solves).
type SolveReason int

// The reasons: the step's own problem, then the others in the order a
// step meets them.
const (
	OwnSolve        SolveReason = iota // the step's own problem
	StartImpact                        // an impact at the step's start (impact.go)
	StickAttempt                       // again at mu where a unit's slip turned back (solve.go)
	ImpactsAtTheta                     // again with the impacts inside the step at the theta-method's time (shiftsPush)
	AboutTheEnd                        // again about the predicted end configuration (Step)
	NewtonTangent                      // again on a hyperelastic body's new Newton tangent (advance)
	NumSolveReasons                    // the number of reasons
)

// String names the reason as summary.json does.
func (r SolveReason) String() string {
	return [...]string{"own", "impact_at_start", "stick_attempt", "impacts_at_theta", "about_the_end", "newton_tangent"}[r]
}

// SolveCount is a number of contact solves and their NLGS sweeps.
type SolveCount struct{ Solves, Sweeps int }

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
	// Bonded marks a unit whose bond (a cohesion, cohesion.go) held
	// through the step; one that broke in it is not.
	Bonded bool
	// Rolling is the moment impulse of the unit's rolling resistance on
	// its body (N m s per m; kind.Law.Rolling), 0 without one.
	Rolling float64

	thickness float64 // m, that the impulse density is spread over (Force)
}

// Simulation runs bodies with contact: each step detection, free velocity,
// Delassus operator from the bodies' compliances, NLGS with warm start,
// end velocities and positions.
type Simulation struct {
	Stepper  *fe.Stepper       // the finite-element bodies' (fe.Family)
	Detector *contact.Detector // without pairs when only rigid bodies touch
	Rigid    *rigid.System     // nil without rigid bodies
	Points   *discrete.System  // nil without point masses
	opt      SimOptions

	families []kind.Family   // the kinds of body, in the order of the global body index
	sources  []kind.Source   // where units come from: the pairs first, then the rigid bodies
	paired   int             // the last step's units of the pairs, the first of s.contacts
	pointed  [2]int          // the range of s.contacts of the point masses' units
	base     []int           // each family's first global body index
	at       kind.Placement  // the contact configuration of the step's start, or its predicted end
	prev     contact.Config  // the last step's start, a copy, for the swept tunnelling check
	steps    int             // the steps taken: the clock (clock.go)
	inStep   bool            // a step began and did not end (it failed)
	warned   map[string]bool // the keys of the warnings given (Warnings)
	r        [][]float64     // the bodies' generalised impulses of the step
	shift    [][]float64     // their parts that move the positions (impact.go)
	delassus *Delassus
	warm     warmTable        // what each unit's last solve left (warm.go)
	bonded   map[kind.ID]bool // the units whose cohesion holds (cohesion.go)
	contacts []ContactState   // the last step's, made when asked (Contacts)
	pending  bool             // record left contacts to be made
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
	// laws are the step's units' laws, read once each time the units are
	// detected (lawsOf): a source's Law, asked by every phase, was 9 % of a
	// granular step.
	laws []kind.Law
	// ids are the units' identities across steps (idOf), read with the
	// laws; last is what each unit's solve left in the last step (s.warm),
	// looked up once in the problem it is posed in: hashing an identity,
	// twice or three times a unit, was 7 % of a granular step.
	ids                []kind.ID
	last               []warmStart
	v0, vfree, v1      [][]float64
	q, mu, shift, warm []float64
	u0, rigid1         [][2]float64
	active, push       []bool
	// The units that arrive inside the step (impact.go): their shift
	// coefficient h (1 - theta) - tau, their free relative acceleration
	// and that of the bodies alone (obstacles' left out); those that
	// arrive in the next step (soon).
	arrive, soon []bool
	noArrival    bool // the step resolves no impact inside itself (shiftsPush)
	corr         []float64
	acc, accBody [][2]float64
	bodyAcc      []float64 // per body: bodyAcceleration, NaN from its start until asked
	sh, dsh      []float64 // the impacts' shift impulses and what they move the units by
	uf           []float64 // the units' free normal velocities at the step's end
	coh          []float64 // the units' cohesive impulses h c, 0 without a bond (cohesion.go)
	broken       []kind.ID // the bonds the step's last solve broke (uncohere, keepApplied)
	slipTol      float64   // the last solve's slipTol
	// The rolling rows (rolling.go): their units, the units W is built
	// on, their links for the problem and their velocities at the start.
	rolls         []int
	rollSlab      []contact.Entry // the rows, each row's after the last's
	rollEnds      []int           // where each row's entries end in rollSlab
	rollUnits     []contact.Unit
	rollOf        []int
	rollU0        []float64
	cohx          []float64 // them as a vector of the problem's unknowns
	prob          signorini.Problem
	res           signorini.Result
	vpred         [][]float64
	from, endFrom []int // the sources' units' ranges at the start and at the predicted end
	step          step  // what the phases of the step hand on
	// The impacts at a step's start (impactNow): their units and laws,
	// the bodies' mass compliances as far as fetched, and the builder of
	// W on them.
	impactUnits []contact.Unit
	impactLaw   impactTerms
	mcomp       []Compliance
	mhave       []bool
	md          *Delassus
}

// newSimulation builds a simulation of the kinds, in the order of the
// global body index, with the Detector's pairs as the first source of
// units (bs: their boundaries and the point contacts').
func newSimulation(det *contact.Detector, opt SimOptions, bs []boundary, kinds []kind.Kind) (*Simulation, error) {
	s := &Simulation{Detector: det, opt: opt, bonded: map[kind.ID]bool{}, warned: map[string]bool{}}
	s.sources = []kind.Source{&pairSource{det: det, at: &s.at}}
	comps := s.attach(kinds)
	if err := s.bindCarriers(bs); err != nil {
		return nil, err
	}
	if err := s.checkCarriers(bs); err != nil {
		return nil, err
	}
	var err error
	if s.delassus, err = NewDelassus(comps...); err != nil {
		return nil, err
	}
	return s, nil
}

// attach takes the kinds: their families in order, their bodies numbered
// (s.base) and placed, and their sources, each given its kind's first
// global body index. It returns the bodies' compliances, in order.
func (s *Simulation) attach(kinds []kind.Kind) []Compliance {
	for _, k := range kinds {
		s.families = append(s.families, k)
	}
	comps := s.number()
	for i, k := range kinds {
		if src := k.Source(s.base[i], &s.at); src != nil {
			s.sources = append(s.sources, src)
		}
	}
	return comps
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

// bindCarriers numbers each obstacle a body carries, made from the body
// (contact.Obstacle.Owner), with that body's global index: the place a
// family holding it (kind.Holder) gives it.
func (s *Simulation) bindCarriers(bs []boundary) error {
	for _, b := range bs {
		o := b.obstacle
		if o == nil || o.Owner == nil {
			continue
		}
		found := false
		for fi, f := range s.families {
			if h, ok := f.(kind.Holder); ok {
				if k, ok := h.Index(o.Owner); ok {
					o.Body, found = s.base[fi]+k, true
					break
				}
			}
		}
		if !found {
			return fmt.Errorf("simulation: %s: obstacle %q is carried by %s, which is not one of the simulation's bodies: give its system (SimOptions.Rigid)", b.what, o.Name, ownerName(o.Owner))
		}
	}
	return nil
}

// number gives the families' bodies their global indices (s.base), their
// impulse storage and their places in the contact configuration, and
// returns their compliances in that order.
func (s *Simulation) number() []Compliance {
	var comps []Compliance
	for _, f := range s.families {
		s.base = append(s.base, len(s.r))
		for k := range f.Len() {
			comps = append(comps, f.Compliance(k))
			s.r = append(s.r, make([]float64, f.DOFs(k)))
			s.shift = append(s.shift, make([]float64, f.DOFs(k)))
			s.at.Driven = append(s.at.Driven, f.Motion(k))
		}
	}
	s.at.Disp, s.at.Poses, s.at.Moving = make([][]float64, len(s.r)), make([][3]float64, len(s.r)), make([][]float64, len(s.r))
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
		if o.Body >= len(s.r) || !f.Carries() {
			return fmt.Errorf("simulation: %s: obstacle %q is carried by body %d, which is not a rigid body: of the simulation's %s, %s", b.what, o.Name, o.Body, plural.N(len(s.r), "body", "bodies"), s.carriers())
		}
		if t := b.thickness; t != 1 {
			return fmt.Errorf("simulation: %s: the candidate is %g m thick: against rigid body %q it must be 1 m thick (rigid bodies' masses and impulses are per m of thickness)", b.what, t, f.BodyName(k))
		}
	}
	return nil
}

// Energy is a body's energy account (kind.Energy: every kind's).
type Energy = kind.Energy

// TotalEnergy sums the accounts of every body.
func (s *Simulation) TotalEnergy() Energy {
	var e Energy
	for _, f := range s.families {
		e = f.Energy(e)
	}
	return e
}

// carriers says which global body indices carry obstacles.
func (s *Simulation) carriers() string {
	var ranges []string
	for fi, f := range s.families {
		if n := f.Len(); n > 0 && f.Carries() {
			ranges = append(ranges, fmt.Sprintf("%d to %d", s.base[fi], s.base[fi]+n-1))
		}
	}
	if len(ranges) == 0 {
		return "none is rigid"
	}
	return "the rigid ones are " + strings.Join(ranges, ", ")
}
