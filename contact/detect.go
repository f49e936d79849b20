package contact

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/internal/friction"
	"github.com/fecontact/fecontact/mesh"
)

// CheckDynamic checks a dynamic friction coefficient against its static
// one: none, or a number from 0 to the static coefficient (sliding never
// takes more than sticking holds).
func CheckDynamic(static float64, dynamic *float64) error {
	if dynamic != nil && !(*dynamic >= 0 && *dynamic <= static) {
		return fmt.Errorf("dynamic friction coefficient mu_dynamic = %g: expected a value from 0 to the static one, mu = %g", *dynamic, static)
	}
	return nil
}

// Dynamic is the coefficient a unit takes while sliding: dynamic where
// set, else static.
func Dynamic(static float64, dynamic *float64) float64 {
	if dynamic == nil {
		return static
	}
	return *dynamic
}

// Tangential is e_T, the restitution of a shock law's tangential
// component: et where set, else e (the law on the mean velocity of [JM91]
// section 6, both components alike).
func Tangential(e float64, et *float64) float64 {
	if et != nil {
		return *et
	}
	return e
}

// MaxMu is the largest friction coefficient a contact takes: 1000, which
// sticks for any practical purpose (internal/friction says why no more).
const MaxMu = friction.MaxMu

// Pair declares that the nodes of a candidate Side may touch an antagonist:
// another Side (of another body, or of the same one) or an Obstacle.
type Pair struct {
	Name       string
	Candidate  *Side
	Antagonist *Side     // nil when Obstacle is set
	Obstacle   *Obstacle // nil when Antagonist is set
	Mu         float64   // Coulomb friction coefficient (the static one where MuDynamic is set)
	MuDynamic  *float64  // the coefficient of a unit that slid at the step before; nil: Mu throughout
	Law        Law       // zero value: Positional
	Basis      Basis     // zero value: Nodal
	// Alert is the alert distance (m): nodes farther than that from the
	// antagonist are not paired. Zero means half the shortest edge of the
	// candidate side. Check refuses more than half the smallest extent of
	// the bodies in the pair, which would pair nodes with edges across a
	// body.
	Alert float64
	// OneWay leaves out the reverse pass of a pair of sides (or of a side
	// and a carried obstacle): only the candidate's nodes are kept out of
	// the antagonist, and the antagonist's nodes (or the rigid body's
	// vertices) may enter the candidate body. By default both bodies are
	// protected (see the package documentation).
	OneWay bool
	// Cohesion is the tension (Pa, per area of joint) each unit touching
	// at the run's start holds before its bond breaks for good (a glued
	// or mortared joint; kind.Law.Cohesion); 0: none.
	Cohesion float64

	passes    []pass
	muDynamic float64   // MuDynamic's value, read by NewDetector
	carried   *passWork // the reverse pass of a carried obstacle, or nil
	measured  []pass    // the directions the depth measure looks in: both for two sides
}

// pass is one direction of a pair: the nodes of cand against the edges of
// ant (a side, or the obstacle when ant is nil), with the columns of P of
// cand's nodes.
type pass struct {
	cand    *Side
	ant     *Side
	weights [][]Weight
	reverse bool
	work    *passWork
}

// passWork is a pass's storage that every detection reuses: the broad
// phase and the candidates' points, valid until the next detection.
type passWork struct {
	grid    grid
	out     []*Point
	found   []Point
	near    []int
	X       [][3][2]float64 // the antagonist side's edges
	boxes   []box
	valley  []Point       // second points of candidates in valleys (see valleyPoint)
	scratch []Entry       // a unit's rows before they are merged
	driven  [2]float64    // a unit's driven nodes' velocity term (Unit.Driven)
	carrier [2]float64    // the centre of a carried obstacle's body
	own     [2][2]float64 // a candidate's own faces, handed to atVertex
	// The antagonist's shape in the current configuration (one of them).
	side     sideShape
	vertices []vertexMemo // side's memo
	disc     discShape
	polyline polylineShape
}

// Check fills in the default alert distance and checks the pair, as
// NewDetector does: a caller that builds pairs from its own input calls it
// to report an error in that input's terms.
func (p *Pair) Check() error {
	if p.Candidate != nil && p.Alert == 0 {
		p.Alert = p.defaultAlert()
	}
	switch {
	case p.Candidate == nil:
		return errors.New("no candidate side")
	case (p.Antagonist == nil) == (p.Obstacle == nil):
		return errors.New("give exactly one antagonist: a side or an obstacle")
	case !(p.Mu >= 0 && p.Mu <= MaxMu):
		return fmt.Errorf("friction coefficient mu = %g: expected a value in [0, %g] (%g already sticks)", p.Mu, MaxMu, MaxMu)
	case CheckDynamic(p.Mu, p.MuDynamic) != nil:
		return CheckDynamic(p.Mu, p.MuDynamic)
	case !(p.Alert > 0) || math.IsInf(p.Alert, 0):
		return fmt.Errorf("alert = %g m: expected a positive, finite distance", p.Alert)
	case !(p.Cohesion >= 0) || math.IsInf(p.Cohesion, 0):
		return fmt.Errorf("cohesion = %g Pa: expected a finite tension >= 0 (0: no bond)", p.Cohesion)
	case p.Basis != Nodal && p.Basis != Pairing:
		return fmt.Errorf("unknown reaction basis %d", p.Basis)
	case p.Law != Positional && p.Law != Shock:
		return fmt.Errorf("unknown contact law %d", p.Law)
	}
	if limit := alertLimit(p.Candidate, p.Antagonist); p.Alert > limit {
		return fmt.Errorf("alert = %g m: expected at most %.3g m, half the smallest extent of the bodies in contact: a farther alert pairs nodes with edges across a body", p.Alert, limit)
	}
	if p.Obstacle != nil {
		return p.Obstacle.check()
	}
	return nil
}

// defaultAlert is half the shortest edge of the candidate side, far more
// than a step's penetration at the speeds a stable contact step allows,
// within the limit Check sets (a one-cell body reaches it).
func (p *Pair) defaultAlert() float64 {
	a := alertLimit(p.Candidate, p.Antagonist)
	for _, e := range p.Candidate.edges {
		a = min(a, p.Candidate.Mesh.EdgeLength(e)/2)
	}
	return a
}

// alertLimit is half the smallest width or height of the sides' meshes.
func alertLimit(sides ...*Side) float64 {
	limit := math.Inf(1)
	for _, s := range sides {
		if s == nil {
			continue
		}
		lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
		for _, x := range s.Mesh.Nodes {
			for k := range 2 {
				lo[k], hi[k] = min(lo[k], x[k]), max(hi[k], x[k])
			}
		}
		limit = min(limit, min(hi[0]-lo[0], hi[1]-lo[1])/2)
	}
	return limit
}

// Detector finds contacts for a list of pairs.
type Detector struct {
	Pairs []*Pair

	boundaries map[*mesh.Mesh][]mesh.Edge // for Overlaps, found by NewDetector
	gauge      gauge                      // Overlaps' depth measure, reused
	deepest    []Overlap                  // Deepest's result, reused
	out        [2]detection               // Detect's results, used in turn
	turn       int
}

// NewDetector checks the pairs and computes their pairing matrices.
func NewDetector(given ...*Pair) (*Detector, error) {
	pairs := make([]*Pair, len(given))
	for i, g := range given {
		if err := g.Check(); err != nil {
			return nil, fmt.Errorf("contact pair %q: %w", g.Name, err)
		}
		// The Detector's own copy: a caller's change to its pair after
		// the check (a friction coefficient) reaches no unit.
		p := new(Pair)
		*p = *g
		pairs[i] = p
		p.muDynamic = Dynamic(p.Mu, p.MuDynamic)
		p.MuDynamic = &p.muDynamic
		w := p.Candidate.PairingMatrix()
		if p.Basis == Nodal {
			w = Lump(w)
		}
		p.passes = []pass{{cand: p.Candidate, ant: p.Antagonist, weights: w, work: &passWork{}}}
		if p.Antagonist != nil && !p.OneWay {
			// The reverse pass is node to segment (lumped), whatever the
			// basis: its units only fill in where the direct pass has no
			// node near the reverse candidate (see Detect).
			p.passes = append(p.passes, pass{cand: p.Antagonist, ant: p.Candidate, weights: Lump(p.Antagonist.PairingMatrix()), reverse: true, work: &passWork{}})
		}
		if p.Obstacle != nil && p.Obstacle.Carried && !p.OneWay {
			p.carried = &passWork{}
		}
		// The depth measure looks both ways whatever the passes: a one-way
		// pair's antagonist nodes enter the candidate body all the same.
		p.measured = []pass{{cand: p.Candidate, ant: p.Antagonist}}
		if p.Antagonist != nil {
			p.measured = append(p.measured, pass{cand: p.Antagonist, ant: p.Candidate, reverse: true})
		}
	}
	d := &Detector{Pairs: pairs, boundaries: map[*mesh.Mesh][]mesh.Edge{}}
	for _, p := range pairs {
		for _, ps := range p.measured {
			if ps.ant != nil {
				d.boundary(ps.ant.Mesh)
			}
		}
	}
	return d, nil
}

// Config is the configuration detection looks at: the time (for obstacle
// motion) and each body's full displacement vector (2 per node), indexed by
// Side.Body; a nil or missing entry means the reference configuration.
type Config struct {
	Time float64
	Disp [][]float64
	// Poses are the rigid bodies' (x, y, rotation), indexed like Disp,
	// for the obstacles they carry (Obstacle.Carried).
	Poses [][3]float64
	// Driven are the motions of the driven rigid bodies among them,
	// indexed like Poses: a carried obstacle whose body's entry is set
	// moves with that motion and has no DOFs in its units; nil (or a
	// short slice) means a free body.
	Driven []Motion
	// Moving are the velocities of the finite-element bodies' driven
	// DOFs, full vectors (2 per node) indexed like Disp, nil for a body
	// none of whose DOFs is driven: a unit touching a driven node has
	// its velocity in its Rigid term (Unit.Driven).
	Moving [][]float64
}

func (c Config) disp(body int) []float64 {
	if body < len(c.Disp) {
		return c.Disp[body]
	}
	return nil
}

// moving is body's driven DOFs' velocities, nil for none.
func (c Config) moving(body int) []float64 {
	if body < len(c.Moving) {
		return c.Moving[body]
	}
	return nil
}

// Point is one candidate node that found an antagonist within the alert
// distance.
type Point struct {
	Pair    int
	Reverse bool       // found by the reverse pass: Node is the antagonist side's
	Node    int        // mesh node of the candidate side
	X, Xa   [2]float64 // candidate position and its closest antagonist point
	N, T    [2]float64 // frame: normal towards the candidate's side, tangent
	Gap     float64
	Edge    int     // antagonist edge (index in its Side.Edges, then its flanks) or obstacle segment
	S       float64 // parameter on that edge, in [-1, 1]
}

// Key identifies a contact unit from one step to the next, for warm starts.
// Reverse units (the antagonist side's nodes against the candidate side's
// edges) have Reverse set; Node is then a node of the antagonist's mesh.
// Units between rigid bodies (package rigid) have Pair -1: A and B are then
// the candidate and antagonist bodies (indices in their rigid.System),
// Node the candidate's feature and Edge the antagonist's, and Reverse marks
// a contact with a periodic image.
type Key struct {
	Pair, Node, Edge int
	Reverse          bool
	A, B             int
	// Valley marks a node's second unit, on the other face of a valley
	// (see the package documentation).
	Valley bool
}

// Entry is one column of a unit's two rows of H~: the coefficient of DOF
// (equation Eq of body Body) in the normal and tangential velocities.
type Entry struct {
	Body, Eq int
	N, T     float64
}

// Unit is one contact unit j: U~ = sum over Entries of (N, T) v[Body][Eq]
// + Rigid, in the frame N, T of its node.
type Unit struct {
	Key    Key
	X      [2]float64 // position of node j
	N, T   [2]float64
	Gap    float64 // weighted gap sum_i P_ij g_i (m^3: P in m^2 times m)
	Weight float64 // sum_i P_ij over the nodes i in contact (m^2)
	Mu     float64
	// MuDynamic is the friction coefficient of the unit when it slid at
	// the step before, Mu (static) being that of a unit that stuck, was
	// open or is new: LMGC90's *_DS_CLB laws. It is Mu where the contact
	// sets none. A value, read from the contact's settings when its
	// owner was made: changing them after has no effect.
	MuDynamic float64
	Entries   []Entry    // sorted by (Body, Eq)
	Rigid     [2]float64 // obstacle velocity term at the configuration's time
	// Driven is the part of Rigid of the driven nodes the unit touches
	// (Config.Moving): their rows times their velocities, which no
	// obstacle's motion gives (RigidAt does not).
	Driven [2]float64
	// ObsN, ObsT are sum_i P_ij n_i and sum_i P_ij t_i: the rigid term of an
	// obstacle moving at v is (-ObsN.v, -ObsT.v) (see RigidAt).
	ObsN, ObsT [2]float64
}

// RigidAt is the unit's obstacle term for an obstacle velocity v.
func (u *Unit) RigidAt(v [2]float64) [2]float64 {
	return [2]float64{-(u.ObsN[0]*v[0] + u.ObsN[1]*v[1]), -(u.ObsT[0]*v[0] + u.ObsT[1]*v[1])}
}

// reverseSkip is how close, as a fraction of the edge's parameter range,
// the closest point of a reverse candidate b must be to a node a of the
// candidate side for b to be left to a: when a's own unit already pairs a
// with an edge of b, the two units would constrain nearly the same gap, and
// such near-duplicate rows make the Delassus operator nearly singular.
const reverseSkip = 0.1

// reverseDepth is the depth, relative to the reverse candidate's tributary
// length, beyond which it is paired even where redundant says it adds
// nothing: half the 1 % bound on penetration.
const reverseDepth = 0.005

// Detect finds every candidate node within the alert distance of its
// antagonist and builds the contact units. For a pair of sides it then runs
// the reverse pass: the antagonist's nodes against the candidate's edges,
// leaving out those next to a candidate node already paired with one of
// their edges (identical meshes face to face give no reverse unit at all).
// Points and units are in pair, pass and node order: the result does not
// depend on map order or timing.
//
// A Detector reuses its storage, so it is not safe for concurrent use, and
// the units and points it returns stay valid until the next Detect but one:
// a step may detect again about a predicted configuration while it holds
// the units of the start, with no allocation once the storage has grown.
func (d *Detector) Detect(cfg Config) ([]Unit, []Point, error) {
	d.turn ^= 1
	r := &d.out[d.turn]
	r.reset()
	for pi, p := range d.Pairs {
		if p.Obstacle != nil {
			if _, _, err := p.Obstacle.place(cfg); err != nil {
				return nil, nil, fmt.Errorf("contact pair %q: %w", p.Name, err)
			}
		}
		var direct []*Point
		for _, ps := range p.passes {
			pts, err := d.project(pi, p, &ps, cfg, direct)
			if err != nil {
				return nil, nil, err
			}
			if !ps.reverse {
				direct = pts
			}
			d.units(r, pi, p, &ps, pts, cfg)
			for _, q := range pts {
				if q != nil {
					r.points = append(r.points, *q)
				}
			}
			r.points = append(r.points, ps.work.valley...)
		}
		if p.carried != nil {
			d.carriedUnits(r, pi, p, cfg)
		}
	}
	return r.units, r.points, nil
}

func (s *Side) disp(cfg Config) []float64 { return cfg.disp(s.Body) }
