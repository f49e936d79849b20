package discrete

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
)

// Klarbring is the system of [L] (A. Leger, after Klarbring): a unit mass
// on linear springs of stiffness K = [[Kt, W], [W, Kn]] under a constant
// force (Ft, Fn), against a plane with Coulomb friction Mu and the
// inelastic impact law. [L] counts U_n and F_n into the plane, R_n <= 0,
// and U = 0 on the plane; System builds it with y up and the plane's solid
// below y = 0, so that U_n = -y, F_n = -F_y and R_n = -R_y.
type Klarbring struct {
	Kt, Kn, W, Ft, Fn, Mu float64
}

// A is [L]'s A = K_t F_n - W F_t: an equilibrium without contact exists
// only for A < 0, equilibria in contact only for A >= 0 or mu > K_t / W.
func (k Klarbring) A() float64 { return k.Kt*k.Fn - k.W*k.Ft }

// Free is the equilibrium without contact, U = K^-1 F in (t, n), and
// whether it is one (U_n < 0: off the plane).
func (k Klarbring) Free() (u [2]float64, ok bool) {
	det := k.Kt*k.Kn - k.W*k.W
	u = [2]float64{(k.Kn*k.Ft - k.W*k.Fn) / det, k.A() / det}
	return u, u[1] < 0
}

// Equilibria returns the equilibria in contact in the (R_t, R_n) plane
// ([L] eq. 6 with U_n = 0: the line K_t R_n - W R_t = -A, inside the
// cone |R_t| <= -mu R_n, R_n <= 0): none, the cone's vertex, a segment,
// or a half-line, which is cut where |R_n| reaches limit. Each
// equilibrium's displacement is U = ((F_t + R_t) / K_t, 0).
func (k Klarbring) Equilibria(limit float64) [][2]float64 {
	a := k.A()
	if k.W == 0 { // the line is R_n = -A / K_t
		rn := -a / k.Kt
		if rn > 0 {
			return nil
		}
		return [][2]float64{{k.Mu * rn, rn}, {-k.Mu * rn, rn}}
	}
	// On the line, R_t = (K_t R_n + A) / W is affine in R_n, and so are
	// the cone's two sides, R_t - mu R_n >= 0 and -mu R_n - R_t >= 0:
	// each keeps R_n on one side of a root.
	lo, hi := -limit, 0.0
	for _, side := range [][2]float64{ // alpha R_n + beta >= 0
		{k.Kt/k.W - k.Mu, a / k.W},
		{-k.Mu - k.Kt/k.W, -a / k.W},
	} {
		alpha, beta := side[0], side[1]
		switch {
		case alpha > 0:
			lo = math.Max(lo, -beta/alpha)
		case alpha < 0:
			hi = math.Min(hi, -beta/alpha)
		case beta < 0:
			return nil
		}
	}
	if lo > hi {
		return nil
	}
	at := func(rn float64) [2]float64 { return [2]float64{(k.Kt*rn + a) / k.W, rn} }
	if lo == hi {
		return [][2]float64{at(lo)}
	}
	return [][2]float64{at(lo), at(hi)}
}

// System builds the mass started at displacement u0 with velocity v0
// (both in [L]'s (t, n)), with a dashpot of the given coefficient on it
// (0: none) and the inelastic shock law. A matrix spring acts on the
// displacement from where the mass is given: the force -K U0 that the
// springs exert there joins F.
func (k Klarbring) System(u0, v0 [2]float64, damping float64) (*System, error) {
	kx := [2][2]float64{{k.Kt, -k.W}, {-k.W, k.Kn}}
	x0 := [2]float64{u0[0], -u0[1]}
	f := [2]float64{k.Ft - kx[0][0]*x0[0] - kx[0][1]*x0[1], -k.Fn - kx[1][0]*x0[0] - kx[1][1]*x0[1]}
	if x0[1] < 0 {
		return nil, fmt.Errorf("klarbring: U_n = %g: the mass must start on or off the plane (U_n <= 0)", u0[1])
	}
	m := &Mass{Name: "m", M: 1, X: x0, V: [2]float64{v0[0], -v0[1]}, Force: f}
	plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-1e3, 0}, {1e3, 0}}}
	return NewSystem([]*Mass{m},
		[]Spring{{Name: "K", A: 0, B: Anchored, Matrix: &kx, Damping: damping}},
		[]Contact{{Name: "plane", Obstacle: plane, Mu: k.Mu, Law: contact.Shock, Alert: 1e-3}})
}
