package element

import (
	"fmt"

	"github.com/fecontact/fecontact/mesh"
)

// Point is a quadrature point in reference coordinates with its weight.
type Point struct {
	X [2]float64
	W float64
}

// gauss1D holds Gauss-Legendre points and weights on [-1,1], n = 1..4.
var gauss1D = [][][2]float64{
	1: {{0, 2}},
	2: {{-0.5773502691896257, 1}, {0.5773502691896257, 1}},
	3: {{-0.7745966692414834, 5.0 / 9}, {0, 8.0 / 9}, {0.7745966692414834, 5.0 / 9}},
	4: {{-0.8611363115940526, 0.3478548451374538}, {-0.3399810435848563, 0.6521451548625461},
		{0.3399810435848563, 0.6521451548625461}, {0.8611363115940526, 0.3478548451374538}},
}

// Line returns the n-point Gauss-Legendre rule on [-1,1] (n = 1..4), exact
// for polynomials of degree 2n-1, as points with X[1] = 0.
func Line(n int) []Point {
	if n < 1 || n >= len(gauss1D) {
		panic(fmt.Sprintf("element: Line(%d): 1 to 4 points", n))
	}
	out := make([]Point, n)
	for i, p := range gauss1D[n] {
		out[i] = Point{X: [2]float64{p[0], 0}, W: p[1]}
	}
	return out
}

// RuleDegree returns a rule for kind k exact for polynomials of the given
// degree on the reference cell (up to 7 for quadrangles, 5 for triangles).
func RuleDegree(k mesh.Kind, degree int) []Point {
	if !k.IsTriangle() {
		n := (degree + 2) / 2
		if n < 1 {
			n = 1
		}
		g := Line(n)
		out := make([]Point, 0, n*n)
		for _, py := range g {
			for _, px := range g {
				out = append(out, Point{X: [2]float64{px.X[0], py.X[0]}, W: px.W * py.W})
			}
		}
		return out
	}
	switch {
	case degree <= 1:
		return []Point{{[2]float64{1.0 / 3, 1.0 / 3}, 0.5}}
	case degree == 2:
		return triSym(nil, 1.0/6, 1.0/6)
	case degree <= 4: // Dunavant, 6 points
		out := triSym(nil, 0.445948490915965, 0.223381589678011/2)
		return triSym(out, 0.091576213509771, 0.109951743655322/2)
	case degree == 5: // Dunavant, 7 points
		out := []Point{{[2]float64{1.0 / 3, 1.0 / 3}, 0.225 / 2}}
		out = triSym(out, 0.470142064105115, 0.132394152788506/2)
		return triSym(out, 0.101286507323456, 0.125939180544827/2)
	}
	panic(fmt.Sprintf("element: no triangle rule of degree %d", degree))
}

// triSym appends the three points (a,a), (1-2a,a), (a,1-2a) of weight w.
func triSym(dst []Point, a, w float64) []Point {
	return append(dst, Point{[2]float64{a, a}, w}, Point{[2]float64{1 - 2*a, a}, w}, Point{[2]float64{a, 1 - 2*a}, w})
}

// DefaultRule is the rule used for stiffness, mass and loads: exact for the
// consistent mass of an affine cell (degree 2 for T3 and Q4, 4 for T6 and
// Q8), which also integrates the stiffness of affine cells exactly.
func DefaultRule(k mesh.Kind) []Point {
	return RuleDegree(k, 2*k.Order())
}
