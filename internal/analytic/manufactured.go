package analytic

import "math"

// Manufactured is a smooth static displacement field for linear elasticity,
//
//	u_x = sin(a x) cos(b y),  u_y = cos(c x) sin(d y),
//
// with the body force that balances it, f = -div(D eps(u)), derived by hand
// from Navier's equations with the 2D constitutive matrix D (entries D00 =
// D11, D01, D22 = shear modulus). Imposing u on the boundary and applying f
// gives a problem whose exact solution is u (the method of manufactured
// solutions, Roache 2002).
type Manufactured struct {
	A, B, C, D float64
	// D00, D01, D22 of the material's stress-strain matrix.
	D00, D01, G float64
}

// U is the displacement at x.
func (m Manufactured) U(x [2]float64) [2]float64 {
	return [2]float64{
		math.Sin(m.A*x[0]) * math.Cos(m.B*x[1]),
		math.Cos(m.C*x[0]) * math.Sin(m.D*x[1]),
	}
}

// F is the body force density at x.
func (m Manufactured) F(x [2]float64) [2]float64 {
	sa, ca := math.Sin(m.A*x[0]), math.Cos(m.A*x[0])
	cb, sb := math.Cos(m.B*x[1]), math.Sin(m.B*x[1])
	cc, sc := math.Cos(m.C*x[0]), math.Sin(m.C*x[0])
	sd, cd := math.Sin(m.D*x[1]), math.Cos(m.D*x[1])
	// Second derivatives of u_x and u_y.
	uxx := -m.A * m.A * sa * cb
	uyy := -m.B * m.B * sa * cb
	uxy := -m.A * m.B * ca * sb
	vxx := -m.C * m.C * cc * sd
	vyy := -m.D * m.D * cc * sd
	vxy := -m.C * m.D * sc * cd
	// div sigma: sxx,x + sxy,y and sxy,x + syy,y.
	fx := m.D00*uxx + m.D01*vxy + m.G*(uyy+vxy)
	fy := m.G*(uxy+vxx) + m.D01*uxy + m.D00*vyy
	return [2]float64{-fx, -fy}
}
