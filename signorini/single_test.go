package signorini

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSingle checks each case of the single-contact solve against values
// computed by hand. W = [[2, 0.5], [0.5, 1]] unless stated.
func TestSingle(t *testing.T) {
	W := [4]float64{2, 0.5, 0.5, 1}
	for _, tc := range []struct {
		name   string
		W      [4]float64
		uf     [2]float64
		s, mu  float64
		r, u   [2]float64
		status Status
	}{
		{"open: separating", W, [2]float64{1, 3}, 0, 0.3, [2]float64{0, 0}, [2]float64{1, 3}, Open},
		{"grazing: U_N = 0, P = 0", W, [2]float64{0, 2}, 0, 0.3, [2]float64{0, 0}, [2]float64{0, 2}, Open},
		{"open by the shift", W, [2]float64{-1, 0}, 1.5, 0.3, [2]float64{0, 0}, [2]float64{-1, 0}, Open},
		// stick: W r = -uf = (2.25, 1) gives r = (1, 0.5), |0.5| <= 0.6 * 1.
		{"stick", W, [2]float64{-2.25, -1}, 0, 0.6, [2]float64{1, 0.5}, [2]float64{0, 0}, Stick},
		// the same at mu = 0.5 is exactly on the cone's edge: still stick.
		{"cone edge", W, [2]float64{-2.25, -1}, 0, 0.5, [2]float64{1, 0.5}, [2]float64{0, 0}, Stick},
		// slide forward: r_T = -mu r_N, (2 - 0.5*0.1) r_N = 1 => r_N = 1/1.95;
		// u_T = 3 + 0.5 r_N - 0.1 r_N > 0.
		{"slide forward", W, [2]float64{-1, 3}, 0, 0.1, [2]float64{1 / 1.95, -0.1 / 1.95}, [2]float64{0, 3 + 0.4/1.95}, SlideForward},
		// slide backward: r_T = +mu r_N, (2 + 0.05) r_N = 1.
		{"slide backward", W, [2]float64{-1, -3}, 0, 0.1, [2]float64{1 / 2.05, 0.1 / 2.05}, [2]float64{0, -3 + 0.6/2.05}, SlideBackward},
		// mu = 0: frictionless, r_N = 1/2, u_T = 3 + 0.25.
		{"mu = 0", W, [2]float64{-1, 3}, 0, 0, [2]float64{0.5, 0}, [2]float64{0, 3.25}, SlideForward},
		// very large mu: stick, r = W^-1 (1, 0.2) = (0.9, -0.1)/1.75, which a
		// small mu would not hold.
		{"large mu", W, [2]float64{-1, -0.2}, 0, 1e6, [2]float64{0.9 / 1.75, -0.1 / 1.75}, [2]float64{0, 0}, Stick},
		// with mu = 0.01 it slides forward: r_T = -0.01 r_N, (2 - 0.005) r_N = 1,
		// u_T = -0.2 + (0.5 - 0.01) r_N > 0.
		{"small mu slides", W, [2]float64{-1, -0.2}, 0, 0.01, [2]float64{1 / 1.995, -0.01 / 1.995}, [2]float64{0, -0.2 + 0.49/1.995}, SlideForward},
		// shifted (positional) law: U_N + s = 0 at the end.
		{"positional", [4]float64{1, 0, 0, 1}, [2]float64{0.5, 0}, -2, 0.3, [2]float64{1.5, 0}, [2]float64{2, 0}, Stick},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, u, st := Single(tc.W, tc.uf, tc.s, tc.mu)
			assert.Equal(t, tc.status, st)
			assert.InDeltaSlice(t, tc.r[:], r[:], 1e-14)
			assert.InDeltaSlice(t, tc.u[:], u[:], 1e-14)
			assert.InDeltaSlice(t, mulAdd(tc.W, tc.uf, r), u[:], 1e-14, "u = uf + W r")
			assert.InDelta(t, 0, residual1(r, u, tc.s, tc.mu), 1e-24)
		})
	}
}

// TestSingleSatisfiesLaw: on many 2x2 SPD blocks and velocities,
// the single solve satisfies the law exactly.
func TestSingleSatisfiesLaw(t *testing.T) {
	for k := 0; k < 20000; k++ {
		a, b, c := 0.1+float64(k%7), float64(k%5)-2, 0.1+float64(k%3)
		W := [4]float64{a*a + 0.1, a * b, a * b, b*b + c*c}
		uf := [2]float64{math.Sin(float64(k)), 3 * math.Cos(1.3*float64(k))}
		mu := float64(k%11) / 5
		r, u, _ := Single(W, uf, 0, mu)
		// The velocity is recomputed from r, not taken from the case's
		// formula: an impulse off by any factor fails.
		assert.InDeltaSlice(t, mulAdd(W, uf, r), u[:], 1e-12*(1+math.Abs(uf[0])+math.Abs(uf[1])))
		u2 := [2]float64(mulAdd(W, uf, r))
		assert.LessOrEqual(t, math.Sqrt(residual1(r, u2, 0, mu)), 1e-12*(1+math.Abs(uf[0])+math.Abs(uf[1])))
	}
}

func mulAdd(W [4]float64, uf, r [2]float64) []float64 {
	return []float64{uf[0] + W[0]*r[0] + W[1]*r[1], uf[1] + W[2]*r[0] + W[3]*r[1]}
}

// TestSingleLeastWrong: with an indefinite W_aa no case satisfies the law;
// the solve returns, of open and the candidates that exist (written out
// here by hand), the one with the smallest natural-map residual, and its
// velocity is uf + W r.
func TestSingleLeastWrong(t *testing.T) {
	W := [4]float64{1, -3, -3, 1}
	uf := [2]float64{-1, -3}
	const mu = 0.5
	r, u, _ := Single(W, uf, 0, mu)
	assert.InDeltaSlice(t, mulAdd(W, uf, r), u[:], 1e-14)
	// Candidates: open, r = 0; stick has det W = -8 < 0, none; slide +:
	// r = (rn, -0.5 rn), (1 - 0.5 x -3) rn = 1, rn = 0.4; slide -: d =
	// 1 + 0.5 x -3 < 0, none.
	var res []float64
	for _, c := range [][2]float64{{0, 0}, {0.4, -0.2}} {
		cu := mulAdd(W, uf, c)
		res = append(res, residual1(c, [2]float64{cu[0], cu[1]}, 0, mu))
	}
	assert.Greater(t, res[0], 0.0, "open violates the law")
	assert.Greater(t, res[1], 0.0, "slide+ violates the law")
	assert.InDelta(t, math.Min(res[0], res[1]), residual1(r, u, 0, mu), 1e-15, "the least wrong candidate")
}

// TestResidualIsTheProjections: a contact's squared natural-map residual
// is, to the bit, |r - proj_K(r - (u + s + mu |u_T|, u_T))|^2 with the
// cone's projection written out here as it was before project (the
// history's residual column must not move with how it is computed): in
// the cone, in its polar cone, between them, on their edges and at zero,
// with and without friction and shift.
func TestResidualIsTheProjections(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.3, -0.3, 1e-300, -2.5}
	for range 200000 {
		pick := func() float64 {
			if rng.IntN(3) == 0 {
				return values[rng.IntN(len(values))]
			}
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		}
		r, u := [2]float64{pick(), pick()}, [2]float64{pick(), pick()}
		s, mu := []float64{0, pick()}[rng.IntN(2)], []float64{0, 0.3, 1, rng.Float64()}[rng.IntN(4)]
		x := [2]float64{r[0] - (u[0] + s + mu*math.Abs(u[1])), r[1] - u[1]}
		var p [2]float64
		switch {
		case x[0] >= 0 && math.Abs(x[1]) <= mu*x[0]:
			p = x
		case mu*math.Abs(x[1]) <= -x[0]:
		default:
			a := (x[0] + mu*math.Abs(x[1])) / (1 + mu*mu)
			p = [2]float64{a, math.Copysign(mu*a, x[1])}
		}
		want := (r[0]-p[0])*(r[0]-p[0]) + (r[1]-p[1])*(r[1]-p[1])
		got := residual1(r, u, s, mu)
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), "r %v u %v s %v mu %v", r, u, s, mu)
	}
}
