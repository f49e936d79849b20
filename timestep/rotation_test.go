package timestep

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
)

// TestRotationWarnings spins a free square at 2 rad/s, linear and neo-
// Hookean, for 0.1 s (0.2 rad): the hyperelastic square's MeanRotation is
// omega t to 1e-3 and it is never warned of; the linear one, whose nodes
// move along their tangents, turns by atan(omega t), and Warnings
// names it once, in the step where it passes 0.1 rad, and advises a
// hyperelastic model.
func TestRotationWarnings(t *testing.T) {
	const omega, h = 2.0, 1e-3
	spin := func(x [2]float64) [2]float64 { return [2]float64{-omega * x[1], omega * x[0]} }
	for _, law := range []element.Law{0, element.NeoHookean} {
		b := spinningSquare(t, law, spin)
		sim, err := NewSimulation([]*fe.Body{b}, nil, SimOptions{H: h})
		require.NoError(t, err)
		var warned []int
		for k := 1; k <= 100; k++ {
			_, err := sim.Step()
			require.NoError(t, err)
			for _, w := range sim.Warnings() {
				warned = append(warned, k)
				require.Contains(t, w, `body "square" has turned by 0.1`)
				require.Contains(t, w, `give it model = "neohookean"`)
			}
		}
		turn := omega * 100 * h
		if law != 0 {
			require.InDelta(t, turn, b.MeanRotation(), 1e-3*turn, "the neo-Hookean square's turn")
			require.Empty(t, warned)
			continue
		}
		require.InDelta(t, math.Atan(turn), b.MeanRotation(), 1e-3*turn, "the linear square's turn")
		// atan(omega t) = 0.1 at t = 50.2 ms.
		require.Equal(t, []int{51}, warned, "warned once, when it passed 0.1 rad")
	}
}
