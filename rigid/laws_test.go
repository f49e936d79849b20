package rigid_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// TestDissipationIndex collides two equal disks head-on, 1 m/s against
// one at rest, under the shock law with dissipation index delta: a
// single two-body collision leaves them with the restitution e = (1 -
// delta)/(1 + delta) of [JM91] section 6, v1 = (1 - e)/2, v2 = (1 + e)/2,
// to 1e-9. A 20 % error in e moves v1 by 0.1 e at least.
func TestDissipationIndex(t *testing.T) {
	const r, v, h = 0.05, 1.0, 1e-5
	for _, delta := range []float64{0.25, 0.5, 0.75} {
		t.Run(fmt.Sprint("delta ", delta), func(t *testing.T) {
			a, err := rigid.NewBody("a", rigid.Disk{R: r}, [2]float64{-r - 1e-4, 0}, 1000)
			require.NoError(t, err)
			b, err := rigid.NewBody("b", rigid.Disk{R: r}, [2]float64{r, 0}, 1000)
			require.NoError(t, err)
			a.V[0] = v
			sys, err := rigid.NewSystem([]*rigid.Body{a, b}, []rigid.Rule{{Law: contact.Shock, Restitution: rigid.Restitution(delta)}}, 0)
			require.NoError(t, err)
			run(t, sys, h, 100)
			e := (1 - delta) / (1 + delta)
			require.InDelta(t, v*(1-e)/2, a.V[0], 1e-9, "the first disk after")
			require.InDelta(t, v*(1+e)/2, b.V[0], 1e-9, "the second disk after")
		})
	}
}

// TestObliqueShock throws a point-like body (a disk that cannot turn) at
// a rough floor at 30 degrees from the normal with friction 1, under the
// shock law with delta = 0.5 (e = 1/3): the impact sticks, and the law on
// U_end + e U_start reverses both components by e ([JM91] section 6
// imposes it on the tangential velocity too, unlike Newton's restitution
// with Coulomb friction): the body leaves at -e times its tangential and
// normal velocities, to 1e-9.
func TestObliqueShock(t *testing.T) {
	const r, h, mu = 0.01, 1e-5, 1.0
	const delta = 0.5
	e := rigid.Restitution(delta)
	s, c := math.Sincos(30 * math.Pi / 180)
	p, err := rigid.NewBody("point", rigid.Disk{R: r}, [2]float64{0, r + 5e-5}, 1000)
	require.NoError(t, err)
	p.Inertia = 1e30
	p.V = [3]float64{s, -c, 0}
	sys, err := rigid.NewSystem([]*rigid.Body{floor(t), p}, []rigid.Rule{{Mu: mu, Law: contact.Shock, Restitution: e}}, 0.01)
	require.NoError(t, err)
	run(t, sys, h, 30)
	require.InDelta(t, e*c, p.V[1], 1e-9, "normal velocity after")
	require.InDelta(t, -e*s, p.V[0], 1e-9, "tangential velocity after: reversed by e")
}

// TestPeriodicLeftwards sends a disk leftwards across the left end of a
// periodic cell [0, 1): it re-enters at the right end, x = x0 - v t + 1,
// every step inside the cell.
func TestPeriodicLeftwards(t *testing.T) {
	const h, v = 1e-3, 2.0
	d, err := rigid.NewBody("disk", rigid.Disk{R: 0.05}, [2]float64{0.1, 0.5}, 1000)
	require.NoError(t, err)
	d.V[0] = -v
	sys, err := rigid.NewSystem([]*rigid.Body{d}, nil, 0)
	require.NoError(t, err)
	require.NoError(t, sys.SetPeriod(0, 1))
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
	require.NoError(t, err)
	for k := 1; k <= 300; k++ {
		_, err := sim.Step()
		require.NoError(t, err)
		require.True(t, d.Q[0] >= 0 && d.Q[0] < 1, "step %d: x = %g in the cell", k, d.Q[0])
		x := 0.1 - v*h*float64(k)
		off := math.Remainder(d.Q[0]-x, 1) // a whole number of periods
		require.InDelta(t, 0, off, 1e-9, "step %d: x = %g, %g unwrapped", k, d.Q[0], x)
	}
}

// TestStuckOnShakenPlate sets a block on a plate shaken horizontally as
// 5 mm sin(2 pi t / 0.2 s) with friction 0.8 (the plate's largest
// acceleration, 4.9 m/s^2, is below mu g): the block sticks and moves
// with the plate, its velocity at the end of every step the plate's at
// that time (the antagonist's velocity taken at t + h), to 1e-9.
func TestStuckOnShakenPlate(t *testing.T) {
	const h = 1e-3
	shake := contact.Sine{Amplitude: 5e-3, Period: 0.2, Direction: [2]float64{1, 0}}
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		t.Run(law.String(), func(t *testing.T) {
			plate := floor(t)
			plate.Motion = shake
			shape, err := rigid.Rectangle(0.2, 0.1)
			require.NoError(t, err)
			block, err := rigid.NewBody("block", shape, [2]float64{0, 0.05}, 2000)
			require.NoError(t, err)
			block.Gravity = [2]float64{0, -g}
			block.V[0] = shake.Velocity(0)[0] // moving with the plate
			sys, err := rigid.NewSystem([]*rigid.Body{plate, block}, []rigid.Rule{{Mu: 0.8, Law: law}}, 0)
			require.NoError(t, err)
			// NLGS to 1e-10: at its default 1e-8 a step's velocity is
			// off by up to 1e-9 (a corner's stick passing to slip and
			// back at step 251).
			sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys, Solver: signorini.Options{Tol: 1e-10}})
			require.NoError(t, err)
			for k := 1; k <= 400; k++ {
				_, err := sim.Step()
				require.NoError(t, err)
				require.InDelta(t, shake.Velocity(float64(k) * h)[0], block.V[0], 1e-9, "step %d: with the plate", k)
				require.InDelta(t, 0, block.V[1], 1e-8, "step %d: on the plate", k)
			}
		})
	}
}

// TestRuleFrictionIsTheSystems: the rules' friction coefficients are
// read when the System is made: changing the caller's rules, or the
// number a MuDynamic points at, afterwards reaches no unit.
func TestRuleFrictionIsTheSystems(t *testing.T) {
	a, err := rigid.NewBody("a", rigid.Disk{R: 0.05}, [2]float64{0, 0}, 1000)
	require.NoError(t, err)
	b, err := rigid.NewBody("b", rigid.Disk{R: 0.05}, [2]float64{0.1, 0}, 1000)
	require.NoError(t, err)
	dynamic := 0.2
	rules := []rigid.Rule{{Mu: 0.5, MuDynamic: &dynamic}}
	sys, err := rigid.NewSystem([]*rigid.Body{a, b}, rules, 0)
	require.NoError(t, err)
	dynamic, rules[0].Mu = 0.9, 0.9
	units, err := sys.Detect(0)
	require.NoError(t, err)
	require.Len(t, units, 1)
	require.Equal(t, 0.5, units[0].Mu)
	require.Equal(t, 0.2, units[0].MuDynamic)
	require.Equal(t, 0.2, *sys.Rules()[0].MuDynamic)
}

// TestDiskNoMidAirTurn: a disk falling on a floor under gravity with a
// restitution, from heights whose free flight closes the gap just after a
// step's end, turns back only in a step its free flight reaches the floor
// in (it turned back 0.76 mm above it), at e times its landing speed.
func TestDiskNoMidAirTurn(t *testing.T) {
	const h, e, g0, r, v0 = 1e-3, 0.5, 9.81, 0.05, 1.0
	for k := range 12 {
		// The free flight's gap at step 10's end: -3e-6 m to +8e-6 m.
		y10 := 10*h*v0 + g0*100*h*h/2
		gap0 := y10 + float64(k-3)*1e-6
		d, err := rigid.NewBody("disk", rigid.Disk{R: r}, [2]float64{0, r + gap0}, 1000)
		require.NoError(t, err)
		d.Gravity, d.V = [2]float64{0, -g0}, [3]float64{0, -v0, 0}
		sys, err := rigid.NewSystem([]*rigid.Body{floor(t), d}, []rigid.Rule{{Mu: 0.5, Law: contact.Shock, Restitution: e}}, 0)
		require.NoError(t, err)
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
		require.NoError(t, err)
		for i := range 15 {
			y, vy := d.Q[1]-r, d.V[1]
			_, err := sim.Step()
			require.NoError(t, err)
			if d.V[1] > 0 {
				end := y + vy*h - g0*h*h/2
				require.LessOrEqual(t, end, 1e-7, "gap %g: turned back at step %d, its free flight %g m above the floor at the step's end", gap0, i+1, end)
				landing := math.Sqrt(v0*v0 + 2*g0*gap0)
				require.InDelta(t, e*landing, d.V[1]+g0*h, 0.02*e*landing, "gap %g: e times the landing speed", gap0)
				break
			}
		}
		require.Positive(t, d.V[1], "gap %g: it bounced", gap0)
	}
}

// TestCohesionHoldsThenBreaks: a block of weight W = m g glued under a
// fixed ceiling by its two top corners, each bond of cohesion c: it hangs
// at rest while W <= 2 c (each corner holds W/2), the bonds' tension W/2
// each, the ledger closed; with W > 2 c both bonds break at the first step
// and it falls freely from the ceiling (v = -g t). A block glued across a
// gap of round-off (a wall's joints, read from a file) is bonded and hangs
// the same.
func TestCohesionHoldsThenBreaks(t *testing.T) {
	const h = 1e-3
	for _, tc := range []struct {
		name  string
		ratio float64 // c / W
		gap   float64 // m, from the ceiling
		holds bool
	}{{"holds", 0.6, 0, true}, {"just holds", 0.5001, 0, true}, {"holds across round-off", 0.6, 1e-12, true}, {"breaks", 0.45, 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			shape, err := rigid.Rectangle(0.2, 0.1)
			require.NoError(t, err)
			ceiling, err := rigid.NewBody("ceiling", shape, [2]float64{0, 0.1}, 0)
			require.NoError(t, err)
			ceiling.Motion, ceiling.Group = contact.Fixed{}, "ceiling"
			block, err := rigid.NewBody("block", shape, [2]float64{0, -tc.gap}, 2500)
			require.NoError(t, err)
			block.Gravity = [2]float64{0, -g}
			w := block.Mass * g
			sys, err := rigid.NewSystem([]*rigid.Body{ceiling, block}, []rigid.Rule{{Mu: 0.5, Cohesion: tc.ratio * w}}, 0)
			require.NoError(t, err)
			sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys})
			require.NoError(t, err)
			e0 := sim.TotalEnergy().Balance()
			for range 100 {
				_, err := sim.Step()
				require.NoError(t, err)
			}
			require.InDelta(t, e0, sim.TotalEnergy().Balance(), 1e-9*w, "the ledger closes")
			if tc.holds {
				require.Equal(t, 2, sim.Bonds())
				require.InDelta(t, 0, block.V[1], 1e-9, "hangs at rest")
				require.InDelta(t, -tc.gap, block.Q[1], 1e-9, "where it was glued")
				var fy float64
				for _, c := range sim.Contacts() {
					fy += sim.Force(c)[1]
				}
				require.InDelta(t, w, math.Abs(fy), 1e-6*w, "the bonds carry the weight")
				// A checkpoint keeps the bonds: loaded into a simulation
				// whose first step would bond nothing (the block moved off).
				var state bytes.Buffer
				require.NoError(t, sim.SaveState(&state))
				ceiling2, block2 := *ceiling, *block
				block2.Q[1] -= 0.01
				sys2, err := rigid.NewSystem([]*rigid.Body{&ceiling2, &block2}, []rigid.Rule{{Mu: 0.5, Cohesion: tc.ratio * w}}, 0)
				require.NoError(t, err)
				sim2, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys2})
				require.NoError(t, err)
				require.NoError(t, sim2.LoadState(&state))
				_, err = sim2.Step()
				require.NoError(t, err)
				require.Equal(t, 2, sim2.Bonds(), "the bonds come back with the checkpoint")
				require.InDelta(t, 0, block2.V[1], 1e-9, "and hold")
				return
			}
			require.Zero(t, sim.Bonds(), "both bonds broke")
			require.InDelta(t, -g*0.1, block.V[1], 2*g*h, "falls freely")
		})
	}
}
