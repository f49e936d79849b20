package analytic

import "math"

// HertzCylinder is the frictionless contact of a rigid cylinder of radius R
// pressed with force P per unit thickness into an elastic half-space in
// plane strain (Johnson, Contact Mechanics, 1985, section 5.6 with one body
// rigid): half-width a = sqrt(4 P R / (pi E*)), E* = E / (1 - nu^2), and the
// pressure p(x) = p0 sqrt(1 - x^2/a^2) with p0 = 2P / (pi a).
type HertzCylinder struct{ R, E, Nu, P float64 }

// HalfWidth is a.
func (h HertzCylinder) HalfWidth() float64 {
	es := h.E / (1 - h.Nu*h.Nu)
	return math.Sqrt(4 * h.P * h.R / (math.Pi * es))
}

// Pressure is p at distance x from the centre of contact.
func (h HertzCylinder) Pressure(x float64) float64 {
	a := h.HalfWidth()
	if math.Abs(x) >= a {
		return 0
	}
	return 2 * h.P / (math.Pi * a) * math.Sqrt(1-x*x/(a*a))
}
