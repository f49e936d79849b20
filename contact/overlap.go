package contact

import (
	"math"

	"github.com/fecontact/fecontact/mesh"
)

// Overlap is a node of a pair's side found inside the other body, or inside
// the obstacle, in some configuration.
type Overlap struct {
	Pair    int
	Reverse bool // a node of the antagonist side inside the candidate's body
	Node    int  // mesh node of the body it belongs to
	X       [2]float64
	Depth   float64 // distance to the other body's boundary, m
}

// Overlaps returns, for each pair whose deepest node lies inside the other
// body or the obstacle by more than the pair's alert distance, that node.
// Detection only looks within the alert distance, so such a node is never
// found by Detect: the contact has been missed (bodies that start
// interpenetrated, an obstacle polyline listed the wrong way round, a body
// that moved farther than the alert distance in one step).
func (d *Detector) Overlaps(cfg Config, every bool) []Overlap {
	return d.Missed(d.Deepest(cfg, every))
}

// Missed returns those of deep, Deepest's result, that lie deeper than
// their pair's alert distance: contacts that detection cannot see.
func (d *Detector) Missed(deep []Overlap) []Overlap {
	var out []Overlap
	for _, o := range deep {
		if o.Depth > d.Pairs[o.Pair].Alert {
			out = append(out, o)
		}
	}
	return out
}

// Deepest returns, for each pair in order, its deepest node inside the other
// body or the obstacle: a node of the candidate side, or for a pair of
// sides of either side (Reverse, one-way pairs included), whatever the
// contact units say; Depth 0
// when none is inside. It measures what the contact law promises (no
// interpenetration) independently of the units' linearised gaps. The test
// is exact for straight edges and takes quadratic edges as two chords.
//
// With every set, all nodes of the bodies are tested, not only those of the
// pair's sides: a body that starts wholly inside an obstacle has its
// candidate nodes on the obstacle's surface, and only its other nodes show
// it. That costs nodes x boundary edges: for the first configuration.
//
// The slice is the Detector's, valid until the next call.
func (d *Detector) Deepest(cfg Config, every bool) []Overlap {
	d.deepest = d.deepest[:0]
	for pi, p := range d.Pairs {
		worst := Overlap{Pair: pi}
		for _, ps := range p.measured {
			g, u := d.gaugeFor(p, &ps, cfg), ps.cand.disp(cfg)
			nodes := ps.cand.nodes
			if every {
				nodes = make([]int, len(ps.cand.Mesh.Nodes))
				for i := range nodes {
					nodes[i] = i
				}
			}
			for _, n := range nodes {
				x := ps.cand.position(u, n)
				if dep := g.depth(x); dep > worst.Depth {
					worst = Overlap{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Depth: dep}
				}
			}
		}
		d.deepest = append(d.deepest, worst)
	}
	return d.deepest
}

// DepthsTo sets dst[b][n] to the depth of node n of body b (indexed like
// Config.Disp and Side.Body) inside the other body or the obstacle of any
// pair whose side it is on, the largest if several (Deepest's measure);
// other entries are left as they are. Each dst[b] of a body with a side
// holds one entry per node of its mesh.
func (d *Detector) DepthsTo(dst [][]float64, cfg Config) {
	for _, p := range d.Pairs {
		for _, ps := range p.measured {
			g, u := d.gaugeFor(p, &ps, cfg), ps.cand.disp(cfg)
			out := dst[ps.cand.Body]
			for _, n := range ps.cand.nodes {
				out[n] = max(out[n], g.depth(ps.cand.position(u, n)))
			}
		}
	}
}

// gaugeFor sets the Detector's gauge to what pass ps of pair p measures
// its candidates against in cfg: the other body, or the obstacle.
func (d *Detector) gaugeFor(p *Pair, ps *pass, cfg Config) *gauge {
	g := &d.gauge
	if ps.ant != nil {
		g.setBody(d.boundary(ps.ant.Mesh), ps.ant.Mesh, ps.ant.disp(cfg))
	} else {
		g.setObstacle(p.Obstacle, cfg)
	}
	return g
}

// boundary returns the mesh's boundary edges, computed once.
func (d *Detector) boundary(m *mesh.Mesh) []mesh.Edge {
	if _, ok := d.boundaries[m]; !ok {
		d.boundaries[m] = m.BoundaryEdges()
	}
	return d.boundaries[m]
}

// gauge measures the depth of points inside one body or obstacle in one
// configuration (0 outside). It runs every step, so its storage is kept
// from one configuration to the next.
type gauge struct {
	// A body: its boundary as segments (quadratic edges as two chords).
	segs    [][2][2]float64
	lo, hi  [2]float64 // the body's bounding box
	body    bool
	grid    segGrid // over segs, when there are many
	gridded bool
	indexed bool // grid holds segs: built for the first point inside the box

	// An obstacle: a disc, or the polyline pts, closed or not.
	disc   bool
	centre [2]float64
	radius float64
	pts    [][2]float64
	closed bool
}

// setBody sets g to the body of mesh m, displaced by u, with the given
// boundary edges: crossing parity over its boundary, then distance to it.
// A point outside the boundary's box, most of a side's nodes, is outside
// at once.
func (g *gauge) setBody(boundary []mesh.Edge, m *mesh.Mesh, u []float64) {
	*g = gauge{segs: g.segs[:0], pts: g.pts[:0], body: true, grid: g.grid}
	g.lo, g.hi = [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, e := range boundary {
		a := displaced(m, u, e.Nodes[0])
		g.lo = [2]float64{min(g.lo[0], a[0]), min(g.lo[1], a[1])}
		g.hi = [2]float64{max(g.hi[0], a[0]), max(g.hi[1], a[1])}
		if len(e.Nodes) == 3 {
			c := displaced(m, u, e.Nodes[2])
			g.lo = [2]float64{min(g.lo[0], c[0]), min(g.lo[1], c[1])}
			g.hi = [2]float64{max(g.hi[0], c[0]), max(g.hi[1], c[1])}
			g.segs = append(g.segs, [2][2]float64{a, c}, [2][2]float64{c, displaced(m, u, e.Nodes[1])})
		} else {
			g.segs = append(g.segs, [2][2]float64{a, displaced(m, u, e.Nodes[1])})
		}
	}
	g.gridded = len(g.segs) > gridSegments
}

// displaced is node n of m displaced by u (nil: in place).
func displaced(m *mesh.Mesh, u []float64, n int) [2]float64 {
	p := m.Nodes[n]
	if u != nil {
		p[0], p[1] = p[0]+u[2*n], p[1]+u[2*n+1]
	}
	return p
}

// gridSegments is the number of boundary segments above which the gauge
// indexes them in a grid: below it, testing them all costs less.
const gridSegments = 64

// setObstacle sets g to the obstacle o in cfg (nil, or one whose pose is
// missing, which Detect reports: nothing is inside).
func (g *gauge) setObstacle(o *Obstacle, cfg Config) {
	*g = gauge{segs: g.segs[:0], pts: g.pts[:0], grid: g.grid}
	if o == nil {
		return
	}
	place, _, err := o.place(cfg)
	if err != nil {
		return
	}
	if o.Radius > 0 {
		g.disc, g.centre, g.radius = true, place.at(o.Center), o.Radius
		return
	}
	for _, q := range o.Points {
		g.pts = append(g.pts, place.at(q))
	}
	g.closed = o.closed()
}

// depth returns the depth of x inside g's body or obstacle.
func (g *gauge) depth(x [2]float64) float64 {
	switch {
	case g.body:
		return g.bodyDepth(x)
	case g.disc:
		return max(0, g.radius-dist(x, g.centre))
	}
	return g.polylineDepth(x)
}

func (g *gauge) bodyDepth(x [2]float64) float64 {
	if x[0] <= g.lo[0] || x[0] >= g.hi[0] || x[1] <= g.lo[1] || x[1] >= g.hi[1] {
		return 0
	}
	if g.gridded {
		if !g.indexed {
			g.grid.build(g.segs, g.lo, g.hi)
			g.indexed = true
		}
		if !g.grid.inside(x, g.segs, g.lo, g.hi) {
			return 0
		}
		return math.Sqrt(g.grid.nearest2(x, g.segs))
	}
	inside := false
	for _, s := range g.segs {
		a, b := s[0], s[1]
		if (a[1] > x[1]) != (b[1] > x[1]) && x[0] < a[0]+(x[1]-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
			inside = !inside
		}
	}
	if !inside {
		return 0
	}
	d2 := math.Inf(1)
	for _, s := range g.segs {
		d2 = min(d2, segmentDist2(x, s[0], s[1]))
	}
	return math.Sqrt(d2)
}

// segmentDist2 is the squared distance from x to the segment ab.
func segmentDist2(x, a, b [2]float64) float64 {
	ex, ey := b[0]-a[0], b[1]-a[1]
	u := max(0, min(1, ((x[0]-a[0])*ex+(x[1]-a[1])*ey)/(ex*ex+ey*ey)))
	dx, dy := x[0]-a[0]-u*ex, x[1]-a[1]-u*ey
	return dx*dx + dy*dy
}

// polylineDepth: a polyline's obstacle is on its right, over its span: the
// sign comes from the nearest segment, or at a vertex from the sum of its
// two segments' normals; a point nearest a free end is beside it.
func (g *gauge) polylineDepth(x [2]float64) float64 {
	pts := g.pts
	last := len(pts) - 2
	right := func(k int) [2]float64 { // unit normal into the obstacle
		d := [2]float64{pts[k+1][0] - pts[k][0], pts[k+1][1] - pts[k][1]}
		l := math.Hypot(d[0], d[1])
		return [2]float64{d[1] / l, -d[0] / l}
	}
	best, side := math.Inf(1), 0.0
	for k := 0; k+1 < len(pts); k++ {
		a, b := pts[k], pts[k+1]
		ex, ey := b[0]-a[0], b[1]-a[1]
		u := ((x[0]-a[0])*ex + (x[1]-a[1])*ey) / (ex*ex + ey*ey)
		n := right(k)
		switch {
		case u < 0 && (k > 0 || g.closed):
			u, n = 0, add(n, right((k+last)%(last+1)))
		case u > 1 && (k < last || g.closed):
			u, n = 1, add(n, right((k+1)%(last+1)))
		case u < 0 || u > 1:
			// Past a free end: beside the obstacle, not in it.
			u = max(0, min(1, u))
			n = [2]float64{}
		}
		p := [2]float64{a[0] + u*ex, a[1] + u*ey}
		if d := dist(x, p); d < best {
			best, side = d, (x[0]-p[0])*n[0]+(x[1]-p[1])*n[1]
		}
	}
	if side > 0 {
		return best
	}
	return 0
}

func add(a, b [2]float64) [2]float64 { return [2]float64{a[0] + b[0], a[1] + b[1]} }

// maxSwept bounds the configurations Swept looks at between two.
const maxSwept = 64

// Swept looks between the configurations prev and cfg, a step's start and
// end, for side nodes that went through the other body or the obstacle:
// where some node of a pair's side moved farther than the pair's alert
// distance, it places both at configurations interpolated every half
// alert distance of the longest path (at most maxSwept) and returns, for
// each pair where a node lay deeper than its alert distance at one of
// them, the deepest such point. A body that crossed the other in a step
// and ended outside it, or exactly on its far boundary, is found no deeper
// than 0 at either end (Deepest): this is the tunnelling check that sees
// it. Paths shorter than the alert distance, those of any step that
// resolves its contacts, cost one distance per node.
func (d *Detector) Swept(prev, cfg Config) []Overlap {
	var out []Overlap
	for pi, p := range d.Pairs {
		worst := Overlap{Pair: pi}
		for _, ps := range p.measured {
			u0, u1 := ps.cand.disp(prev), ps.cand.disp(cfg)
			var far float64
			for _, n := range ps.cand.nodes {
				far = max(far, dist(ps.cand.position(u0, n), ps.cand.position(u1, n)))
			}
			if !(far > p.Alert) {
				continue
			}
			parts := min(int(math.Ceil(2*far/p.Alert)), maxSwept)
			for k := 1; k < parts; k++ {
				at := between(prev, cfg, float64(k)/float64(parts))
				g, u := d.gaugeFor(p, &ps, at), ps.cand.disp(at)
				for _, n := range ps.cand.nodes {
					x := ps.cand.position(u, n)
					if dep := g.depth(x); dep > worst.Depth {
						worst = Overlap{Pair: pi, Reverse: ps.reverse, Node: n, X: x, Depth: dep}
					}
				}
			}
		}
		if worst.Depth > p.Alert {
			out = append(out, worst)
		}
	}
	return out
}

// between interpolates the configurations a and b linearly at s in [0, 1]
// (displacements, poses and time).
func between(a, b Config, s float64) Config {
	c := Config{Time: a.Time + s*(b.Time-a.Time)}
	for i := range max(len(a.Disp), len(b.Disp)) {
		ua, ub := a.disp(i), b.disp(i)
		if ua == nil && ub == nil {
			c.Disp = append(c.Disp, nil)
			continue
		}
		u := make([]float64, max(len(ua), len(ub)))
		for k := range u {
			var x, y float64
			if ua != nil {
				x = ua[k]
			}
			if ub != nil {
				y = ub[k]
			}
			u[k] = x + s*(y-x)
		}
		c.Disp = append(c.Disp, u)
	}
	for i := range min(len(a.Poses), len(b.Poses)) {
		var q [3]float64
		for k := range q {
			q[k] = a.Poses[i][k] + s*(b.Poses[i][k]-a.Poses[i][k])
		}
		c.Poses = append(c.Poses, q)
	}
	return c
}
