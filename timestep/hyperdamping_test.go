package timestep

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/signorini"
)

// TestHyperDampingSpin spins a free neo-Hookean square (0.1 m, rubber) at
// 20 rad/s for one turn with stiffness-proportional damping beta = 1e-4
// (and, apart, with none): the damping must leave the rigid rotation
// alone at every orientation. What it may take is the energy of the
// centrifugal stretch's vibration, which the undamped run stores: the
// damping loss stays below the undamped run's largest stored energy, and
// the kinetic energy within that of the undamped run's. Damping with the
// stiffness at rest took the whole kinetic energy within a radian.
func TestHyperDampingSpin(t *testing.T) {
	const omega, h = 20.0, 1e-4
	spin := func(x [2]float64) [2]float64 { return [2]float64{-omega * x[1], omega * x[0]} }
	steps := int(math.Round(2 * math.Pi / omega / h))
	var stored float64
	var kinetic [2]float64
	for k, beta := range []float64{0, 1e-4} {
		b := freeSquareOf(t, mesh.Q4, rubberMat, BodyOptions{Law: element.NeoHookean, Damping: Rayleigh{Beta: beta}}, spin)
		s, err := NewStepper(h, 0.5, b)
		require.NoError(t, err)
		e0 := s.TotalEnergy()
		for i := 1; i <= steps; i++ {
			require.NoError(t, s.Step())
			if beta == 0 {
				stored = math.Max(stored, s.TotalEnergy().Elastic)
			}
			require.InDelta(t, e0.Balance(), s.TotalEnergy().Balance(), 1e-9*e0.Kinetic, "beta %g, step %d: ledger", beta, i)
		}
		e := s.TotalEnergy()
		kinetic[k] = e.Kinetic
		t.Logf("beta %g: kinetic %.9g of %.9g J, damping loss %.3g J, stored %.3g J (undamped: up to %.3g J)", beta, e.Kinetic, e0.Kinetic, e.Damping, e.Elastic, stored)
		if beta > 0 {
			require.Less(t, e.Damping, stored, "the damping takes the vibration's energy at most")
			require.InDelta(t, kinetic[0], kinetic[1], 2*stored, "the kinetic energy of the spin is kept")
		}
	}
}

// TestHyperDampedDrop drops a neo-Hookean block (Q4, 8 x 4 cells) 1 mm
// onto a floor under gravity with stiffness-proportional damping alone
// (beta = 2e-3, the block's first modes critically damped or so): the
// damping still takes the vibration of the landing, and the block comes
// to rest on the floor, its kinetic energy below 1e-9 of m g H after
// 0.25 s, the floor carrying its weight within 1e-4 (Simulation.PairForces
// gives it), and the ledger closed with the contact never creating energy.
func TestHyperDampedDrop(t *testing.T) {
	const rho, W, H, g, h = 1000.0, 0.1, 0.05, 9.81, 1e-4
	m, err := mesh.Rectangle([2]float64{0, 1e-3}, W, H, 8, 4, mesh.Q4)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m)
	require.NoError(t, err)
	b, err := NewBody("block", s, element.Elastic{E: 1e6, Nu: 0.3, Rho: rho}, BodyOptions{
		Law: element.NeoHookean, Gravity: [2]float64{0, -g}, Damping: Rayleigh{Beta: 2e-3},
	})
	require.NoError(t, err)
	side, err := contact.NewSide(0, m, s.DOFs, "bottom", 1)
	require.NoError(t, err)
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	det, err := contact.NewDetector(&contact.Pair{Name: "floor", Candidate: side, Obstacle: floor, Mu: 0.3})
	require.NoError(t, err)
	sim, err := NewSimulation([]*Body{b}, det, SimOptions{H: h, Solver: signorini.Options{ChangeTol: -1}})
	require.NoError(t, err)
	mgH := rho * W * H * g * H
	for i := 1; i <= 2500; i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		e := sim.TotalEnergy()
		require.InDelta(t, 0, e.Balance(), 1e-9*math.Abs(e.External)+1e-15, "step %d: ledger", i)
		require.LessOrEqual(t, st.NormalWork, 1e-12*mgH, "step %d: contact work", i)
	}
	var fy float64
	for _, c := range sim.Contacts() {
		fy += c.Impulse[0] * c.Weight / h
	}
	e := sim.TotalEnergy()
	t.Logf("kinetic %.3g J (m g H %.3g J), damping loss %.3g J, floor force %.6g N/m against %.6g", e.Kinetic, mgH, e.Damping, fy, rho*W*H*g)
	require.Less(t, e.Kinetic, 1e-9*mgH, "at rest")
	require.InEpsilon(t, rho*W*H*g, fy, 1e-4, "the floor carries the weight")
	force, closed := sim.PairForces()
	require.Equal(t, 9, closed[0], "the bottom's nodes on the floor")
	require.InDelta(t, fy, force[0][1], 1e-12*fy, "PairForces: the floor's push on the block")
	require.InDelta(t, 0, force[0][0], 1e-9*fy, "no sideways force at rest")
}

// TestHyperDampingSmallStrain: at small strain the hyperelastic damping is
// the linear body's beta K: a free square vibrating at 0.1 % strain,
// beta = 1e-4, loses to damping over 2 ms what the linear square loses,
// to 1e-3 of it (a damping stiffness off by a factor, 0.8 say, is 20 %
// off).
func TestHyperDampingSmallStrain(t *testing.T) {
	stretch := func(x [2]float64) [2]float64 { return [2]float64{0.1 * x[0], -0.1 * x[1]} }
	var loss [2]float64
	for k, law := range []element.Law{0, element.NeoHookean} {
		b := freeSquareOf(t, mesh.Q4, rubberMat, BodyOptions{Law: law, Damping: Rayleigh{Beta: 1e-4}}, stretch)
		s, err := NewStepper(1e-5, 0.5, b)
		require.NoError(t, err)
		for range 200 {
			require.NoError(t, s.Step())
		}
		loss[k] = s.TotalEnergy().Damping
	}
	t.Logf("damping loss: linear %.6g J, neo-Hookean %.6g J", loss[0], loss[1])
	require.Positive(t, loss[0])
	require.InEpsilon(t, loss[0], loss[1], 1e-3)
}
