package contact

import (
	"fmt"
	"math"
	"slices"
)

// Pair declares that the nodes of a candidate Side may touch an antagonist:
// another Side (of another body, or of the same one) or an Obstacle.
type Pair struct {
	Name       string
	Candidate  *Side
	Antagonist *Side     // nil when Obstacle is set
	Obstacle   *Obstacle // nil when Antagonist is set
	Mu         float64   // Coulomb friction coefficient
	Basis      Basis
	Alert      float64 // alert distance, m

	weights [][]Weight // columns of P (pairing or lumped)
}

func (p *Pair) check() error {
	switch {
	case p.Candidate == nil:
		return fmt.Errorf("contact pair %q: no candidate side", p.Name)
	case (p.Antagonist == nil) == (p.Obstacle == nil):
		return fmt.Errorf("contact pair %q: give exactly one antagonist: a side or an obstacle", p.Name)
	case !(p.Mu >= 0) || math.IsInf(p.Mu, 0):
		return fmt.Errorf("contact pair %q: friction coefficient mu = %g must be finite and non-negative", p.Name, p.Mu)
	case !(p.Alert > 0) || math.IsInf(p.Alert, 0):
		return fmt.Errorf("contact pair %q: alert distance %g must be positive and finite", p.Name, p.Alert)
	case p.Basis != Nodal && p.Basis != Pairing:
		return fmt.Errorf("contact pair %q: unknown reaction basis %d", p.Name, p.Basis)
	}
	if p.Obstacle != nil {
		if err := p.Obstacle.check(); err != nil {
			return fmt.Errorf("contact pair %q: %w", p.Name, err)
		}
	}
	return nil
}

// Detector finds contacts for a list of pairs.
type Detector struct {
	Pairs []*Pair
}

// NewDetector checks the pairs and computes their pairing matrices.
func NewDetector(pairs ...*Pair) (*Detector, error) {
	for _, p := range pairs {
		if err := p.check(); err != nil {
			return nil, err
		}
		p.weights = p.Candidate.PairingMatrix()
		if p.Basis == Nodal {
			p.weights = Lump(p.weights)
		}
	}
	return &Detector{Pairs: pairs}, nil
}

// Config is the configuration detection looks at: the time (for obstacle
// motion) and each body's full displacement vector (2 per node), indexed by
// Side.Body; a nil or missing entry means the reference configuration.
type Config struct {
	Time float64
	Disp [][]float64
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
	Pair  int
	Node  int        // mesh node of the candidate side
	X, Xa [2]float64 // candidate position and its closest antagonist point
	N, T  [2]float64 // frame: normal towards the candidate's side, tangent
	Gap   float64
	Edge  int     // antagonist edge (index in its Side.Edges) or obstacle segment
	S     float64 // parameter on that edge, in [-1, 1]
}

// Key identifies a contact unit from one step to the next, for warm starts.
type Key struct {
	Pair, Node, Edge int
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
	Key     Key
	X       [2]float64 // position of node j
	N, T    [2]float64
	Gap     float64 // weighted gap sum_i P_ij g_i (m^3: P in m^2 times m)
	Weight  float64 // sum_i P_ij over the nodes i in contact (m^2)
	Mu      float64
	Entries []Entry    // sorted by (Body, Eq)
	Rigid   [2]float64 // obstacle velocity term at the configuration's time
	// ObsN, ObsT are sum_i P_ij n_i and sum_i P_ij t_i: the rigid term of an
	// obstacle moving at v is (-ObsN.v, -ObsT.v) (see RigidAt).
	ObsN, ObsT [2]float64
}

// RigidAt is the unit's obstacle term for an obstacle velocity v.
func (u *Unit) RigidAt(v [2]float64) [2]float64 {
	return [2]float64{-(u.ObsN[0]*v[0] + u.ObsN[1]*v[1]), -(u.ObsT[0]*v[0] + u.ObsT[1]*v[1])}
}

// Detect finds every candidate node within the alert distance of its
// antagonist and builds the contact units. Points are in pair and node
// order, units in pair and node order: the result does not depend on map
// order or timing.
func (d *Detector) Detect(cfg Config) ([]Unit, []Point, error) {
	var units []Unit
	var points []Point
	for _, p := range d.Pairs {
		units = slices.Grow(units, len(p.weights))
	}
	for pi, p := range d.Pairs {
		pts, err := d.project(pi, p, cfg)
		if err != nil {
			return nil, nil, err
		}
		units = d.units(units, pi, p, pts, cfg)
		for _, q := range pts {
			if q != nil {
				points = append(points, *q)
			}
		}
	}
	return units, points, nil
}

// entries returns the grown boxes of the pair's antagonist entries (edges,
// obstacle segments or a disc) in the configuration, and their projection.
func (p *Pair) entries(cfg Config) (boxes []box, project func(k int, x [2]float64) projection) {
	if a := p.Antagonist; a != nil {
		u := cfg.disp(a.Body)
		X := make([][3][2]float64, len(a.Edges))
		for k, e := range a.Edges {
			for i, n := range e.Nodes {
				X[k][i] = a.position(u, n)
			}
			if len(e.Nodes) == 2 {
				boxes = append(boxes, boxOf(X[k][0], X[k][1]).grow(p.Alert))
			} else {
				// The parabola lies in the convex hull of its Bezier points:
				// the ends and 2 X_mid - (X_0 + X_1)/2.
				c := [2]float64{2*X[k][2][0] - (X[k][0][0]+X[k][1][0])/2, 2*X[k][2][1] - (X[k][0][1]+X[k][1][1])/2}
				boxes = append(boxes, boxOf(X[k][0], X[k][1], c).grow(p.Alert))
			}
		}
		return boxes, func(k int, x [2]float64) projection {
			if len(a.Edges[k].Nodes) == 2 {
				return projectSegment(x, X[k][0], X[k][1])
			}
			return projectQuadratic(x, &X[k])
		}
	}
	o := p.Obstacle
	off := o.motion().Offset(cfg.Time)
	if o.Radius > 0 {
		c := [2]float64{o.Center[0] + off[0], o.Center[1] + off[1]}
		r := [2]float64{o.Radius, o.Radius}
		boxes = []box{boxOf([2]float64{c[0] - r[0], c[1] - r[1]}, [2]float64{c[0] + r[0], c[1] + r[1]}).grow(p.Alert)}
		return boxes, func(_ int, x [2]float64) projection { return projectDisc(x, c, o.Radius) }
	}
	pts := make([][2]float64, len(o.Points))
	for i, q := range o.Points {
		pts[i] = [2]float64{q[0] + off[0], q[1] + off[1]}
	}
	for k := 0; k+1 < len(pts); k++ {
		boxes = append(boxes, boxOf(pts[k], pts[k+1]).grow(p.Alert))
	}
	return boxes, func(k int, x [2]float64) projection {
		// The free side is on the left of the polyline: project on the
		// reversed segment, whose right is that side, and flip s back.
		pr := projectSegment(x, pts[k+1], pts[k])
		pr.s = -pr.s
		return pr
	}
}

// project finds, for each candidate node (by local index), its antagonist
// point, or nil.
func (d *Detector) project(pi int, p *Pair, cfg Config) ([]*Point, error) {
	c := p.Candidate
	u := c.disp(cfg)
	boxes, project := p.entries(cfg)
	g := newGrid(boxes)
	out := make([]*Point, len(c.Nodes))
	found := make([]Point, len(c.Nodes)) // one allocation for all points
	var near []int
	for li, n := range c.Nodes {
		x := c.position(u, n)
		if math.IsNaN(x[0] + x[1]) {
			return nil, fmt.Errorf("contact pair %q: candidate %s of %s is at (%v, %v)", p.Name, c.Mesh.NodeAt(n), c.Mesh.Name, x[0], x[1])
		}
		near = g.near(near[:0], x)
		best, bestK := projection{}, -1
		for _, k := range near {
			if p.Antagonist != nil && p.Antagonist == c && slices.Contains(c.Edges[k].Nodes, n) {
				continue // a node never contacts its own edges
			}
			pr := project(k, x)
			if pr.dist <= p.Alert && (bestK < 0 || pr.better(best, p.Alert)) {
				best, bestK = pr, k
			}
		}
		if bestK >= 0 {
			found[li] = Point{Pair: pi, Node: n, X: x, Xa: best.xa, N: best.n, T: [2]float64{-best.n[1], best.n[0]},
				Gap: best.gap, Edge: bestK, S: best.s}
			out[li] = &found[li]
		}
	}
	return out, nil
}

func (s *Side) disp(cfg Config) []float64 { return cfg.disp(s.Body) }
