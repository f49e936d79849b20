package rigid_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/analytic"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// TestPointImpact throws a point-like body (a small disk that cannot turn)
// at a fixed floor with friction nu = 0.5, without gravity, at 8 angles
// on both sides of tan beta = nu, from a gap and from gap 0 (touching at t
// = 0 while moving in, the set-up users write first), under both laws:
// it leaves as [TG] eq. 3.44 says, to 1e-6 of its speed. From gap 0 the
// positional law used to throw it back at (1 - theta) of its normal
// speed, half of it (issue 28).
func TestPointImpact(t *testing.T) {
	const r, speed, nu, h = 0.01, 1.0, 0.5, 1e-4
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		for _, gap := range []float64{0, 3.3e-3} {
			for _, deg := range []float64{5, 15, 22, 26, 27, 35, 55, 80} {
				t.Run(fmt.Sprintf("%s gap %g beta %g", law, gap, deg), func(t *testing.T) {
					beta := deg * math.Pi / 180
					uT, uN := speed*math.Sin(beta), -speed*math.Cos(beta)
					p, err := rigid.NewBody("point", rigid.Disk{R: r}, [2]float64{0, r + gap}, 1000)
					require.NoError(t, err)
					p.Inertia = 1e30 // a point: no rotation
					p.V = [3]float64{uT, uN, 0}
					sys, err := rigid.NewSystem([]*rigid.Body{floor(t), p}, []rigid.Rule{{Mu: nu, Law: law}}, 0.01)
					require.NoError(t, err)
					sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
					require.NoError(t, err)
					e0 := sim.TotalEnergy().Balance()
					for k := 1; k <= int(gap/-uN/h)+20; k++ {
						_, err := sim.Step()
						require.NoError(t, err)
						require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-12*p.Mass*speed*speed, "step %d: energy", k)
					}
					want := analytic.PointImpact(uN, uT, nu)
					require.InDelta(t, want[0], p.V[1], 1e-6*speed, "normal velocity after")
					require.InDelta(t, want[1], p.V[0], 1e-6*speed, "tangential velocity after")
					// The positional law stops the body at its slop
					// (1e-5 of the radius) from the floor; the shock law
					// acts on velocities: arriving from a gap, it lands
					// at the slop, or up to half a step's travel inside
					// (never short of the floor, held across a gap).
					depth := 1.001e-5 * r
					if law == contact.Shock {
						depth = h * -uN / 2
					}
					require.InDelta(t, r, p.Q[1], depth, "on the floor")
					if gap > 0 {
						// Arriving from a gap, it stops at the slop.
						require.LessOrEqual(t, p.Q[1], r*(1+1e-5)+1e-9*r, "at the slop from the floor or in it")
					}
					if law == contact.Positional && gap > 0 {
						require.InDelta(t, r*(1+1e-5), p.Q[1], 1e-9*r, "at the slop from the floor")
					}
				})
			}
		}
	}
}

// TestBlockStartsOnFloor drops a block flat on the floor, moving down at 1
// m/s and sideways at 0.3 m/s (friction 0.2: it slides on), without gravity,
// from gap 0 and from 3 mm above: after the impact its velocities are
// those of the run from a gap, to 1e-6 of the speed, and it rests on the
// floor.
func TestBlockStartsOnFloor(t *testing.T) {
	const h = 1e-4
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		t.Run(law.String(), func(t *testing.T) {
			var after [2][3]float64
			var arrival [2]float64
			for k, gap := range []float64{0, 3e-3} {
				shape, err := rigid.Rectangle(0.2, 0.1)
				require.NoError(t, err)
				block, err := rigid.NewBody("block", shape, [2]float64{0, 0.05 + gap}, 2000)
				require.NoError(t, err)
				block.V = [3]float64{0.3, -1, 0}
				sys, err := rigid.NewSystem([]*rigid.Body{floor(t), block}, []rigid.Rule{{Mu: 0.2, Law: law}}, 0.01)
				require.NoError(t, err)
				sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
				require.NoError(t, err)
				e0 := sim.TotalEnergy().Balance()
				for i := 1; i <= 60; i++ {
					_, err := sim.Step()
					require.NoError(t, err)
					require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-12, "step %d: energy", i)
				}
				after[k] = block.V
				arrival[k] = gap
			}
			// Sliding at 0.3 - 0.2 x 1 = 0.1 m/s after the impact's
			// friction, on both runs alike (no gravity here).
			for c := range 3 {
				require.InDelta(t, after[1][c], after[0][c], 1e-6, "velocity %d: from gap 0 as from %g m", c, arrival[1])
			}
			require.InDelta(t, 0.1, after[0][0], 1e-6, "sliding on at 0.3 - mu x 1 m/s")
		})
	}
}
