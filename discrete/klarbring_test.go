package discrete_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/timestep"
)

// klarbring is Klarbring's system of [L] (seeds/004): a unit mass on
// springs of stiffness K = [[K_t, W], [W, K_n]], under a constant force
// (F_t, F_n), against a plane with Coulomb friction, the inelastic
// (velocity Signorini) impact law. [L] counts U_n and F_n into the plane
// and R_n <= 0; here y is up, the plane's solid below y = 0, so U_n = -y,
// F_n = -F_y, R_n = -R_y, and W changes sign in the (x, y) stiffness.
type klarbring struct {
	kt, kn, w, ft, fn, mu float64
}

// a is [L]'s A = K_t F_n - W F_t: contact equilibria exist only for A >= 0.
func (k klarbring) a() float64 { return k.kt*k.fn - k.w*k.ft }

// run starts the mass on the plane at U = u0 with velocity v0 (in [L]'s
// (t, n) components) and returns the mass, its final reaction (R_t, R_n)
// averaged over the last 100 steps, and the simulation.
func (k klarbring) run(t *testing.T, u0, v0 [2]float64, damping float64, steps int) (*discrete.Mass, [2]float64) {
	t.Helper()
	// A matrix spring acts on the displacement from where the mass is
	// given: started at U0, the springs' force -K (u + U0) is -K u plus
	// the constant -K U0, added to F.
	kx := [2][2]float64{{k.kt, -k.w}, {-k.w, k.kn}}
	x0 := [2]float64{u0[0], -u0[1]}
	f := [2]float64{k.ft - kx[0][0]*x0[0] - kx[0][1]*x0[1], -k.fn - kx[1][0]*x0[0] - kx[1][1]*x0[1]}
	m := &discrete.Mass{Name: "m", M: 1, X: x0, V: [2]float64{v0[0], -v0[1]}, Force: f}
	plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-100, 0}, {100, 0}}}
	sys, err := discrete.NewSystem([]*discrete.Mass{m},
		[]discrete.Spring{{Name: "K", A: 0, B: discrete.Anchored, Anchor: [2]float64{0, 0}, Matrix: &kx, Damping: damping}},
		[]discrete.Contact{{Name: "plane", Obstacle: plane, Mu: k.mu, Law: contact.Shock, Alert: 1e-3}})
	require.NoError(t, err)
	var r [2]float64
	simulate(t, sys, 1e-3, 0.5, steps, func(i int, sim *timestep.Simulation) {
		if i >= steps-100 {
			for _, c := range sim.Contacts() {
				f := sim.Force(c)
				r[0] += f[0] / 100
				r[1] -= f[1] / 100
			}
		}
	})
	return m, r
}

// TestKlarbring checks one stability verdict of [L] per case of A and mu,
// by runs of the dynamics after a perturbation (K_t = K_n = 1, W = 0.5:
// K_t / W = 2):
//   - A > 0 (F = (0, 1)): the equilibria in contact are the segment of the
//     line K_t R_n - W R_t = -A inside the cone |R_t| <= mu |R_n|; a
//     strictly stuck one (R = (0, -1), mu = 0.5) perturbed by a tangential
//     velocity of 0.1 comes to rest at another equilibrium nearby
//     (Lyapunov stable): at rest, in contact, its reaction on the line and
//     in the cone;
//   - A = 0 (F = (2, 1)) and mu = 0.3 < K_t / W: the single equilibrium
//     is the cone's vertex, U = (F_t / K_t, 0), R = 0 (grazing); after a
//     tangential perturbation the mass comes back to it (asymptotically
//     stable), to 1e-3 of the perturbation's reach, with no damping but
//     friction;
//   - A < 0 (F = (2, 0.5)), mu = 0.3: no equilibrium in contact; the mass
//     started on the plane leaves it and, with a dashpot, settles at
//     U = K^-1 F, off the plane (U_n = A / det K < 0).
func TestKlarbring(t *testing.T) {
	t.Run("A>0 stuck", func(t *testing.T) {
		k := klarbring{kt: 1, kn: 1, w: 0.5, ft: 0, fn: 1, mu: 0.5}
		require.Positive(t, k.a())
		// The equilibrium R = (0, -1): U_t = (F_t + R_t) / K_t = 0, U_n = 0.
		m, r := k.run(t, [2]float64{0, 0}, [2]float64{0.1, 0}, 0, 20000)
		assert.Less(t, math.Hypot(m.V[0], m.V[1]), 1e-9, "at rest")
		assert.InDelta(t, 0, m.X[1], 1e-9, "in contact")
		assert.InDelta(t, -k.a(), k.kt*r[1]-k.w*r[0], 1e-6, "on the equilibrium line: R = %v", r)
		assert.Less(t, math.Abs(r[0]), k.mu*math.Abs(r[1]), "in the cone")
		assert.Less(t, r[1], 0.0)
		assert.Less(t, math.Abs(m.X[0]), 0.1, "near the equilibrium it left: U_t = %g", m.X[0])
	})
	t.Run("A=0 grazing", func(t *testing.T) {
		k := klarbring{kt: 1, kn: 1, w: 0.5, ft: 2, fn: 1, mu: 0.3}
		require.Zero(t, k.a())
		vertex := k.ft / k.kt
		m, r := k.run(t, [2]float64{vertex, 0}, [2]float64{-0.1, 0}, 0, 60000)
		t.Logf("U = (%g, %g), V = %v, R = %v", m.X[0], -m.X[1], m.V, r)
		assert.InDelta(t, vertex, m.X[0], 1e-4, "back at the vertex")
		assert.InDelta(t, 0, m.X[1], 1e-4)
		assert.InDelta(t, 0, math.Hypot(r[0], r[1]), 1e-3, "no reaction")
	})
	t.Run("A<0 lifts off", func(t *testing.T) {
		k := klarbring{kt: 1, kn: 1, w: 0.5, ft: 2, fn: 0.5, mu: 0.3}
		require.Negative(t, k.a())
		det := k.kt*k.kn - k.w*k.w
		ut, un := (k.kn*k.ft-k.w*k.fn)/det, k.a()/det
		m, r := k.run(t, [2]float64{0, 0}, [2]float64{0, 0}, 1.5, 40000)
		assert.InDelta(t, ut, m.X[0], 1e-6, "U_t = K^-1 F")
		assert.InDelta(t, un, -m.X[1], 1e-6, "U_n = A / det K, off the plane")
		assert.Zero(t, r)
	})
}
