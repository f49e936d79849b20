package contact

import (
	"math"

	"github.com/fecontact/fecontact/element"
)

// projection is the closest point of one antagonist entry (an edge, an
// obstacle segment or a disc) to a candidate point.
type projection struct {
	dist float64    // distance to the closest point
	gap  float64    // signed gap along n
	n    [2]float64 // unit normal towards the free side
	face [2]float64 // the entry's own normal at the closest point
	xa   [2]float64 // closest point
	s    float64    // parameter of the closest point on the entry, in [-1, 1]
}

// better reports whether p should be preferred to q as a candidate's
// antagonist: nearer, and on a tie (a shared vertex) the larger gap.
func (p projection) better(q projection, scale float64) bool {
	if math.Abs(p.dist-q.dist) <= 1e-12*scale {
		return p.gap > q.gap
	}
	return p.dist < q.dist
}

// finish applies the convention at the ends of an entry: a candidate whose
// closest point is an end sees a rounded corner when it is outside the face
// or past the end (past the end and behind the face's line is outside a
// convex corner; counting it as penetration would push it out of nothing).
// beyond tells that the unclamped projection fell past the end.
func finish(x [2]float64, p projection, face [2]float64, beyond bool) projection {
	d := [2]float64{x[0] - p.xa[0], x[1] - p.xa[1]}
	p.dist = norm(d[0], d[1])
	p.n, p.face = face, face
	p.gap = d[0]*face[0] + d[1]*face[1]
	if (p.s == -1 || p.s == 1) && (p.gap > 0 || beyond) && p.dist > 0 {
		p.n = [2]float64{d[0] / p.dist, d[1] / p.dist}
		p.gap = p.dist
	}
	return p
}

// projectSegment projects x on the segment from a to b, whose free side is
// on the right (normal (dy, -dx)/L, the outward normal of a body edge).
func projectSegment(x, a, b [2]float64) projection {
	ex, ey := b[0]-a[0], b[1]-a[1]
	l2 := ex*ex + ey*ey
	raw := ((x[0]-a[0])*ex + (x[1]-a[1])*ey) / l2
	u := max(0, min(1, raw))
	l := math.Sqrt(l2)
	p := projection{s: 2*u - 1, xa: [2]float64{a[0] + u*ex, a[1] + u*ey}}
	return finish(x, p, [2]float64{ey / l, -ex / l}, raw < 0 || raw > 1)
}

// quadratic evaluates a 3-node edge (ends X[0], X[1], mid-side X[2]) and its
// first derivative at s.
func quadratic(X *[3][2]float64, s float64) (p, dp [2]float64) {
	var N, dN [3]float64
	element.EdgeShape(3, s, N[:], dN[:])
	for a := 0; a < 3; a++ {
		p[0] += N[a] * X[a][0]
		p[1] += N[a] * X[a][1]
		dp[0] += dN[a] * X[a][0]
		dp[1] += dN[a] * X[a][1]
	}
	return p, dp
}

// projectQuadratic projects x on a 3-node edge by Newton's method on
// (X(s) - x).X'(s) = 0 from the chord projection, clamped to [-1, 1]; where
// Newton meets negative curvature of the distance or does not converge, the
// best of 17 samples restarts it, and the two ends are always compared, so
// the answer is the global closest point for any parabolic edge.
func projectQuadratic(x [2]float64, X *[3][2]float64) projection {
	dist2 := func(s float64) float64 {
		p, _ := quadratic(X, s)
		return (p[0]-x[0])*(p[0]-x[0]) + (p[1]-x[1])*(p[1]-x[1])
	}
	second := [2]float64{X[0][0] + X[1][0] - 2*X[2][0], X[0][1] + X[1][1] - 2*X[2][1]}
	newton := func(s float64) (float64, bool) {
		for it := 0; it < 30; it++ {
			p, dp := quadratic(X, s)
			r := [2]float64{p[0] - x[0], p[1] - x[1]}
			f := r[0]*dp[0] + r[1]*dp[1]
			df := dp[0]*dp[0] + dp[1]*dp[1] + r[0]*second[0] + r[1]*second[1]
			if !(df > 0) {
				return s, false
			}
			next := max(-1, min(1, s-f/df))
			if math.Abs(next-s) < 1e-14 {
				return next, true
			}
			s = next
		}
		return s, false
	}
	chord := projectSegment(x, X[0], X[1])
	s, ok := newton(chord.s)
	if !ok {
		best := -1.0
		for k := 1; k <= 16; k++ {
			if c := -1 + float64(k)/8; dist2(c) < dist2(best) {
				best = c
			}
		}
		s, _ = newton(best)
	}
	for _, end := range []float64{-1, 1} {
		if dist2(end) < dist2(s) {
			s = end
		}
	}
	p, dp := quadratic(X, s)
	l := norm(dp[0], dp[1])
	// Past the end: the distance would still fall moving outwards.
	outward := s * ((x[0]-p[0])*dp[0] + (x[1]-p[1])*dp[1])
	return finish(x, projection{s: s, xa: p}, [2]float64{dp[1] / l, -dp[0] / l}, (s == -1 || s == 1) && outward > 0)
}

// projectDisc projects x on a circle of centre c and radius r, free space
// outside. At the centre the normal is taken as +y.
func projectDisc(x, c [2]float64, r float64) projection {
	d := [2]float64{x[0] - c[0], x[1] - c[1]}
	l := norm(d[0], d[1])
	n := [2]float64{0, 1}
	if l > 0 {
		n = [2]float64{d[0] / l, d[1] / l}
	}
	g := l - r
	return projection{dist: math.Abs(g), gap: g, n: n, face: n, xa: [2]float64{c[0] + r*n[0], c[1] + r*n[1]}}
}

// norm is the length of (x, y). Detection asks for it for every candidate
// and edge of every pass, twice a step: math.Hypot's scaling, which guards
// against overflow beyond 1e154, cost 5 % of a step of the colliding blocks
// at refine 1, for lengths that are those of bodies in metres.
func norm(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
