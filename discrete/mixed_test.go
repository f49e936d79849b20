package discrete_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// stepAll steps a simulation, checking the ledger after every step as
// simulate does, and returns the smallest gap of any unit after step skip.
func stepAll(t *testing.T, sim *timestep.Simulation, steps, skip int) float64 {
	t.Helper()
	e0 := sim.TotalEnergy()
	scale := math.Max(1e-12, e0.Kinetic+e0.Elastic)
	minGap := math.Inf(1)
	for i := range steps {
		st, err := sim.Step()
		require.NoError(t, err)
		e := sim.TotalEnergy()
		require.LessOrEqual(t, e.Balance()-e0.Balance(), 1e-9*math.Max(scale, math.Abs(e.External)), "step %d: energy created", i+1)
		if i >= skip {
			minGap = math.Min(minGap, st.MinGap)
		}
	}
	return minGap
}

// TestMassOnElasticBlock: a mass (0.2 kg/m) on a soft spring hangs above
// an elastic block (Q4, 8 x 4 cells, fixed on its base) and falls onto its
// top at 1 m/s with friction, then settles with the spring's dashpot and
// the block's damping: no energy is created, the mass never enters the
// top by more than 1 % of a cell, and at rest the block carries the mass's
// weight less the spring's pull (1 %), through the units on its side.
func TestMassOnElasticBlock(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{-0.05, 0}, 0.1, 0.05, 8, 4, mesh.Q4)
	require.NoError(t, err)
	space, err := assemble.NewSpace(m, assemble.Fix{Group: "bottom", Comp: assemble.XY})
	require.NoError(t, err)
	block, err := fe.NewBody("block", space, element.Elastic{E: 1e7, Nu: 0.3, Rho: 1000}, fe.BodyOptions{Damping: fe.Rayleigh{Alpha: 50}})
	require.NoError(t, err)
	top, err := block.Side("top")
	require.NoError(t, err)
	const mass, g, k = 0.2, 9.81, 20.0
	rest := 0.1
	bob := &discrete.Mass{Name: "bob", M: mass, X: [2]float64{0.003, 0.051}, V: [2]float64{0, -1}, Gravity: [2]float64{0, -g}}
	sys, err := discrete.NewSystem([]*discrete.Mass{bob},
		[]discrete.Spring{{Name: "hanger", A: 0, B: discrete.Anchored, Anchor: [2]float64{0.003, 0.151}, K: k, Rest: &rest, Damping: 0.5}},
		[]discrete.Contact{{Name: "on block", Side: top, Mu: 0.3}})
	require.NoError(t, err)
	sim, err := timestep.NewSimulation([]*fe.Body{block}, nil, timestep.SimOptions{H: 1e-4, Points: sys})
	require.NoError(t, err)
	minGap := stepAll(t, sim, 5000, 100)
	assert.Greater(t, minGap, -0.01*0.1/8, "deepest unit after landing (m)")
	var carried float64 // over 0.1 s: the block still rings a little
	for range 1000 {
		_, err := sim.Step()
		require.NoError(t, err)
		for _, c := range sim.Contacts() {
			carried -= sim.Force(c)[1] / 1000 // the force on the mass, up; the block carries its opposite
		}
	}
	stretch := 0.151 - bob.X[1] - rest
	assert.InEpsilon(t, mass*g-k*stretch, -carried, 0.01, "at rest on the block: weight %.4g N/m, spring %.4g N/m", mass*g, k*stretch)
	assert.Less(t, math.Hypot(bob.V[0], bob.V[1]), 1e-3, "at rest")
}

// TestMassOnRigidBox: a point mass falls onto a free rigid box that rests
// on a fixed rigid ground and comes to rest on it (mu = 0.5, the Shock
// law, inelastic): no energy is created and at rest the ground carries the
// weights of both, the box the mass's, to 0.5 %.
func TestMassOnRigidBox(t *testing.T) {
	box, ground, err := piles.BoxOnGround(0.2, 0.1, 1000)
	require.NoError(t, err)
	rs, err := rigid.NewSystem([]*rigid.Body{box, ground}, []rigid.Rule{{Mu: 0.5, Law: contact.Shock}}, 0.005)
	require.NoError(t, err)
	hull := box.Obstacle()
	bob := &discrete.Mass{Name: "bob", M: 2, X: [2]float64{0.03, 0.11}, V: [2]float64{0.2, -0.5}, Gravity: [2]float64{0, -9.81}}
	sys, err := discrete.NewSystem([]*discrete.Mass{bob}, nil, []discrete.Contact{{Name: "on box", Obstacle: hull, Mu: 0.5, Law: contact.Shock}})
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: rs, Points: sys})
	require.NoError(t, err)
	stepAll(t, sim, 5000, 0)
	var onBox, onGround float64
	for _, c := range sim.Contacts() {
		f := sim.Force(c)[1]
		if c.Body == 2 { // the mass's component: the box pushes it up
			onBox += f
		} else {
			onGround += math.Abs(f)
		}
	}
	w := 9.81 * (2 + 1000*0.2*0.1)
	t.Logf("box carries %.4g N/m, ground %.4g N/m; mass at %v", onBox, onGround, bob.X)
	assert.InEpsilon(t, 2*9.81, onBox, 0.005)
	assert.InEpsilon(t, w, onGround, 0.005)
	assert.InDelta(t, 0.1, bob.X[1], 1e-4, "on the box's top")
}
