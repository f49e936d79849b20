package analytic

import "math"

// CantileverPeriod is the first natural period of a clamped-free
// Euler-Bernoulli beam of length L, Young's modulus E, second moment of
// area I, density rho and cross-section A: omega_1 = beta_1^2 sqrt(E I /
// (rho A L^4)) with beta_1 = 1.8751040687 the first root of
// 1 + cos(b) cosh(b) = 0 (e.g. Meirovitch, Elements of Vibration Analysis).
func CantileverPeriod(L, E, I, rho, A float64) float64 {
	const beta1 = 1.8751040687119611
	omega := beta1 * beta1 * math.Sqrt(E*I/(rho*A*math.Pow(L, 4)))
	return 2 * math.Pi / omega
}
