package timestep

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/signorini"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onFloor is a Q4 block 0.1 x 0.05 m (8 x 4 cells, E = 1e7, nu = 0.3,
// rho = 1000, plane strain) whose lower edge starts gap above a fixed floor
// y = 0, under gravity g, with friction mu and fe.Rayleigh damping, theta = 1/2.
func onFloor(t *testing.T, gap float64, g [2]float64, mu float64, damping fe.Rayleigh, h float64) (*Simulation, *fe.Body) {
	mat := element.Elastic{E: 1e7, Nu: 0.3, Rho: 1000}
	m, err := mesh.Rectangle([2]float64{0, gap}, 0.1, 0.05, 8, 4, mesh.Q4)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m)
	require.NoError(t, err)
	b, err := fe.NewBody("block", s, mat, fe.BodyOptions{Gravity: g, Damping: damping})
	require.NoError(t, err)
	side, err := contact.NewSide(0, m, s.DOFs, "bottom", 1)
	require.NoError(t, err)
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-10, 0}, {10, 0}}}
	det, err := contact.NewDetector(&contact.Pair{Name: "floor", Candidate: side, Obstacle: floor, Mu: mu, Alert: 2e-3})
	require.NoError(t, err)
	sim, err := NewSimulation([]*fe.Body{b}, det, SimOptions{H: h, Theta: 0.5, Solver: signorini.Options{ChangeTol: -1}})
	require.NoError(t, err)
	return sim, b
}

// TestDroppedBlockComesToRest: dropped from 1 mm, with fe.Rayleigh damping,
// the block comes to rest: its kinetic energy falls to round-off (the
// period-2 mode of the theta-gap law kept 2.5e-7 J forever), and it rests
// on the floor without penetrating it.
func TestDroppedBlockComesToRest(t *testing.T) {
	sim, _ := onFloor(t, 1e-3, [2]float64{0, -9.81}, 0.3, fe.Rayleigh{Alpha: 20, Beta: 1e-4}, 1e-4)
	minGap := math.Inf(1)
	var kin float64
	for i := 1; i <= 5000; i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		if i > 100 {
			minGap = math.Min(minGap, st.MinGap)
		}
		kin = sim.Stepper.TotalEnergy().Kinetic
	}
	drop := 1000 * 0.1 * 0.05 * 9.81 * 1e-3 // m g h of the drop, J
	t.Logf("kinetic energy after 0.5 s: %.3g J (%.2g of the drop's m g h); smallest gap after landing %.3g m", kin, kin/drop, minGap)
	assert.Less(t, kin, 1e-20*drop+1e-25, "at rest")
	assert.Greater(t, minGap, -1e-6, "no penetration at rest")
}

// TestIncline: a block on a 30-degree incline (gravity tilted, stiffness-
// proportional damping). With mu = 0.7 > tan 30 it sticks: it drifts less
// than 1e-4 m over 0.2 s once settled. With mu = 0.3 it slides at
// a = g (sin 30 - mu cos 30) within 2 % (80 % of mu is off by 9 %).
func TestIncline(t *testing.T) {
	a := math.Pi / 6
	g := [2]float64{-9.81 * math.Sin(a), -9.81 * math.Cos(a)}
	mean := func(b *fe.Body) float64 { return meanVelocity(b)[0] }
	position := func(b *fe.Body) float64 {
		var x float64
		n := 0
		for e, full := range b.Space.DOFs.DOF {
			if full%2 == 0 {
				x += b.Q[e]
				n++
			}
		}
		return x / float64(n)
	}
	t.Run("sticks", func(t *testing.T) {
		sim, b := onFloor(t, 0, g, 0.7, fe.Rayleigh{Beta: 1e-4}, 1e-4)
		var x0 float64
		for i := 1; i <= 3000; i++ {
			_, err := sim.Step()
			require.NoError(t, err)
			if i == 1000 {
				x0 = position(b)
			}
		}
		t.Logf("drift over 0.2 s after settling: %.3g m", position(b)-x0)
		assert.Less(t, math.Abs(position(b)-x0), 1e-4)
	})
	t.Run("slides", func(t *testing.T) {
		mu := 0.3
		sim, b := onFloor(t, 0, g, mu, fe.Rayleigh{Beta: 1e-4}, 1e-4)
		var v1, t1 float64
		for i := 1; i <= 3000; i++ {
			_, err := sim.Step()
			require.NoError(t, err)
			if i == 1000 {
				v1, t1 = mean(b), sim.Time()
			}
		}
		acc := (mean(b) - v1) / (sim.Time() - t1)
		want := -9.81 * (math.Sin(a) - mu*math.Cos(a))
		t.Logf("acceleration %.5g m/s^2 against g (sin a - mu cos a) = %.5g", acc, want)
		assert.InDelta(t, want, acc, 0.02*math.Abs(want))
	})
}

// TestConveyor: a block set down on a belt (an obstacle moving at 1 m/s)
// is dragged by friction at a = mu g until it reaches the belt's speed at
// t = v / (mu g), then rides it. With the consistent and the lumped mass:
// the acceleration within 2 % (80 % of mu is off by 20 %), the final speed
// within 1 %, the belt's work positive, and the contact works add up to
// the work of the contact impulses on the body (the ledger's contact
// term) to round-off.
func TestConveyor(t *testing.T) {
	const mu, g, belt = 0.3, 9.81, 1.0
	for _, lumped := range []bool{false, true} {
		mat := element.Elastic{E: 1e7, Nu: 0.3, Rho: 1000}
		m, err := mesh.Rectangle([2]float64{0, 0}, 0.1, 0.05, 8, 4, mesh.Q4)
		require.NoError(t, err)
		s, err := assemble.NewSpace(m)
		require.NoError(t, err)
		b, err := fe.NewBody("block", s, mat, fe.BodyOptions{Gravity: [2]float64{0, -g}, Damping: fe.Rayleigh{Beta: 1e-4}, Lumped: lumped})
		require.NoError(t, err)
		side, err := contact.NewSide(0, m, s.DOFs, "bottom", 1)
		require.NoError(t, err)
		floor := &contact.Obstacle{Name: "belt", Points: [][2]float64{{-10, 0}, {10, 0}}, Motion: contact.ConstantVelocity{V: [2]float64{belt, 0}}}
		det, err := contact.NewDetector(&contact.Pair{Name: "belt", Candidate: side, Obstacle: floor, Mu: mu, Alert: 2e-3})
		require.NoError(t, err)
		sim, err := NewSimulation([]*fe.Body{b}, det, SimOptions{H: 1e-4, Theta: 0.5, Solver: signorini.Options{ChangeTol: -1}})
		require.NoError(t, err)
		var v1 float64
		for i := 1; i <= 5000; i++ {
			_, err := sim.Step()
			require.NoError(t, err)
			switch i {
			case 500:
				v1 = meanVelocity(b)[0]
			case 2500:
				acc := (meanVelocity(b)[0] - v1) / 0.2
				t.Logf("lumped %v: acceleration %.5g m/s^2 against mu g = %.5g", lumped, acc, mu*g)
				assert.InDelta(t, mu*g, acc, 0.02*mu*g, "lumped %v", lumped)
			}
		}
		e := sim.Stepper.TotalEnergy()
		assert.InDelta(t, belt, meanVelocity(b)[0], 0.01*belt, "rides the belt after %.3g s", belt/(mu*g))
		assert.Greater(t, sim.ObstacleWork, 0.0, "the belt does work on the block")
		sum := sim.NormalWork + sim.PushOutWork + sim.FrictionWork + sim.ObstacleWork
		assert.InDelta(t, e.Contact, sum, 1e-9*sim.ObstacleWork, "contact works add up")
		assert.InDelta(t, 0, e.Balance(), 1e-9*sim.ObstacleWork, "ledger")
	}
}
