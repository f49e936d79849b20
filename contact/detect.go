package contact

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/signorini"
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

// MaxMu is the largest friction coefficient a contact takes
// (signorini.MaxMu, where the reason is).
const MaxMu = signorini.MaxMu

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

	passes   []pass
	carried  *passWork // the reverse pass of a carried obstacle, or nil
	measured []pass    // the directions the depth measure looks in: both for two sides
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
func NewDetector(pairs ...*Pair) (*Detector, error) {
	for _, p := range pairs {
		if err := p.Check(); err != nil {
			return nil, fmt.Errorf("contact pair %q: %w", p.Name, err)
		}
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
}

func (c Config) disp(body int) []float64 {
	if body < len(c.Disp) {
		return c.Disp[body]
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
	// MuDynamic, where set, is the friction coefficient of the unit when
	// it slid at the step before, Mu (static) being that of a unit that
	// stuck, was open or is new: LMGC90's *_DS_CLB laws.
	MuDynamic *float64
	Entries   []Entry    // sorted by (Body, Eq)
	Rigid     [2]float64 // obstacle velocity term at the configuration's time
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

// antagonist is the geometry of a pass's antagonist in one configuration:
// its entries' grown boxes, the projection on entry k, and the vertex at an
// end of entry k (end 0 at s = -1, 1 at s = +1) with which of the vertex's
// faces (1 or 2) is entry k's own; ok is false at a free end. The shape
// lives in the pass's work, so that a step allocates none.
type antagonist struct {
	boxes []box
	shape interface {
		project(k int, x [2]float64) projection
		vertex(k, end int) (v vertex, own int, ok bool)
	}
}

func (g antagonist) project(k int, x [2]float64) projection { return g.shape.project(k, x) }

func (g antagonist) vertex(k, end int) (vertex, int, bool) { return g.shape.vertex(k, end) }

// geometry returns the pass's antagonist in the configuration.
func (ps *pass) geometry(p *Pair, cfg Config) antagonist {
	w := ps.work
	if a := ps.ant; a != nil {
		ant := a.geometry(cfg, p.Alert, w)
		w.boxes = ant.boxes
		return ant
	}
	o := p.Obstacle
	place, centre, _ := o.place(cfg) // checked by Detect
	w.carrier = centre
	if o.Radius > 0 {
		c := place.at(o.Center)
		r := [2]float64{o.Radius, o.Radius}
		w.disc = discShape{c: c, r: o.Radius}
		w.boxes = append(w.boxes[:0], boxOf([2]float64{c[0] - r[0], c[1] - r[1]}, [2]float64{c[0] + r[0], c[1] + r[1]}).grow(p.Alert))
		return antagonist{boxes: w.boxes, shape: &w.disc}
	}
	pl := &w.polyline
	pl.pts, pl.closed = pl.pts[:0], o.closed()
	for _, q := range o.Points {
		pl.pts = append(pl.pts, place.at(q))
	}
	w.boxes = w.boxes[:0]
	for k := 0; k+1 < len(pl.pts); k++ {
		w.boxes = append(w.boxes, boxOf(pl.pts[k], pl.pts[k+1]).grow(p.Alert))
	}
	return antagonist{boxes: w.boxes, shape: pl}
}

// discShape is a disc obstacle placed in a configuration: no vertices.
type discShape struct {
	c [2]float64
	r float64
}

func (d *discShape) project(_ int, x [2]float64) projection { return projectDisc(x, d.c, d.r) }

func (d *discShape) vertex(int, int) (vertex, int, bool) { return vertex{}, 0, false }

// polylineShape is a polyline obstacle placed in a configuration.
type polylineShape struct {
	pts    [][2]float64
	closed bool
}

func (o *polylineShape) project(k int, x [2]float64) projection {
	// The free side is on the left of the polyline: project on the
	// reversed segment, whose right is that side, and flip s back.
	pr := projectSegment(x, o.pts[k+1], o.pts[k])
	pr.s = -pr.s
	return pr
}

// normal is segment j's outward normal. Walking the polyline backwards
// keeps the obstacle on the left, as a body's boundary: vertex j ends
// segment j and starts segment j-1.
func (o *polylineShape) normal(j int) [2]float64 {
	d := [2]float64{o.pts[j][0] - o.pts[j+1][0], o.pts[j][1] - o.pts[j+1][1]}
	l := norm(d[0], d[1])
	return [2]float64{d[1] / l, -d[0] / l}
}

func (o *polylineShape) vertex(k, end int) (vertex, int, bool) {
	pts := o.pts
	last := len(pts) - 2 // the last segment
	j := k + end
	after, before := j, j-1 // the segments that start and end at vertex j
	switch {
	case (j == 0 || j == last+1) && !o.closed:
		return vertex{}, 0, false
	case j == 0:
		before = last
	case j == last+1:
		after = 0
	}
	l := min(dist(pts[after], pts[after+1]), dist(pts[before], pts[before+1]))
	return vertex{x: pts[j], n1: o.normal(after), n2: o.normal(before), length: l}, 1 + end, true
}

func dist(a, b [2]float64) float64 { return norm(a[0]-b[0], a[1]-b[1]) }

// geometry returns the side's edges as an antagonist in the configuration.
func (a *Side) geometry(cfg Config, alert float64, w *passWork) antagonist {
	u := cfg.disp(a.Body)
	if len(w.X) != len(a.all) {
		w.X = make([][3][2]float64, len(a.all))
	}
	X := w.X
	g := antagonist{boxes: w.boxes[:0]}
	for k, e := range a.all {
		for i, n := range e.Nodes {
			X[k][i] = a.position(u, n)
		}
		if len(e.Nodes) == 2 {
			g.boxes = append(g.boxes, boxOf(X[k][0], X[k][1]).grow(alert))
		} else {
			// The parabola lies in the convex hull of its Bezier points:
			// the ends and 2 X_mid - (X_0 + X_1)/2.
			c := [2]float64{2*X[k][2][0] - (X[k][0][0]+X[k][1][0])/2, 2*X[k][2][1] - (X[k][0][1]+X[k][1][1])/2}
			g.boxes = append(g.boxes, boxOf(X[k][0], X[k][1], c).grow(alert))
		}
	}
	if len(w.vertices) != 2*len(a.all) {
		w.vertices = make([]vertexMemo, 2*len(a.all))
	}
	clear(w.vertices)
	w.side = sideShape{a: a, u: u, X: X, memo: w.vertices}
	g.shape = &w.side
	return g
}

// sideShape is a side's edges in a configuration, with the vertices at
// their ends as vertex finds them (each is asked for by every candidate
// near it).
type sideShape struct {
	a    *Side
	u    []float64
	X    [][3][2]float64
	memo []vertexMemo // by 2 k + end
}

type vertexMemo struct {
	v        vertex
	own      int
	ok, done bool
}

func (g *sideShape) project(k int, x [2]float64) projection {
	if len(g.a.all[k].Nodes) == 2 {
		return projectSegment(x, g.X[k][0], g.X[k][1])
	}
	return projectQuadratic(x, &g.X[k])
}

func (g *sideShape) vertex(k, end int) (vertex, int, bool) {
	m := &g.memo[2*k+end]
	if !m.done {
		m.v, m.own, m.ok = g.findVertex(k, end)
		m.done = true
	}
	return m.v, m.own, m.ok
}

func (g *sideShape) findVertex(k, end int) (vertex, int, bool) {
	a := g.a
	n := a.all[k].Nodes[end]
	c, found := a.corners[n]
	if !found || !c.ok {
		return vertex{}, 0, false
	}
	n1, l1 := a.edgeNormal(g.u, c.in, 1)
	n2, l2 := a.edgeNormal(g.u, c.out, 0)
	l := min(l1, l2)
	// Entry k ends at its second node (the face before it) and starts at
	// its first (the face after it).
	return vertex{x: g.X[k][end], n1: n1, n2: n2, length: l}, 2 - end, true
}

// project finds, for each node of the pass's candidate side (by local
// index), its antagonist point, or nil. direct holds the direct pass's
// points when ps is the reverse pass.
func (d *Detector) project(pi int, p *Pair, ps *pass, cfg Config, direct []*Point) ([]*Point, error) {
	c := ps.cand
	u := c.disp(cfg)
	ant := ps.geometry(p, cfg)
	w := ps.work
	g := &w.grid
	g.build(ant.boxes, len(c.nodes))
	if len(w.out) != len(c.nodes) {
		w.out, w.found = make([]*Point, len(c.nodes)), make([]Point, len(c.nodes))
	}
	out, found, near := w.out, w.found, w.near
	clear(out)
	w.valley = w.valley[:0]
	defer func() { w.near = near }()
	for li, n := range c.nodes {
		x := c.position(u, n)
		if math.IsNaN(x[0] + x[1]) {
			return nil, fmt.Errorf("contact pair %q: candidate %s of %s is at (%v, %v)", p.Name, c.Mesh.NodeAt(n), c.Mesh.Name, x[0], x[1])
		}
		near = g.near(near[:0], x)
		best, bestK := projection{}, -1
		for _, k := range near {
			if ps.ant != nil && ps.ant == c && slices.Contains(c.edge(k).Nodes, n) {
				continue // a node never contacts its own edges
			}
			pr := ant.project(k, x)
			if pr.dist <= p.Alert && (bestK < 0 || pr.better(best, p.Alert)) {
				best, bestK = pr, k
			}
		}
		if bestK < 0 {
			continue
		}
		if second, ok := valleyPoint(x, best, bestK, ant, near, p.Alert); ok && p.Law == Positional {
			first := best
			first.n = first.face
			first.gap = dot([2]float64{x[0] - first.xa[0], x[1] - first.xa[1]}, first.face)
			w.valley = append(w.valley, Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: second.xa, N: second.n,
				T: [2]float64{-second.n[1], second.n[0]}, Gap: second.gap, Edge: second.k, S: second.s})
			found[li] = Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: first.xa, N: first.n, T: [2]float64{-first.n[1], first.n[0]},
				Gap: first.gap, Edge: bestK, S: first.s}
			out[li] = &found[li]
			continue
		}
		best = atVertex(x, best, bestK, ant, func() [][2]float64 {
			n1, n2, ok := c.faces(u, n)
			if !ok {
				return nil
			}
			w.own = [2][2]float64{n1, n2} // no slice to allocate per node
			return w.own[:]
		})
		if ps.reverse && best.gap >= -reverseDepth*ps.weights[li][0].P/c.thickness && p.Candidate.redundant(direct, ps.ant.edge(bestK), best.s, n, p.Antagonist, u) {
			continue
		}
		found[li] = Point{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Xa: best.xa, N: best.n, T: [2]float64{-best.n[1], best.n[0]},
			Gap: best.gap, Edge: bestK, S: best.s}
		out[li] = &found[li]
	}
	return out, nil
}

// atVertex applies vertexFrame when the closest point of x on entry k is
// within the vertex zone of its nearer end, or anywhere on the half of the
// entry next to a concave (valley) vertex: there the body is the union of
// the two faces' half-planes, and a point running along one face towards
// the valley must see the other face rising before it reaches it, or it
// enters that face by as much as it travels in a step. The antagonist must
// know the faces at that end. A frame on the entry's own face keeps the
// closest point; another frame moves it to the vertex. faces gives the
// outward normals of the candidate's own boundary at x (none for a point
// without one), asked for only when needed.
func atVertex(x [2]float64, pr projection, k int, ant antagonist, faces func() [][2]float64) projection {
	end := 0
	if pr.s > 0 {
		end = 1
	}
	v, own, ok := ant.vertex(k, end)
	if !ok || (cross(v.n1, v.n2) >= 0 && (1-math.Abs(pr.s))/2 > vertexZone) {
		return pr
	}
	nv, g, face := vertexFrame(x, v, faces())
	if face == own {
		pr.n, pr.gap = pr.face, (x[0]-pr.xa[0])*pr.face[0]+(x[1]-pr.xa[1])*pr.face[1]
		return pr
	}
	pr.n, pr.gap, pr.xa, pr.s = nv, g, v.x, float64(2*end-1)
	return pr
}

// valleyTurn is the smallest turn (rad) between the two faces of a
// concave antagonist vertex at which a candidate near it is held out of
// both faces (see valleyPoint). Below it one face suffices: the leak
// through the other is at most the turn times the step's travel, while the
// extra rows cost sweeps (measured on the colliding blocks: 0.04 rad
// quadrupled the sweeps at refine 4 for no gain in depth, 0.4 rad keeps
// them and cuts the refine-8 depth from 44 % to 8 % of a cell).
const valleyTurn = 0.4

// faceProjection is a candidate's projection on entry k's face: the
// closest point, the face's normal there and the signed distance along it.
type faceProjection struct {
	k      int
	xa, n  [2]float64
	gap, s float64
}

// valleyPoint: where the closest point of x on entry k lies on the half
// next to a concave vertex (a valley) whose faces turn by more than
// valleyTurn, the body there is the union of the two faces' half-planes:
// a point is out of it only when it is out of both. One constraint on the
// nearer face lets the point through the other one, by as much as it
// travels in a step (a sharp corner ploughing a notch into a softer face
// does so at every step). valleyPoint returns the point's projection on
// the other face, within the alert distance, to be held as well.
func valleyPoint(x [2]float64, pr projection, k int, ant antagonist, near []int, alert float64) (faceProjection, bool) {
	end := 0
	if pr.s > 0 {
		end = 1
	}
	v, _, ok := ant.vertex(k, end)
	if !ok || cross(v.n1, v.n2) > -math.Sin(valleyTurn) {
		return faceProjection{}, false
	}
	for _, k2 := range near {
		if k2 == k {
			continue
		}
		for e2 := range 2 {
			if v2, _, ok := ant.vertex(k2, e2); !ok || v2.x != v.x {
				continue
			}
			q := ant.project(k2, x)
			g := dot([2]float64{x[0] - q.xa[0], x[1] - q.xa[1]}, q.face)
			return faceProjection{k: k2, xa: q.xa, n: q.face, gap: g, s: q.s}, g <= alert
		}
	}
	return faceProjection{}, false
}

// smoothTurn is the largest turn (rad) between the two faces of a reverse
// candidate's boundary at which it counts as a smooth point: between two
// nodes of the other body held on it, its depth into the other body's
// straight edge is at most a quarter of that turn times the edge length
// (1 % of the edge).
const smoothTurn = 0.04

// redundant reports whether the reverse candidate b (a node of the side
// other, in other's displacement ub), whose closest point is at parameter
// at on edge e of this side, adds nothing to the direct pass: b lies next to
// a node of e that the direct pass paired with an edge of other holding b
// (node on node), or b is a smooth point of other's boundary under an edge
// e whose two ends the direct pass holds (then b cannot enter this body by
// more than the sagitta). Keeping such units only makes near-duplicate
// rows: a nearly singular Delassus operator that NLGS does not converge on.
func (s *Side) redundant(direct []*Point, e mesh.Edge, at float64, b int, other *Side, ub []float64) bool {
	if direct[s.local[e.Nodes[0]]] != nil && direct[s.local[e.Nodes[1]]] != nil && math.Abs(at) < 1 {
		n1, n2, ok := other.faces(ub, b)
		if !ok || math.Abs(math.Asin(max(-1, min(1, cross(n1, n2))))) <= smoothTurn && dot(n1, n2) > 0 {
			return true
		}
	}
	for i, a := range e.Nodes {
		if math.Abs(at-nodeParam[i])/2 > reverseSkip {
			continue
		}
		if q := direct[s.local[a]]; q != nil && slices.Contains(other.edge(q.Edge).Nodes, b) {
			return true
		}
	}
	return false
}

// nodeParam is the parameter of node i of an edge: -1, +1, then 0 for the
// mid-side node.
var nodeParam = [3]float64{-1, 1, 0}

func (s *Side) disp(cfg Config) []float64 { return cfg.disp(s.Body) }
