package signorini

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
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
		assert.LessOrEqual(t, math.Sqrt(residual1(r, u, 0, mu)), 1e-12*(1+math.Abs(uf[0])+math.Abs(uf[1])))
	}
}
