package results

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/rigid"
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

// TestRigidGridDisk: a disk is drawn as a 32-gon with a notch from its
// centre to the vertex on its own x axis, which turns with it (a regular
// polygon turning looks still), and the cells carry each body's angle.
func TestRigidGridDisk(t *testing.T) {
	d, err := rigid.NewBody("disk", rigid.Disk{R: 0.5}, [2]float64{1, 2}, 1000)
	require.NoError(t, err)
	d.Q[2] = 0.3
	sys, err := rigid.NewSystem([]*rigid.Body{d}, nil, 0)
	require.NoError(t, err)
	g := RigidGrid(sys)
	require.Len(t, g.Polygons, 1)
	require.Len(t, g.Polygons[0], diskSides+1)
	require.Equal(t, [2]float64{1, 2}, g.Points[0], "the notch starts at the centre")
	require.InDelta(t, 1+0.5*math.Cos(0.3), g.Points[1][0], 1e-15)
	require.InDelta(t, 2+0.5*math.Sin(0.3), g.Points[1][1], 1e-15)
	for _, f := range g.CellData {
		if f.Name == "angle" {
			require.Equal(t, []float64{0.3}, f.Values)
			return
		}
	}
	t.Fatal("no angle")
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
