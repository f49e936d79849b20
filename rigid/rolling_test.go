package rigid_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// diskOnSlope is a disk of radius 0.1 m (1000 kg/m^3) resting on a fixed
// incline of alpha, its contact under rule.
func diskOnSlope(t *testing.T, alpha float64, rule rigid.Rule) (*rigid.System, *rigid.Body, [2]float64) {
	t.Helper()
	ground, down, up := incline(t, alpha)
	disk, err := rigid.NewBody("disk", rigid.Disk{R: 0.1}, [2]float64{}, 1000)
	require.NoError(t, err)
	onSlope(disk, 0, 0.1, up)
	sys, err := rigid.NewSystem([]*rigid.Body{ground, disk}, []rigid.Rule{rule}, 0)
	require.NoError(t, err)
	return sys, disk, down
}

// TestRollingResistanceOnIncline: a disk of radius R = 0.1 m with rolling
// resistance mu_r = 0.005 m on an incline stays at rest below tan alpha
// = mu_r / R (2.86 degrees: held at 2 and 2.8, under both laws) and rolls
// without slipping above it at the closed form's (2/3) g (sin alpha -
// (mu_r / R) cos alpha), the rolling moment dissipating mu_r m g cos
// alpha per radian turned (the friction work is that): both to 1e-9,
// the theta-method being exact under a constant acceleration; the ledger
// never gains (run).
func TestRollingResistanceOnIncline(t *testing.T) {
	const R, muR, h, T = 0.1, 0.005, 1e-3, 0.5
	m := 1000 * math.Pi * R * R
	for _, law := range []contact.Law{contact.Shock, contact.Positional} {
		for _, deg := range []float64{2, 2.8, 3, 5, 10} {
			alpha := deg * math.Pi / 180
			sys, disk, down := diskOnSlope(t, alpha, rigid.Rule{Mu: 0.5, Law: law, Rolling: muR})
			start := disk.Q
			sim := run(t, sys, h, int(T/h))
			v := disk.V[0]*down[0] + disk.V[1]*down[1]
			if math.Tan(alpha) <= muR/R {
				moved := (disk.Q[0]-start[0])*down[0] + (disk.Q[1]-start[1])*down[1]
				assert.InDelta(t, 0, moved, 1e-9, "%v, %g degrees: held (moved %g m)", law, deg, moved)
				assert.InDelta(t, 0, disk.V[2], 1e-9, "%v, %g degrees: not turning", law, deg)
				continue
			}
			a := 2 * g * (math.Sin(alpha) - muR/R*math.Cos(alpha)) / 3
			assert.InEpsilon(t, a*T, v, 1e-9, "%v, %g degrees: rolls at (2/3) g (sin - mu_r/R cos)", law, deg)
			assert.InEpsilon(t, v/R, disk.V[2], 1e-6, "%v, %g degrees: without slipping", law, deg)
			turned := a * T * T / (2 * R)
			assert.InEpsilon(t, -muR*m*g*math.Cos(alpha)*turned, sim.FrictionWork, 1e-9, "%v, %g degrees: the rolling moment's work", law, deg)
		}
	}
}

// TestRollingDiskStops: a disk rolling on a level floor at 0.5 m/s slows
// at (2/3) g mu_r / R, stops where that says, and stays stopped; without
// rolling resistance it rolls on. Its kinetic energy went into the
// rolling moment's work.
func TestRollingDiskStops(t *testing.T) {
	const R, muR, v0, h = 0.1, 0.002, 0.5, 1e-3
	for _, rolling := range []float64{muR, 0} {
		sys, disk, down := diskOnSlope(t, 0, rigid.Rule{Mu: 0.5, Rolling: rolling})
		disk.V = [3]float64{v0 * down[0], v0 * down[1], v0 / R}
		start := disk.Q
		a := 2 * g * rolling / R / 3
		steps := 5000 // 1.3 times the stop's 3.8 s
		sim := run(t, sys, h, steps)
		moved := (disk.Q[0]-start[0])*down[0] + (disk.Q[1]-start[1])*down[1]
		if rolling == 0 {
			assert.InEpsilon(t, v0*float64(steps)*h, moved, 1e-6, "rolls on")
			continue
		}
		assert.InEpsilon(t, v0*v0/(2*a), moved, 0.01, "stops where the rolling resistance says")
		assert.InDelta(t, 0, disk.V[0], 1e-12)
		assert.InDelta(t, 0, disk.V[2], 1e-12, "and stays stopped")
		m := 1000 * math.Pi * R * R
		assert.InEpsilon(t, -0.75*m*v0*v0, sim.FrictionWork, 0.01, "its kinetic energy, 3/4 m v^2, went into rolling")
	}
}

// TestRollingMomentsBetweenDisks: two free disks pressed together, one
// spinning, the other still, without friction: the rolling moment acts on
// both alike and opposite, so that their angular momentum stays what it
// was (each ends at half the spin) while the relative rotation stops.
func TestRollingMomentsBetweenDisks(t *testing.T) {
	a, err := rigid.NewBody("a", rigid.Disk{R: 0.1}, [2]float64{0, 0}, 1000)
	require.NoError(t, err)
	b, err := rigid.NewBody("b", rigid.Disk{R: 0.1}, [2]float64{0.2, 0}, 1000)
	require.NoError(t, err)
	a.Force = [2]float64{50, 0} // pressed together
	b.Force = [2]float64{-50, 0}
	a.V[2] = 2
	sys, err := rigid.NewSystem([]*rigid.Body{a, b}, []rigid.Rule{{Rolling: 0.01}}, 0)
	require.NoError(t, err)
	L := func() float64 {
		var l float64
		for _, d := range []*rigid.Body{a, b} {
			l += d.Inertia*d.V[2] + d.Mass*(d.Q[0]*d.V[1]-d.Q[1]*d.V[0])
		}
		return l
	}
	L0 := L()
	run(t, sys, 1e-3, 2000)
	assert.InDelta(t, L0, L(), 1e-12*math.Abs(L0), "angular momentum kept")
	assert.InDelta(t, 1, a.V[2], 1e-9, "the relative rotation stopped, half the spin each")
	assert.InDelta(t, 1, b.V[2], 1e-9)
}

// TestRollingUnderAMoment: a disk on a level floor under a moment M is
// held while M <= mu_r m g and rolls above it without slipping at the
// angular acceleration (M - mu_r m g) / (3/2 m R^2): the rolling row
// acts against the free velocity the moment gives over the step.
func TestRollingUnderAMoment(t *testing.T) {
	const R, muR, h, T = 0.1, 0.005, 1e-3, 0.5
	m := 1000 * math.Pi * R * R
	for _, f := range []float64{0.5, 0.99, 2, 5} {
		sys, disk, _ := diskOnSlope(t, 0, rigid.Rule{Mu: 0.9, Rolling: muR})
		M := f * muR * m * g
		disk.Moment = M
		run(t, sys, h, int(T/h))
		want := 0.0
		if f > 1 {
			want = (M - muR*m*g) / (1.5 * m * R * R) * T
		}
		assert.InDelta(t, want, disk.V[2], 1e-9*(1+want), "M = %g mu_r m g", f)
		assert.InDelta(t, -want*R, disk.V[0], 1e-9*(1+want), "M = %g mu_r m g: without slipping", f)
	}
}

// TestNoRollingResistanceBetweenPolygons: a rule's rolling resistance
// acts where a disk touches; a polygon's corners resist its rolling
// themselves. A tall block tipped over on a floor falls the same, bit for
// bit, under a rule with rolling = 0.05 m and without.
func TestNoRollingResistanceBetweenPolygons(t *testing.T) {
	tip := func(rolling float64) [3]float64 {
		ground, _, up := incline(t, 0)
		shape, err := rigid.Rectangle(0.1, 0.4)
		require.NoError(t, err)
		block, err := rigid.NewBody("block", shape, [2]float64{}, 1000)
		require.NoError(t, err)
		onSlope(block, 0, 0.2, up)
		block.V = [3]float64{-0.8, 0.2, 4} // turning about its left corner
		sys, err := rigid.NewSystem([]*rigid.Body{ground, block}, []rigid.Rule{{Mu: 0.9, Rolling: rolling}}, 0)
		require.NoError(t, err)
		run(t, sys, 1e-3, 300)
		return block.Q
	}
	moved := tip(0)
	require.Greater(t, moved[2], 0.5, "it tips")
	assert.Equal(t, moved, tip(0.05))
}
