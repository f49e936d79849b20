package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
)

// TestCarriedHIsTheGapDerivative: for an obstacle carried by a rigid body
// (a square turned 0.3 rad standing on a corner, and a disk) above a
// block's top, every unit's rows give the rate of its gap: moving the
// block's nodes and the body's pose by (velocity x s) changes the gap by
// U_N s, for the block's nodes against the body and for the body's
// vertices (or disk) against the block's edges.
func TestCarriedHIsTheGapDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m, err := mesh.Rectangle([2]float64{-0.05, -0.02}, 0.1, 0.02, 5, 2, mesh.Q4)
	require.NoError(t, err)
	dofs, err := assemble.NewDOFMap(m, nil)
	require.NoError(t, err)
	h := 0.02 / 2
	square := [][2]float64{{-h, -h}, {-h, h}, {h, h}, {h, -h}, {-h, -h}} // clockwise, closed
	phi := 0.3
	low := h * (math.Cos(phi) + math.Sin(phi)) // the lowest corner's depth below the centre
	for _, tc := range []struct {
		name string
		o    *Obstacle
		pose [3]float64
	}{
		{"square", &Obstacle{Name: "square", Points: square, Carried: true, Body: 1}, [3]float64{0.003, low + 2e-4, phi}},
		{"disk", &Obstacle{Name: "disk", Radius: 0.015, Carried: true, Body: 1}, [3]float64{0.013, 0.015 + 2e-4, 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			side, err := NewSide(0, m, dofs, "top", 1)
			require.NoError(t, err)
			d, err := NewDetector(&Pair{Name: "p", Candidate: side, Obstacle: tc.o, Alert: 5e-3})
			require.NoError(t, err)
			disp := randomField(rng, 2*len(m.Nodes), 5e-5)
			vel := randomField(rng, 2*len(m.Nodes), 1)
			body := [3]float64{rng.Float64() - 0.5, rng.Float64() - 0.5, 20 * (rng.Float64() - 0.5)}
			cfg := func(s float64) Config {
				u := make([]float64, len(disp))
				for i := range u {
					u[i] = disp[i] + s*vel[i]
				}
				p := tc.pose
				for k := range p {
					p[k] += s * body[k]
				}
				return Config{Disp: [][]float64{u}, Poses: [][3]float64{{}, p}}
			}
			units, _, err := d.Detect(cfg(0))
			require.NoError(t, err)
			reverse := 0
			for _, u := range units {
				if u.Key.Reverse {
					reverse++
					assert.Equal(t, 1.0, u.Weight, "a rigid body's point force")
				}
			}
			require.Positive(t, reverse, "the body's own pass")
			require.Greater(t, len(units), reverse, "the block's nodes")
			v := [][]float64{vel, body[:]}
			// Detect's results last until the next Detect but one.
			keys, rates := make([]Key, len(units)), make([]float64, len(units))
			for k, u := range units {
				keys[k], rates[k] = u.Key, u.Velocity(v)[0]
			}
			const eps = 1e-8
			plus, _, err := d.Detect(cfg(eps))
			require.NoError(t, err)
			minus, _, err := d.Detect(cfg(-eps))
			require.NoError(t, err)
			require.Len(t, plus, len(keys))
			require.Len(t, minus, len(keys))
			for k, key := range keys {
				require.Equal(t, key, plus[k].Key)
				fd := (plus[k].Gap - minus[k].Gap) / (2 * eps)
				assert.InDelta(t, fd, rates[k], 1e-6, "unit %d %+v", k, key)
			}
		})
	}
}
