package discrete_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/timestep"
)

// runKlarbring starts the mass at U = u0 with velocity v0 (in [L]'s
// (t, n)) and returns it and its reaction (R_t, R_n) averaged over the
// last 100 steps, checking the ledger at every step.
func runKlarbring(t *testing.T, k discrete.Klarbring, u0, v0 [2]float64, damping float64, steps int) (*discrete.Mass, [2]float64) {
	t.Helper()
	sys, err := k.System(u0, v0, damping)
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
	return sys.Masses[0], r
}

// TestKlarbring checks one stability verdict of [L] per case of A and mu
// (the five of TestKlarbringEquilibria),
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
//   - A = 0, mu = 3 > K_t / W: a strictly stuck equilibrium of the
//     half-line, perturbed, comes to rest at another nearby;
//   - A < 0 (F = (2, 0.5)), mu = 3: the impending slip equilibrium,
//     perturbed towards positive slip, is left for good: the mass lifts
//     off and swings about the equilibrium off the plane (unstable);
//   - A < 0, mu = 0.3: no equilibrium in contact; the mass
//     started on the plane leaves it and, with a dashpot, settles at
//     U = K^-1 F, off the plane (U_n = A / det K < 0).
func TestKlarbring(t *testing.T) {
	t.Run("A>0 stuck", func(t *testing.T) {
		k := discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 0, Fn: 1, Mu: 0.5}
		require.Positive(t, k.A())
		// The equilibrium R = (0, -1): U_t = (F_t + R_t) / K_t = 0, U_n = 0.
		m, r := runKlarbring(t, k, [2]float64{0, 0}, [2]float64{0.1, 0}, 0, 20000)
		assert.Less(t, math.Hypot(m.V[0], m.V[1]), 1e-9, "at rest")
		assert.InDelta(t, 0, m.X[1], 1e-9, "in contact")
		assert.InDelta(t, -k.A(), k.Kt*r[1]-k.W*r[0], 1e-6, "on the equilibrium line: R = %v", r)
		set := k.Equilibria(10)
		assert.True(t, set[0][1] < r[1] && r[1] < set[1][1], "R_n = %g strictly inside the set %v", r[1], set)
		assert.Less(t, math.Abs(m.X[0]), 0.1, "near the equilibrium it left: U_t = %g", m.X[0])
	})
	t.Run("A=0 grazing", func(t *testing.T) {
		k := discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 0.3}
		require.Zero(t, k.A())
		vertex := k.Ft / k.Kt
		m, r := runKlarbring(t, k, [2]float64{vertex, 0}, [2]float64{-0.1, 0}, 0, 60000)
		t.Logf("U = (%g, %g), V = %v, R = %v", m.X[0], -m.X[1], m.V, r)
		assert.InDelta(t, vertex, m.X[0], 1e-4, "back at the vertex")
		assert.InDelta(t, 0, m.X[1], 1e-4)
		assert.InDelta(t, 0, math.Hypot(r[0], r[1]), 1e-3, "no reaction")
	})
	t.Run("A=0 mu>Kt/W stuck", func(t *testing.T) {
		// mu = 3: the half-line R_t = 2 R_n; U_t = 1 is R = (-1, -0.5),
		// strictly stuck (|R_t| = 1 < 1.5). Lyapunov stable.
		k := discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 3}
		m, r := runKlarbring(t, k, [2]float64{1, 0}, [2]float64{0.1, 0}, 0, 20000)
		assert.Less(t, math.Hypot(m.V[0], m.V[1]), 1e-9, "at rest")
		assert.InDelta(t, 0, m.X[1], 1e-9, "in contact")
		assert.InDelta(t, -k.A(), k.Kt*r[1]-k.W*r[0], 1e-6, "on the equilibrium line: R = %v", r)
		assert.Less(t, math.Abs(r[0]), k.Mu*math.Abs(r[1]), "in the cone")
		assert.InDelta(t, 1, m.X[0], 0.1, "near the equilibrium it left")
	})
	t.Run("A<0 mu>Kt/W impending slip", func(t *testing.T) {
		// mu = 3: the impending slip point R = (-3, -1), U_t = (F_t +
		// R_t) / K_t = -1. Perturbed towards positive slip it does not
		// come back: it leaves the plane and swings about the equilibrium
		// off it ([L]: unstable).
		k := discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 3}
		still, r := runKlarbring(t, k, [2]float64{-1, 0}, [2]float64{0, 0}, 0, 2000)
		require.InDelta(t, -1, still.X[0], 1e-9, "unperturbed, it is an equilibrium")
		require.InDelta(t, -3, r[0], 1e-6)
		require.InDelta(t, -1, r[1], 1e-6)
		sys, err := k.System([2]float64{-1, 0}, [2]float64{0.01, 0}, 0)
		require.NoError(t, err)
		m := sys.Masses[0]
		var highest, farthest float64
		simulate(t, sys, 1e-3, 0.5, 20000, func(int, *timestep.Simulation) {
			highest = math.Max(highest, m.X[1])
			farthest = math.Max(farthest, math.Abs(m.X[0]+1))
		})
		free, _ := k.Free()
		assert.Greater(t, highest, 0.1*math.Abs(free[1]), "it left the plane")
		assert.Greater(t, farthest, 1.0, "and the equilibrium it started at")
	})
	t.Run("A<0 lifts off", func(t *testing.T) {
		k := discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 0.3}
		require.Negative(t, k.A())
		u, ok := k.Free()
		require.True(t, ok)
		m, r := runKlarbring(t, k, [2]float64{0, 0}, [2]float64{0, 0}, 1.5, 40000)
		assert.InDelta(t, u[0], m.X[0], 1e-6, "U_t = K^-1 F")
		assert.InDelta(t, u[1], -m.X[1], 1e-6, "U_n = A / det K, off the plane")
		assert.Zero(t, r)
	})
}

// TestKlarbringEquilibria: the sets of equilibria in contact of [L]'s
// Figure 2 for K_t = K_n = 1, W = 0.5 (K_t / W = 2), their ends computed
// by hand from the line K_t R_n - W R_t = -A and the cone |R_t| <= -mu R_n:
//   - A = 1 > 0, mu = 0.5: the segment from (-2/3, -4/3) (R_t = mu R_n)
//     to (0.4, -0.8) (R_t = -mu R_n);
//   - A = 0, mu = 0.3 < K_t / W: the cone's vertex alone;
//   - A = 0, mu = 3 > K_t / W: the half-line R_t = 2 R_n, cut at R_n = -5;
//   - A = -0.5 < 0, mu = 0.3: none (the equilibrium is off the plane);
//   - A = -0.5, mu = 3: the half-line from the impending slip point
//     (-3, -1) on, beside the free equilibrium.
func TestKlarbringEquilibria(t *testing.T) {
	cases := []struct {
		name string
		k    discrete.Klarbring
		want [][2]float64
		free bool
	}{
		{"A>0", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 0, Fn: 1, Mu: 0.5}, [][2]float64{{-2.0 / 3, -4.0 / 3}, {0.4, -0.8}}, false},
		{"A=0 mu<Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 0.3}, [][2]float64{{0, 0}}, false},
		{"A=0 mu>Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 3}, [][2]float64{{-10, -5}, {0, 0}}, false},
		{"A<0 mu<Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 0.3}, nil, true},
		{"A<0 mu>Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 3}, [][2]float64{{-11, -5}, {-3, -1}}, true},
	}
	for _, tc := range cases {
		got := tc.k.Equilibria(5)
		require.Len(t, got, len(tc.want), tc.name)
		for i := range got {
			assert.InDelta(t, tc.want[i][0], got[i][0], 1e-12, "%s: end %d R_t", tc.name, i)
			assert.InDelta(t, tc.want[i][1], got[i][1], 1e-12, "%s: end %d R_n", tc.name, i)
		}
		_, free := tc.k.Free()
		assert.Equal(t, tc.free, free, "%s: an equilibrium off the plane", tc.name)
	}
}
