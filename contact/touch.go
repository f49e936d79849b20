package contact

import (
	"math"

	"github.com/fecontact/fecontact/element"
)

// Touch is a disc's nearness to one face of an obstacle: what a point
// mass (package discrete) needs to make a contact unit.
type Touch struct {
	Disc int        // the index of the disc, in the slice given to Touches
	Face int        // the polyline's segment (its first point's index) or the side's edge; 0 for a disc obstacle
	S    float64    // the closest point's parameter on a side's edge, in [-1, 1] (Side.Rows)
	Gap  float64    // distance from the disc to the face, negative inside, m
	N    [2]float64 // unit normal from the obstacle towards the disc
	X    [2]float64 // the face's point closest to the disc's centre
}

// Disc is a point mass's contact disc: its centre X and radius R (0: a
// point), paired with a face within Alert of it.
type Disc struct {
	X        [2]float64
	R, Alert float64
}

// near tells whether a disc of radius r about a point projected as pr is
// within alert of the face: its gap at most alert, and its centre within
// alert + r of the face on either side (a centre deeper than that went
// through: it is nobody's unit).
func near(pr projection, r, alert float64) bool {
	return pr.gap-r <= alert && pr.dist <= alert+r
}

// Touches appends to dst, disc by disc, the faces of the obstacle,
// placed once in cfg, that each disc is within its alert distance of:
// each polyline segment whose closest point to the centre is inside it
// (two in a valley), or when none is, the closest vertex (a rounded
// convex corner); a disc obstacle is one face. A centre deeper inside
// than alert + r is not within reach. A carried obstacle needs its body's
// pose in cfg.
func (o *Obstacle) Touches(dst []Touch, discs []Disc, cfg Config) ([]Touch, error) {
	place, _, err := o.place(cfg)
	if err != nil {
		return dst, err
	}
	if o.Radius > 0 {
		c := place.at(o.Center)
		for i, d := range discs {
			if pr := projectDisc(d.X, c, o.Radius); near(pr, d.R, d.Alert) {
				dst = append(dst, Touch{Disc: i, Gap: pr.gap - d.R, N: pr.n, X: pr.xa})
			}
		}
		return dst, nil
	}
	shape := polylineShape{closed: o.closed(), pts: make([][2]float64, len(o.Points))}
	for k, q := range o.Points {
		shape.pts[k] = place.at(q)
	}
	for i, d := range discs {
		dst = shape.touches(dst, i, d)
	}
	return dst, nil
}

// touches appends disc i's faces of the placed polyline (Obstacle.Touches).
func (o *polylineShape) touches(dst []Touch, i int, d Disc) []Touch {
	best, bestK, interior := projection{dist: math.Inf(1)}, -1, false
	for k := 0; k+1 < len(o.pts); k++ {
		pr := o.project(k, d.X)
		if pr.s > -1 && pr.s < 1 {
			if near(pr, d.R, d.Alert) {
				dst = append(dst, Touch{Disc: i, Face: k, Gap: pr.gap - d.R, N: pr.n, X: pr.xa})
				interior = true
			}
			continue
		}
		if pr.better(best, 1) {
			best, bestK = pr, k
		}
	}
	if !interior && bestK >= 0 && near(best, d.R, d.Alert) {
		dst = append(dst, Touch{Disc: i, Face: bestK, Gap: best.gap - d.R, N: best.n, X: best.xa})
	}
	return dst
}

// Touches appends to dst, disc by disc, the edges of the side, placed
// once in cfg, that each disc is within its alert distance of: each edge
// whose closest point to the centre is inside it (two in a valley), or
// when none is, the closest vertex, where the side's corner rounds or
// keeps the normal in its faces' cone as for a node. It is a carried
// disk's rule (Obstacle.Carried), and what point masses (package
// discrete) need to touch a finite-element body; Rows gives a unit's rows
// on the side.
func (a *Side) Touches(dst []Touch, discs []Disc, cfg Config) []Touch {
	var reach float64
	for _, d := range discs {
		reach = max(reach, d.Alert+d.R)
	}
	w := &passWork{}
	ant := a.geometry(cfg, reach, w)
	w.grid.build(ant.boxes, len(discs))
	for i, d := range discs {
		a.discTouches(d.X, d.R, d.Alert, ant, w, func(k int, pr projection) {
			dst = append(dst, Touch{Disc: i, Face: k, S: pr.s, Gap: pr.gap - d.R, N: pr.n, X: pr.xa})
		})
	}
	return dst
}

// discTouches calls add with each edge of the side (ant, its grid built in
// w) that the disc of centre c and radius r touches within alert, and its
// projection: the interior ones, or the best vertex.
func (a *Side) discTouches(c [2]float64, r, alert float64, ant antagonist, w *passWork, add func(k int, pr projection)) {
	var best projection
	bestK, interior := -1, false
	for _, k := range w.grid.near(w.near[:0], c) {
		pr := ant.project(k, c)
		if pr.dist-r > alert {
			continue
		}
		if pr.s > -1 && pr.s < 1 {
			interior = true
			add(k, pr)
		} else if bestK < 0 || pr.better(best, alert) {
			best, bestK = pr, k
		}
	}
	if !interior && bestK >= 0 {
		add(bestK, atVertex(c, best, bestK, ant, func() [][2]float64 { return nil }))
	}
}

// Rows appends to es the rows of a touch on the side: -N_k n and -N_k t
// on the free DOFs of its edge's nodes k, for a unit of normal n and
// tangent t whose other body's rows are +n, +t; it returns the velocity
// term of the edge's driven DOFs in cfg (Config.Moving), the unit's
// Driven.
func (a *Side) Rows(es []Entry, t Touch, n, tg [2]float64, cfg Config) ([]Entry, [2]float64) {
	e := a.edge(t.Face)
	var N [3]float64
	element.EdgeShape(len(e.Nodes), t.S, N[:len(e.Nodes)], nil)
	var driven [2]float64
	for k, node := range e.Nodes {
		es = a.nodeRows(es, node, -N[k], n, tg, cfg.moving(a.Body), &driven)
	}
	return es, driven
}

// nodeRows appends f times n, t on node's free DOFs and adds f times n, t
// times the velocity of its driven ones (moving, nil for none) to driven.
func (a *Side) nodeRows(es []Entry, node int, f float64, n, tg [2]float64, moving []float64, driven *[2]float64) []Entry {
	for c := 0; c < 2; c++ {
		if eq := a.DOFs.Eq[2*node+c]; eq >= 0 {
			es = append(es, Entry{Body: a.Body, Eq: eq, N: f * n[c], T: f * tg[c]})
		} else if moving != nil {
			if v := moving[2*node+c]; v != 0 {
				driven[0] += f * n[c] * v
				driven[1] += f * tg[c] * v
			}
		}
	}
	return es
}
