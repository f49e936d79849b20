package rigid_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

const g = 9.81

// incline returns a fixed ground whose top face passes through the origin
// at angle alpha, and the unit vectors along (down the slope) and normal
// to it.
func incline(t *testing.T, alpha float64) (ground *rigid.Body, down, up [2]float64) {
	t.Helper()
	shape, err := rigid.Rectangle(20, 1)
	require.NoError(t, err)
	s, c := math.Sincos(alpha)
	up = [2]float64{-s, c}
	down = [2]float64{-c, -s}
	ground, err = rigid.NewBody("ground", shape, [2]float64{-0.5 * up[0], -0.5 * up[1]}, 0)
	require.NoError(t, err)
	ground.Q[2] = alpha
	ground.Motion = contact.Fixed{}
	ground.Group = "ground"
	return ground, down, up
}

// onSlope places a body of half-height above the slope's face at the
// origin, turned with it, under gravity.
func onSlope(b *rigid.Body, alpha, half float64, up [2]float64) {
	b.Q = [3]float64{half * up[0], half * up[1], alpha}
	b.Gravity = [2]float64{0, -g}
}

func run(t *testing.T, sys *rigid.System, h float64, steps int) *timestep.Simulation {
	t.Helper()
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	for k := 0; k < steps; k++ {
		_, err := sim.Step()
		require.NoError(t, err)
		// Contact never creates energy: the balance only falls.
		require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9*(1+math.Abs(e0)), "step %d", k+1)
	}
	return sim
}

func TestBlockOnIncline(t *testing.T) {
	const alpha = 30 * math.Pi / 180
	for _, tc := range []struct {
		name string
		mu   float64
		law  contact.Law
	}{
		{"slides positional", 0.3, contact.Positional},
		{"slides shock", 0.3, contact.Shock},
		{"sticks positional", 0.7, contact.Positional},
		{"sticks shock", 0.7, contact.Shock},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ground, down, up := incline(t, alpha)
			shape, err := rigid.Rectangle(0.2, 0.1)
			require.NoError(t, err)
			block, err := rigid.NewBody("block", shape, [2]float64{}, 2500)
			require.NoError(t, err)
			onSlope(block, alpha, 0.05, up)
			sys, err := rigid.NewSystem([]*rigid.Body{ground, block}, []rigid.Rule{{Mu: tc.mu, Law: tc.law}}, 0)
			require.NoError(t, err)
			const h, T = 1e-3, 0.5
			run(t, sys, h, 500)
			v := block.V[0]*down[0] + block.V[1]*down[1]
			a := math.Max(0, g*(math.Sin(alpha)-tc.mu*math.Cos(alpha)))
			if a > 0 {
				require.InEpsilon(t, a*T, v, 0.01, "velocity down the slope after %g s", T)
			} else {
				require.InDelta(t, 0, v, 1e-9, "stuck: velocity down the slope after %g s", T)
			}
			vn := block.V[0]*up[0] + block.V[1]*up[1]
			require.InDelta(t, 0, vn, 1e-9, "normal velocity")
			require.InDelta(t, 0, block.V[2], 1e-9, "angular velocity")
			require.InDelta(t, alpha, block.Q[2], 1e-9, "the block stays flat on the slope")
		})
	}
}

func TestDiskOnIncline(t *testing.T) {
	const alpha = 30 * math.Pi / 180
	const r = 0.1
	for _, tc := range []struct {
		name string
		mu   float64
	}{
		{"rolls", 0.5},  // rolling needs mu >= tan(alpha)/3 = 0.19
		{"slides", 0.1}, // below it the disk slides and spins
	} {
		t.Run(tc.name, func(t *testing.T) {
			ground, down, up := incline(t, alpha)
			disk, err := rigid.NewBody("disk", rigid.Disk{R: r}, [2]float64{}, 1000)
			require.NoError(t, err)
			onSlope(disk, 0, r, up)
			sys, err := rigid.NewSystem([]*rigid.Body{ground, disk}, []rigid.Rule{{Mu: tc.mu}}, 0)
			require.NoError(t, err)
			const h, T = 1e-3, 0.5
			run(t, sys, h, 500)
			v := disk.V[0]*down[0] + disk.V[1]*down[1]
			a, spin := 2*g*math.Sin(alpha)/3, 2*g*math.Sin(alpha)/3/r // rolling: omega = v/r
			if tc.mu < math.Tan(alpha)/3 {
				a = g * (math.Sin(alpha) - tc.mu*math.Cos(alpha))
				spin = 2 * tc.mu * g * math.Cos(alpha) / r // friction torque / (m r^2/2)
			}
			require.InEpsilon(t, a*T, v, 0.01, "velocity down the slope after %g s", T)
			require.InEpsilon(t, spin*T, disk.V[2], 0.01, "angular velocity (counter-clockwise, rolling down to the left)")
			vn := disk.V[0]*up[0] + disk.V[1]*up[1]
			require.InDelta(t, 0, vn, 1e-9, "normal velocity")
		})
	}
}
