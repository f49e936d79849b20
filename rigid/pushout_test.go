package rigid_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// TestPushOutReach: a disk at rest that starts 1 % of its radius inside a
// fixed one is pushed out under the positional law by at most a thousandth
// of the radius per step (pushReach of the smaller radius), of which the
// first step's theta-weighted position update moves half: the overlap
// falls by 0.5e-3 r in the first step, neither faster (bodies thrown
// apart) nor slower.
func TestPushOutReach(t *testing.T) {
	const r = 0.05
	a, err := rigid.NewBody("a", rigid.Disk{R: r}, [2]float64{0, 0}, 0)
	require.NoError(t, err)
	a.Motion = contact.Fixed{}
	b, err := rigid.NewBody("b", rigid.Disk{R: r}, [2]float64{0, 2*r - 0.01*r}, 1000)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{a, b}, []rigid.Rule{{Law: contact.Positional}}, 0)
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Theta: 0.5, Rigid: sys})
	require.NoError(t, err)
	before := -rigid.Distance(a, b)
	assert.InDelta(t, 0.01*r, before, 1e-15)
	_, err = sim.Step()
	require.NoError(t, err)
	after := -rigid.Distance(a, b)
	assert.InDelta(t, before-0.5e-3*r, after, 1e-12*r, "the overlap after one step")
	assert.LessOrEqual(t, sim.NormalWork, 0.0, "the contact law itself gives nothing")
	assert.Positive(t, sim.PushOutWork, "the push-out is booked apart")
}

// TestRestingForces: a box resting on a fixed ground, after it settles:
// the contacts' forces (Simulation.Force, N per m), signed for the body of
// their node (ContactState.Body), add up on the box to its weight m g,
// per m of thickness like the rigid bodies' masses.
func TestRestingForces(t *testing.T) {
	box, ground, err := piles.BoxOnGround(0.4, 0.2, 2500)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{ground, box}, []rigid.Rule{{Mu: 0.5}}, 0.01)
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys})
	require.NoError(t, err)
	for range 100 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	var total [2]float64
	for _, c := range sim.Contacts() {
		sign := -1.0 // on the ground: the box gets the opposite
		if c.Body == 1 {
			sign = 1
		}
		f := sim.Force(c)
		total[0], total[1] = total[0]+sign*f[0], total[1]+sign*f[1]
	}
	require.NotEmpty(t, sim.Contacts())
	assert.InDelta(t, 0, total[0], 1e-9*box.Mass*9.81)
	assert.InDelta(t, box.Mass*9.81, total[1], 1e-6*box.Mass*9.81, "the box's weight, %g kg per m", box.Mass)
}
