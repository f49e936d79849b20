package rigid

import (
	"math"
	"slices"
)

// touch is one contact point between two bodies: a point p of the
// candidate a, its closest point pb of the antagonist b, the normal n from
// b towards a and the gap (p - pb).n.
type touch struct {
	a, b   int
	p, pb  [2]float64
	n      [2]float64
	gap    float64
	fa, fb int        // features: a's vertex or clipped end, b's edge (0 for a disk)
	ca, cb [2]float64 // the centres of a and b (an image's is shifted)
	image  bool       // b (or a) is a periodic image
}

func sub(a, b [2]float64) [2]float64 { return [2]float64{a[0] - b[0], a[1] - b[1]} }
func dot(a, b [2]float64) float64    { return a[0]*b[0] + a[1]*b[1] }

// outward is the unit outward normal of the counter-clockwise edge p1 p2.
func outward(p1, p2 [2]float64) [2]float64 {
	d := sub(p2, p1)
	l := math.Hypot(d[0], d[1])
	return [2]float64{d[1] / l, -d[0] / l}
}

// maxSeparation returns the edge of P from which Q is farthest out (the
// separating axis test: positive when they are apart) and that distance,
// over the faces in only (all when nil).
func maxSeparation(P, Q [][2]float64, only ...int) (edge int, sep float64) {
	sep = math.Inf(-1)
	for i, p1 := range P {
		if only != nil && !slices.Contains(only, i) {
			continue
		}
		n := outward(p1, P[(i+1)%len(P)])
		s := math.Inf(1)
		for _, q := range Q {
			s = min(s, dot(sub(q, p1), n))
		}
		if s > sep {
			edge, sep = i, s
		}
	}
	return edge, sep
}

// polyPoly appends the contact points of polygons a and b (vertices A, B
// in place): the face of largest separation is the reference (a's unless
// b's separates more by more than tie, so that a resting pair does not
// flip between two equivalent references), the most opposed face of the
// other is clipped to its extent, and the clipped ends within alert are
// the points, on the other (the candidate). surfA and surfB, when not nil,
// are the faces of a one-sided ground (Body.Surface): the reference is then
// one of them whatever the other body's faces separate by, since the
// ground's corners at its joints are not corners of the ground.
func polyPoly(out []touch, a, b int, A, B [][2]float64, alert, tie float64, surfA, surfB []int) []touch {
	if _, s := maxSeparation(A, B); s > alert {
		return out
	}
	if _, s := maxSeparation(B, A); s > alert {
		return out
	}
	eA, sA := maxSeparation(A, B, surfA...)
	eB, sB := maxSeparation(B, A, surfB...)
	switch {
	case surfA != nil && surfB == nil:
		sB = math.Inf(-1)
	case surfB != nil && surfA == nil:
		sA = math.Inf(-1)
	}
	ref, inc, er, ra, ia := A, B, eA, a, b
	if sB > sA+tie {
		ref, inc, er, ra, ia = B, A, eB, b, a
	}
	r1, r2 := ref[er], ref[(er+1)%len(ref)]
	n := outward(r1, r2)
	tau := [2]float64{-n[1], n[0]}
	L := dot(sub(r2, r1), tau)
	k, least := 0, math.Inf(1)
	for i, p := range inc {
		if d := dot(outward(p, inc[(i+1)%len(inc)]), n); d < least {
			k, least = i, d
		}
	}
	i1, i2 := inc[k], inc[(k+1)%len(inc)]
	s1, s2 := dot(sub(i1, r1), tau), dot(sub(i2, r1), tau)
	lo, hi := 0.0, 1.0
	if ds := s2 - s1; math.Abs(ds) > 1e-12*L {
		la, lb := -s1/ds, (L-s1)/ds
		lo, hi = max(lo, min(la, lb)), min(hi, max(la, lb))
	} else if s1 < 0 || s1 > L {
		return out
	}
	if lo > hi {
		return out
	}
	ends, m := [2]float64{lo, hi}, 2
	if hi-lo <= 1e-9 {
		m = 1
	}
	for e, l := range ends[:m] {
		p := [2]float64{i1[0] + l*(i2[0]-i1[0]), i1[1] + l*(i2[1]-i1[1])}
		g := dot(sub(p, r1), n)
		if g > alert {
			continue
		}
		pb := [2]float64{p[0] - g*n[0], p[1] - g*n[1]}
		out = append(out, touch{a: ia, b: ra, p: p, pb: pb, n: n, gap: g, fa: 2*k + e, fb: er})
	}
	return out
}

// diskDisk appends the contact of disks a (centre ca, radius ra) and b.
func diskDisk(out []touch, a, b int, ca, cb [2]float64, ra, rb, alert float64) []touch {
	d := sub(ca, cb)
	l := math.Hypot(d[0], d[1])
	g := l - ra - rb
	if g > alert {
		return out
	}
	n := [2]float64{0, 1} // concentric: any direction
	if l > 0 {
		n = [2]float64{d[0] / l, d[1] / l}
	}
	p := [2]float64{ca[0] - ra*n[0], ca[1] - ra*n[1]}
	pb := [2]float64{cb[0] + rb*n[0], cb[1] + rb*n[1]}
	return append(out, touch{a: a, b: b, p: p, pb: pb, n: n, gap: g})
}

// diskPoly appends the contact of disk a (centre c, radius r) with
// polygon b (vertices B): at the polygon's closest point, whose normal
// turns around a vertex; a centre inside the polygon takes the face of
// largest separation.
func diskPoly(out []touch, a, b int, c [2]float64, r float64, B [][2]float64, alert float64) []touch {
	edge, sep := maxSeparation(B, [][2]float64{c})
	var n, x [2]float64
	var dist float64
	if sep <= 0 { // centre inside
		n = outward(B[edge], B[(edge+1)%len(B)])
		dist = sep
		x = [2]float64{c[0] - sep*n[0], c[1] - sep*n[1]}
	} else {
		dist = math.Inf(1)
		for i, p1 := range B {
			p2 := B[(i+1)%len(B)]
			d := sub(p2, p1)
			s := max(0, min(1, dot(sub(c, p1), d)/dot(d, d)))
			q := [2]float64{p1[0] + s*d[0], p1[1] + s*d[1]}
			if l := math.Hypot(c[0]-q[0], c[1]-q[1]); l < dist {
				dist, x, edge = l, q, i
			}
		}
		n = [2]float64{(c[0] - x[0]) / dist, (c[1] - x[1]) / dist}
	}
	g := dist - r
	if g > alert {
		return out
	}
	p := [2]float64{c[0] - r*n[0], c[1] - r*n[1]}
	return append(out, touch{a: a, b: b, p: p, pb: x, n: n, gap: g, fb: edge})
}
