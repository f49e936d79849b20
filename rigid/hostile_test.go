package rigid_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// TestFarAndNonFinite steps rigid bodies a library caller (or a state
// file) placed far away or gave non-finite values: small disks 1e15 m
// apart step as usual (the broad phase's grid counted them in an int and
// panicked at 2e18), and a pose, velocity or spin beyond
// rigid.MaxCoordinate (or NaN, refused by NewSystem) is an error naming
// the body and the value, at the start or after the step that produced
// it, never a panic.
func TestFarAndNonFinite(t *testing.T) {
	disks := func(x, r float64) []*rigid.Body {
		var out []*rigid.Body
		for k, name := range []string{"a", "b", "c"} {
			d, err := rigid.NewBody(name, rigid.Disk{R: r}, [2]float64{x * float64(k-1), 0}, 1000)
			require.NoError(t, err)
			out = append(out, d)
		}
		return out
	}
	step := func(bodies []*rigid.Body, steps int) error {
		sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3}}, 0)
		if err != nil {
			return err
		}
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys})
		require.NoError(t, err)
		for range steps {
			if _, err := sim.Step(); err != nil {
				return err
			}
		}
		return nil
	}
	// 1e15 m across in cells of 2e-5 m: 5e19 cells, beyond an int.
	require.NoError(t, step(disks(5e14, 1e-5), 3), "far apart, within range")
	for _, tc := range []struct {
		name string
		set  func(b *rigid.Body)
		want string
	}{
		{"far", func(b *rigid.Body) { b.Q[0] = 1e18 }, `rigid body "b" at t = 0: its pose has the component 1e+18 (x)`},
		{"NaN", func(b *rigid.Body) { b.Q[1] = math.NaN() }, `rigid body "b": position [0 NaN 0], velocity [0 0 0], gravity [0 0]: expected finite values`},
		{"fast", func(b *rigid.Body) { b.V[0] = 1e300 }, `rigid body "b" at t = 0: its velocity has the component 1e+300 (x)`},
		{"spin", func(b *rigid.Body) { b.V[2] = 1e200 }, `rigid body "b" at t = 0: its velocity has the component 1e+200 (rotation)`},
		{"diverging", func(b *rigid.Body) { b.Gravity = [2]float64{0, -1e300} }, `after step 1: rigid body "b" at t = 0.001: its pose has the component -5e+293 (y)`},
		{"driven far", func(b *rigid.Body) {
			b.Motion = contact.Sine{Amplitude: 1e300, Period: 0.4, Direction: [2]float64{1, 0}}
		}, `rigid body "b" at t = 0: its velocity has the component 1.5707963267948966e+301 (x)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bodies := disks(1, 0.05)
			tc.set(bodies[1])
			err := step(bodies, 3)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestRigidTunnelling drops a disk at 500 m/s onto a fixed 2 cm plate at
// h = 1 ms: it crosses the plate within one step and ends 0.5 m below it,
// clear of it. The step must fail as tunnelling, naming both bodies; the
// same disk with nothing in its way flies on.
func TestRigidTunnelling(t *testing.T) {
	for _, plate := range []bool{true, false} {
		disk, err := rigid.NewBody("disk", rigid.Disk{R: 0.05}, [2]float64{0, 0.3}, 1000)
		require.NoError(t, err)
		disk.V[1] = -500
		bodies := []*rigid.Body{disk}
		if plate {
			shape, err := rigid.Rectangle(1, 0.02)
			require.NoError(t, err)
			p, err := rigid.NewBody("plate", shape, [2]float64{0, 0}, 0)
			require.NoError(t, err)
			p.Motion = contact.Fixed{}
			bodies = append(bodies, p)
		}
		sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3}}, 0)
		require.NoError(t, err)
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys})
		require.NoError(t, err)
		_, err = sim.Step()
		if !plate {
			require.NoError(t, err)
			require.InDelta(t, -0.2, disk.Q[1], 1e-12)
			continue
		}
		require.ErrorContains(t, err, `step 1: rigid body "disk" went through rigid body "plate" in the step to t = 0.001`)
		require.ErrorContains(t, err, "(tunnelling): use a smaller h or a larger alert")
	}
}

// TestTimeIsStepsTimesH: after 12 000 steps of 1 ms the time is 12 s, the
// step count times h (a sum of steps gave 11.99999999999871, the time
// ParaView showed for the last piece).
func TestTimeIsStepsTimesH(t *testing.T) {
	d, err := rigid.NewBody("disk", rigid.Disk{R: 0.05}, [2]float64{}, 1000)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{d}, nil, 0)
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys})
	require.NoError(t, err)
	for range 12000 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	require.Equal(t, 12.0, sim.Time())
}
