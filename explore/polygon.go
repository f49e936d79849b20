package explore

import (
	"math"
	"slices"
)

// Hull returns the convex hull of points, counter-clockwise, dropping
// points within tol of the previous hull vertex (Andrew's monotone chain).
// Collinear points give a segment (two points), coincident ones a point.
func Hull(points [][2]float64, tol float64) [][2]float64 {
	p := slices.Clone(points)
	slices.SortFunc(p, func(a, b [2]float64) int {
		if a[0] != b[0] {
			return cmpf(a[0], b[0])
		}
		return cmpf(a[1], b[1])
	})
	p = slices.CompactFunc(p, func(a, b [2]float64) bool { return math.Hypot(a[0]-b[0], a[1]-b[1]) <= tol })
	if len(p) < 3 {
		return p
	}
	var h [][2]float64
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], q) <= tol*dist(h[len(h)-2], q) {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		slices.Reverse(p)
	}
	return h
}

func cmpf(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// cross is (b - a) x (c - a).
func cross(a, b, c [2]float64) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// Area is a polygon's area (counter-clockwise: positive).
func Area(poly [][2]float64) float64 {
	var a float64
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}

// Distance is how far x lies outside a convex polygon (counter-clockwise;
// a segment or a point also do): 0 inside or on it.
func Distance(poly [][2]float64, x [2]float64) float64 {
	if len(poly) == 1 {
		return dist(poly[0], x)
	}
	inside := len(poly) >= 3
	d := math.Inf(1)
	for i, a := range poly {
		b := poly[(i+1)%len(poly)]
		if cross(a, b, x) < 0 {
			inside = false
		}
		e := [2]float64{b[0] - a[0], b[1] - a[1]}
		s := math.Max(0, math.Min(1, ((x[0]-a[0])*e[0]+(x[1]-a[1])*e[1])/(e[0]*e[0]+e[1]*e[1])))
		d = math.Min(d, dist(x, [2]float64{a[0] + s*e[0], a[1] + s*e[1]}))
	}
	if inside {
		return 0
	}
	return d
}

// Coverage measures how much of the admissible polygon the dots cover:
// the area of their hull over the polygon's, or for a polygon that is a
// segment the length of their spread along it over its length; and how
// many dots lie farther outside it than tol, and the farthest.
func Coverage(poly, dots [][2]float64, tol float64) (fraction float64, outside int, farthest float64) {
	for _, x := range dots {
		d := Distance(poly, x)
		farthest = math.Max(farthest, d)
		if d > tol {
			outside++
		}
	}
	if len(poly) >= 3 && Area(poly) > 0 {
		h := Hull(dots, 0)
		if len(h) >= 3 {
			fraction = Area(h) / Area(poly)
		}
		return fraction, outside, farthest
	}
	if len(poly) == 2 {
		a, b := poly[0], poly[1]
		l := dist(a, b)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range dots {
			s := ((x[0]-a[0])*(b[0]-a[0]) + (x[1]-a[1])*(b[1]-a[1])) / l
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
		if hi > lo {
			fraction = (hi - lo) / l
		}
	}
	return fraction, outside, farthest
}
