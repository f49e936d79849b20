package fe

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
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
