package timestep

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/rigid"
)

// TestVelocitySetByHandIsBooked: a velocity or position an embedding
// program sets after NewSimulation, or between steps, on a finite-element
// body, a rigid body or a point mass, is taken at the next step's start
// and its change of energy booked as external work: the ledger closes to
// round-off (it was 19.5 J off for an elastic block, 141 J for a rigid
// one), and the step moves the body from the velocity set.
func TestVelocitySetByHandIsBooked(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 1}, 0.4, 0.2, 4, 2, mesh.Q4)
	require.NoError(t, err)
	space, err := assemble.NewSpace(m)
	require.NoError(t, err)
	body, err := fe.NewBody("block", space, element.Elastic{E: 1e6, Nu: 0.3, Rho: 1000, Thickness: 1}, fe.BodyOptions{})
	require.NoError(t, err)
	shape, err := rigid.Rectangle(0.4, 0.2)
	require.NoError(t, err)
	box, err := rigid.NewBody("box", shape, [2]float64{3, 1}, 2500)
	require.NoError(t, err)
	box.Gravity = [2]float64{0, -9.81}
	sys, err := rigid.NewSystem([]*rigid.Body{box}, nil, 0.01)
	require.NoError(t, err)
	mass := &discrete.Mass{Name: "m", M: 2, X: [2]float64{6, 1}, Gravity: [2]float64{0, -9.81}}
	points, err := discrete.NewSystem([]*discrete.Mass{mass}, []discrete.Spring{{Name: "s", A: 0, B: discrete.Anchored, Anchor: [2]float64{6, 2}, K: 100}}, nil)
	require.NoError(t, err)
	s, err := NewSimulation([]*fe.Body{body}, nil, SimOptions{H: 1e-3, Rigid: sys, Points: points})
	require.NoError(t, err)
	e0 := s.TotalEnergy().Balance()
	set := func(k int) {
		for i := 0; i < len(body.V); i += 2 {
			body.V[i] = 2 + float64(k)
		}
		body.Q[1] += 1e-5
		box.V = [3]float64{3, 1 + float64(k), 2}
		mass.V = [2]float64{-1, float64(k)}
		mass.X[0] += 0.01
	}
	set(0)
	for k := range 20 {
		if k == 10 {
			set(k)
		}
		_, err := s.Step()
		require.NoError(t, err)
		if k == 0 {
			assert.InDelta(t, 1-9.81e-3, box.V[1], 1e-12, "the box moved from the velocity set")
			assert.InDelta(t, 2, body.V[0], 0.01, "the block moved from the velocity set")
		}
	}
	e := s.TotalEnergy()
	assert.InDelta(t, e0, e.Balance(), 1e-9*e.Kinetic, "the ledger closes: %+v", e)
	assert.Greater(t, e.External, 1000.0, "the set velocities' work is booked")
}
