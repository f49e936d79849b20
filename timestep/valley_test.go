package timestep

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/mesh"
)

// TestValley: a one-cell block standing on a corner (a square turned 45
// degrees) slides down one face of a V groove (slopes of 0.3) at 3 m/s and
// reaches its bottom: there the body under it is the union of the two
// faces' half-planes, and the corner must be held out of both. Held
// against the face it slides on alone, it enters the rising face by what
// it travels in a step; held against both near the bottom, it stays out.
// The contact never creates energy.
func TestValley(t *testing.T) {
	const slope, w, h = 0.3, 0.01, 1e-4
	m, err := mesh.Rectangle([2]float64{0, 0}, w, w, 1, 1, mesh.Q4)
	require.NoError(t, err)
	start := [2]float64{-0.0015, 0.0015 * slope} // on the left face, 1.5 mm from the bottom
	c, s := math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	for i, x := range m.Nodes {
		m.Nodes[i] = [2]float64{start[0] + c*x[0] - s*x[1], start[1] + s*x[0] + c*x[1]}
	}
	space, err := assemble.NewSpace(m)
	require.NoError(t, err)
	b, err := fe.NewBody("diamond", space, blockMat, fe.BodyOptions{})
	require.NoError(t, err)
	l := math.Hypot(1, slope)
	b.SetVelocity(func([2]float64) [2]float64 { return [2]float64{3 / l, -3 * slope / l} })
	groove := &contact.Obstacle{Name: "groove", Points: [][2]float64{{-1, slope}, {0, 0}, {1, slope}}}
	side, err := b.Side("bottom")
	require.NoError(t, err)
	det, err := contact.NewDetector(&contact.Pair{Name: "groove", Candidate: side, Obstacle: groove, Alert: w / 4})
	require.NoError(t, err)
	sim, err := NewSimulation([]*fe.Body{b}, det, SimOptions{H: h})
	require.NoError(t, err)
	e0 := sim.Stepper.TotalEnergy()
	first := e0.Kinetic + e0.Elastic
	deepest, crossed := 0.0, false
	for i := 1; i <= 20; i++ {
		_, err := sim.Step()
		require.NoError(t, err)
		for _, n := range side.Nodes() {
			x := position(b, n)
			deepest = math.Max(deepest, (slope*math.Abs(x[0])-x[1])/l)
			crossed = crossed || x[0] > 0
		}
		e := sim.Stepper.TotalEnergy()
		require.LessOrEqual(t, e.Kinetic+e.Elastic, first*(1+1e-9), "step %d", i)
	}
	require.True(t, crossed, "the corner has reached the bottom of the groove")
	t.Logf("deepest %.3g m (%.2g of the cell)", deepest, deepest/w)
	assert.Less(t, deepest, 1e-6*w)
}
