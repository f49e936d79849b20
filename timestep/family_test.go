package timestep

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// TestRigidPredictIsTheEnd: a rigid body's compliance is exact, so the end
// velocity and pose that the correction predicts from an impulse are
// those the step ends with under it, to round-off; a driven body's
// predicted pose follows its motion. (The predicted end is where the
// pairs' units are detected again and their gaps carried back.)
func TestRigidPredictIsTheEnd(t *testing.T) {
	shape, err := rigid.Rectangle(0.4, 0.2)
	require.NoError(t, err)
	box, err := rigid.NewBody("box", shape, [2]float64{0, 0.1}, 2500)
	require.NoError(t, err)
	box.Gravity, box.V = [2]float64{0, -9.81}, [3]float64{0.3, -0.2, 0.5}
	slab, err := rigid.Rectangle(2, 0.2)
	require.NoError(t, err)
	belt, err := rigid.NewBody("belt", slab, [2]float64{0, -0.1}, 0)
	require.NoError(t, err)
	belt.Motion = contact.ConstantVelocity{V: [2]float64{1.5, 0}}
	sys, err := rigid.NewSystem([]*rigid.Body{box, belt}, []rigid.Rule{{Mu: 0.5}}, 0.01)
	require.NoError(t, err)
	const h, th = 1e-3, 0.5
	s, err := NewSimulation(nil, nil, SimOptions{H: h, Theta: th, Rigid: sys})
	require.NoError(t, err)
	s.placeAll()
	_, vfree, err := s.begin(0, h, th)
	require.NoError(t, err)
	s.r[0] = []float64{2, 30, -1.5} // N s and N m s on the box
	vp := s.predict(vfree, h, th)
	pose := s.at.Poses
	require.NoError(t, s.families[1].Finish(s.impulsesOf(1), s.shift[s.base[1]:], true, 1))
	for k := range 3 {
		assert.InDelta(t, box.V[k], vp[0][k], 1e-14, "velocity %d", k)
		assert.InDelta(t, box.Q[k], pose[0][k], 1e-14, "pose %d", k)
	}
	assert.InDelta(t, belt.Q[0], pose[1][0], 1e-15, "the belt's predicted pose follows its motion")
}
