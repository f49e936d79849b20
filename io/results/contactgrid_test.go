package results

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
)

// TestContactForces: contacts.pvd's force vectors, summed over a pair's
// units with the reverse ones' sign changed, are the pair's resultant on
// its candidate body that history.csv gives (contactK_fx, _fy), at every
// step of the colliding blocks' sliding phase; each vector is the
// impulse density times the unit's weight over h (the weight written
// beside it), so that a nodal force can be glyphed in ParaView.
func TestContactForces(t *testing.T) {
	data, err := examples.Scene("colliding-blocks")
	require.NoError(t, err)
	sc, err := scene.Decode(strings.NewReader(string(data)), "colliding-blocks/scene.toml")
	require.NoError(t, err)
	m, err := sc.Model(scene.Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	field := func(g *vtk.Grid, name string) []float64 {
		for _, f := range g.PointData {
			if f.Name == name {
				return f.Values
			}
		}
		t.Fatalf("no point array %q", name)
		return nil
	}
	checked := 0
	for step := 1; step <= 300; step++ {
		_, err := sim.Step()
		require.NoError(t, err)
		g := ContactGrid(sim)
		force, rev, pair := field(g, "force"), field(g, "reverse"), field(g, "pair")
		require.Len(t, field(g, "weight"), len(g.Points))
		var sum [2]float64
		for i := range g.Points {
			require.Equal(t, 0.0, pair[i], "one pair")
			sign := 1 - 2*rev[i]
			sum[0] += sign * force[3*i]
			sum[1] += sign * force[3*i+1]
		}
		want, closed := sim.PairForces()
		if closed[0] == 0 {
			continue
		}
		checked++
		scale := math.Hypot(want[0][0], want[0][1])
		require.InDelta(t, want[0][0], sum[0], 1e-12*scale, "step %d: x", step)
		require.InDelta(t, want[0][1], sum[1], 1e-12*scale, "step %d: y", step)
	}
	require.Greater(t, checked, 100, "steps in contact")
}

// TestFirstContactFrame: the first frame of contacts.pvd holds the units
// found at t = 0, with no impulse (a block set on a floor touches it from
// the start), not an empty piece; the first step starts from the same
// detection, so its units are those.
func TestFirstContactFrame(t *testing.T) {
	data, err := examples.Scene("resting-block")
	require.NoError(t, err)
	sc, err := scene.Decode(strings.NewReader(string(data)), "resting-block/scene.toml")
	require.NoError(t, err)
	m, err := sc.Model(scene.Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	require.NoError(t, sim.StartContacts())
	first := ContactGrid(sim)
	require.NotEmpty(t, first.Points, "the block touches the floor at t = 0")
	for _, f := range first.PointData {
		if strings.HasPrefix(f.Name, "impulse") || f.Name == "force" {
			for _, v := range f.Values {
				require.Zero(t, v, f.Name)
			}
		}
	}
	_, err = sim.Step()
	require.NoError(t, err)
	require.Equal(t, first.Points, ContactGrid(sim).Points, "the first step's units are those found at the start")
	require.NoError(t, sim.StartContacts(), "after a step: nothing")
}
