package timestep_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/internal/toy"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// TestToyKind: a kind of body the step has never heard of (beads on a
// rail, package internal/toy, written against package kind alone) is
// added by one line (SimOptions.Kinds) beside a rigid body: a bead pushed
// by 2 N/m from 0.95 m before the stop arrives at t = sqrt(2 * 0.95 m /
// 2 m/s^2), is stopped there inelastically and held at rest against it;
// the contact work is minus the kinetic energy it arrived with (no energy
// created), the ledger closes, the rigid body falls freely beside it; a
// checkpoint taken mid-run and loaded into a simulation built the same way
// goes on bit for bit; one without the beads is refused naming the kinds.
func TestToyKind(t *testing.T) {
	const h = 1e-3
	build := func(withBeads bool) (*timestep.Simulation, *toy.Beads, *rigid.Body) {
		shape, err := rigid.Rectangle(0.2, 0.1)
		require.NoError(t, err)
		box, err := rigid.NewBody("box", shape, [2]float64{5, 5}, 1000)
		require.NoError(t, err)
		box.Gravity = [2]float64{0, -9.81}
		sys, err := rigid.NewSystem([]*rigid.Body{box}, nil, 0.01)
		require.NoError(t, err)
		beads := toy.New(1, 0, 1, 0.05, 2, 1)
		opt := timestep.SimOptions{H: h, Rigid: sys}
		if withBeads {
			opt.Kinds = append(opt.Kinds, beads.Kind()) // the one registration
		}
		s, err := timestep.NewSimulation(nil, nil, opt)
		require.NoError(t, err)
		return s, beads, box
	}
	s, beads, box := build(true)
	e0 := s.TotalEnergy()
	var arrived float64
	var half bytes.Buffer
	for step := 1; step <= 2000; step++ {
		st, err := s.Step()
		require.NoError(t, err)
		if arrived == 0 && st.Stick+st.Slide > 0 && beads.V[0] < 1e-9 {
			arrived = st.Time
		}
		if step == 1000 {
			require.NoError(t, s.SaveState(&half))
		}
	}
	assert.InDelta(t, math.Sqrt(0.95), arrived, 2*h, "the arrival time")
	assert.InDelta(t, 0.95, beads.X[0], 1e-6, "at the stop")
	assert.InDelta(t, 0, beads.V[0], 1e-9, "at rest")
	assert.InDelta(t, -9.81*2, box.V[1], 1e-9, "the rigid body falls freely beside it")
	e := s.TotalEnergy()
	assert.InDelta(t, e0.Balance(), e.Balance(), 1e-9, "the ledger closes: %+v", e)
	assert.InDelta(t, -2*0.95, e.Contact, 1e-3, "the contact work is the kinetic energy it arrived with")
	assert.LessOrEqual(t, e.Contact, 0.0, "contact creates no energy")

	resumed, rb, _ := build(true)
	require.NoError(t, resumed.LoadState(bytes.NewReader(half.Bytes())))
	for range 1000 {
		_, err := resumed.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, beads.X, rb.X, "resumed bit for bit")
	assert.Equal(t, beads.V, rb.V)
	assert.Equal(t, s.TotalEnergy(), resumed.TotalEnergy())

	without, _, _ := build(false)
	err := without.LoadState(bytes.NewReader(half.Bytes()))
	assert.ErrorContains(t, err, "simulation state: its kinds of body (finite-element bodies, rigid bodies, point masses, beads) are not this simulation's (finite-element bodies, rigid bodies, point masses)")
}
