package contact

import "math"

// Touch is a disc's nearness to one face of an obstacle: what a point
// mass (package discrete) needs to make a contact unit.
type Touch struct {
	Face int        // the polyline's segment (its first point's index); 0 for a disc obstacle
	Gap  float64    // distance from the disc to the face, negative inside, m
	N    [2]float64 // unit normal from the obstacle towards the disc
	X    [2]float64 // the face's point closest to the disc's centre
}

// near tells whether a disc of radius r about a point projected as pr is
// within alert of the face: its gap at most alert, and its centre within
// alert + r of the face on either side (a centre deeper than that went
// through: it is nobody's unit).
func near(pr projection, r, alert float64) bool {
	return pr.gap-r <= alert && pr.dist <= alert+r
}

// Touches appends to dst the faces of the obstacle, placed in cfg, that
// the disc of centre x and radius r (0: a point) is within alert of: each
// polyline segment whose closest point to x is inside it (two in a
// valley), or when none is, the closest vertex (a rounded convex corner);
// a disc obstacle is one face. A centre deeper inside than alert + r is
// not within reach. A carried obstacle needs its body's pose in cfg.
func (o *Obstacle) Touches(dst []Touch, x [2]float64, r, alert float64, cfg Config) ([]Touch, error) {
	place, _, err := o.place(cfg)
	if err != nil {
		return dst, err
	}
	if o.Radius > 0 {
		pr := projectDisc(x, place.at(o.Center), o.Radius)
		if near(pr, r, alert) {
			dst = append(dst, Touch{Gap: pr.gap - r, N: pr.n, X: pr.xa})
		}
		return dst, nil
	}
	shape := polylineShape{closed: o.closed()}
	for _, q := range o.Points {
		shape.pts = append(shape.pts, place.at(q))
	}
	best, bestK, interior := projection{dist: math.Inf(1)}, -1, false
	for k := 0; k+1 < len(shape.pts); k++ {
		pr := shape.project(k, x)
		if pr.s > -1 && pr.s < 1 {
			if near(pr, r, alert) {
				dst = append(dst, Touch{Face: k, Gap: pr.gap - r, N: pr.n, X: pr.xa})
				interior = true
			}
			continue
		}
		if pr.better(best, 1) {
			best, bestK = pr, k
		}
	}
	if !interior && bestK >= 0 && near(best, r, alert) {
		dst = append(dst, Touch{Face: bestK, Gap: best.gap - r, N: best.n, X: best.xa})
	}
	return dst, nil
}
