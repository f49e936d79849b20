package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// mixedRun builds a scene and steps it, checking after every step that
// contact adds no energy to the ledger; it returns the model, the
// simulation and the smallest gap of any unit after step skip, and calls
// each (if not nil) after every step.
func mixedRun(t *testing.T, text string, skip int, each ...func(*Model)) (*Model, *timestep.Simulation, float64) {
	t.Helper()
	sc, err := Decode(strings.NewReader(text), "mixed.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	minGap := math.Inf(1)
	for i := 0; i < sc.Steps(); i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		e := sim.TotalEnergy()
		scale := math.Max(1, math.Max(math.Abs(e0), math.Abs(e.External)))
		require.LessOrEqual(t, e.Balance()-e0, 1e-9*scale, "step %d: energy created", i+1)
		if i >= skip {
			minGap = math.Min(minGap, st.MinGap)
		}
		for _, f := range each {
			f(m)
		}
	}
	return m, sim, minGap
}

// depthBelowTop is how far the lowest point of rigid body 0 lies below the
// deformed top of elastic body 0 (the top's nodes joined by straight
// lines), at that point's x: its depth into the block, or a negative
// clearance.
func depthBelowTop(m *Model) float64 {
	b, r := m.Bodies[0], m.Rigid.Bodies[0]
	low := [2]float64{r.Q[0], math.Inf(1)}
	if d, ok := r.Shape.(rigid.Disk); ok {
		low = [2]float64{r.Q[0], r.Q[1] - d.R}
	}
	for _, v := range r.Vertices(nil) {
		if v[1] < low[1] {
			low = v
		}
	}
	u := b.Displacement()
	top, _ := b.Space.Mesh.NodeGroup("top")
	surface := math.Inf(-1)
	for _, i := range top {
		for _, j := range top {
			xi := [2]float64{b.Space.Mesh.Nodes[i][0] + u[2*i], b.Space.Mesh.Nodes[i][1] + u[2*i+1]}
			xj := [2]float64{b.Space.Mesh.Nodes[j][0] + u[2*j], b.Space.Mesh.Nodes[j][1] + u[2*j+1]}
			if xi[0] <= low[0] && low[0] <= xj[0] && xj[0]-xi[0] < 0.02 {
				s := (low[0] - xi[0]) / math.Max(xj[0]-xi[0], 1e-300)
				surface = math.Max(surface, xi[1]+s*(xj[1]-xi[1]))
			}
		}
	}
	return surface - low[1]
}

// verticalForce sums the last step's vertical contact forces (N per m) on
// the candidates of the units that sel picks.
func verticalForce(sim *timestep.Simulation, sel func(c timestep.ContactState) bool) float64 {
	var f float64
	for _, c := range sim.Contacts() {
		if sel(c) {
			f += c.Weight * (c.Impulse[0]*c.N[1] + c.Impulse[1]*c.T[1]) / sim.Stepper.H()
		}
	}
	return f
}

// TestElasticOnRigid drops an elastic block (Q4, 8 x 4 cells) 1 mm onto a
// free rigid plate that rests on a fixed rigid ground, and lets it settle
// with damping: no energy is created, no node of the block enters the
// plate by more than 1 % of a cell, no corner of the plate enters the
// block, and at rest the ground carries the weight of both (the plate's
// units) and the plate the block's, within 0.5 %.
func TestElasticOnRigid(t *testing.T) {
	const scene = `
[time]
h = 1e-4
duration = 1.0

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.05, 0.051], size = [0.1, 0.05], cells = [8, 4] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]
damping = { alpha = 40.0 }

[[rigid]]
name = "plate"
rectangle = [0.3, 0.05]
position = [0.0, 0.025]
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "ground"
group = "ground"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
law = "signorini"

[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "plate"
mu = 0.3
`
	m, sim, minGap := mixedRun(t, scene, 100)
	cell := 0.1 / 8
	assert.Greater(t, minGap, -0.01*cell, "deepest unit after landing (m)")
	g := 9.81
	block, plate := 1000*0.1*0.05*g, 1000*0.3*0.05*g
	onGround := verticalForce(sim, func(c timestep.ContactState) bool { return c.Key.Pair < 0 })
	onBlock := verticalForce(sim, func(c timestep.ContactState) bool { return c.Key.Pair == 0 && !c.Key.Reverse })
	t.Logf("ground carries %.3f N (weights %.3f N), the plate carries %.3f N of the block's %.3f N; plate at %v", onGround, block+plate, onBlock, block, m.Rigid.Bodies[0].Q)
	assert.InEpsilon(t, block+plate, onGround, 0.005)
	assert.InEpsilon(t, block, onBlock, 0.005)
	assert.InDelta(t, 0.025, m.Rigid.Bodies[0].Q[1], 1e-6, "the plate stays on the ground")
}

// TestRigidOnElastic drops a rigid disk and a rigid square standing on a
// corner 1 mm onto an elastic block fixed on its base, and lets them
// settle on its top (the square held upright by a rigid guide would be
// another test: here it topples, and comes to rest on a face). The
// block's nodes are kept out of the rigid bodies and the rigid bodies out
// of the block's edges (the disk and the square's corners between nodes):
// no unit is deeper than 1 % of a cell after landing, no energy is
// created, and at rest the block carries the rigid body's weight within
// 0.5 %.
func TestRigidOnElastic(t *testing.T) {
	const base = `
[time]
h = 1e-4
duration = 1.0

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.1, 0.0], size = [0.2, 0.05], cells = [16, 4] }
E = 1e7
nu = 0.3
rho = 1000
fixed = [{ group = "bottom" }]
damping = { alpha = 40.0 }

[[contact]]
candidate = { body = "block", group = "top" }
rigid = "body"
mu = 0.3
`
	for _, tc := range []struct {
		name, shape string
		mass        float64
	}{
		{"disk", "radius = 0.02\nposition = [0.003, 0.071]", 1000 * math.Pi * 0.02 * 0.02},
		{"square on a corner", "rectangle = [0.03, 0.03]\nangle = 0.7853981633974483\nposition = [0.003, 0.07221320343559643]", 1000 * 0.03 * 0.03},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scene := base + "\n[[rigid]]\nname = \"body\"\n" + tc.shape + "\nrho = 1000\ngravity = [0.0, -9.81]\n"
			cell := 0.2 / 16
			deepest := math.Inf(-1)
			m, sim, minGap := mixedRun(t, scene, 100, func(m *Model) { deepest = math.Max(deepest, depthBelowTop(m)) })
			assert.Greater(t, minGap, -0.01*cell, "deepest unit after landing (m)")
			t.Logf("deepest point of the rigid body below the block's top: %.3g m (%.2g of a cell)", deepest, deepest/cell)
			assert.Less(t, deepest, 0.01*cell, "the rigid body's lowest point below the block's top (m)")
			weight := tc.mass * 9.81
			// Forces on the block's top nodes (direct units) act on the
			// block; reverse units (the rigid body's features) on the
			// rigid body: the rigid body gets minus the first plus the
			// second.
			onRigid := -verticalForce(sim, func(c timestep.ContactState) bool { return !c.Key.Reverse }) +
				verticalForce(sim, func(c timestep.ContactState) bool { return c.Key.Reverse })
			t.Logf("the block carries %.5f N of the %.5f N weight; body at %v, v %v", onRigid, weight, m.Rigid.Bodies[0].Q, m.Rigid.Bodies[0].V)
			assert.InEpsilon(t, weight, onRigid, 0.005)
		})
	}
}

func TestMixedErrors(t *testing.T) {
	const fe = `
[time]
h = 1e-4
duration = 1e-3

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 0.0], size = [0.1, 0.05], cells = [4, 2] }
E = 1e7
nu = 0.3
rho = 1000

[[rigid]]
name = "disk"
radius = 0.01
position = [0.05, 0.07]
rho = 1000
`
	contactTo := func(name string) string {
		return "\n[[contact]]\ncandidate = { body = \"block\", group = \"top\" }\nrigid = \"" + name + "\"\n"
	}
	_, err := Decode(strings.NewReader(fe+contactTo("dsk")), "mixed.toml")
	require.ErrorContains(t, err, `mixed.toml: contact 1: rigid = "dsk": expected the name of a [[rigid]] body`)
	_, err = Decode(strings.NewReader(fe+contactTo("disk")+"obstacle = \"floor\"\n"), "mixed.toml")
	require.ErrorContains(t, err, `contact 1: give exactly one of antagonist = {body, group}, obstacle = "name" and rigid = "name"`)
	sc, err := Decode(strings.NewReader(strings.Replace(fe, "rho = 1000\n", "rho = 1000\nthickness = 0.1\n", 1)+contactTo("disk")), "mixed.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	_, err = m.Simulation()
	require.ErrorContains(t, err, `contact pair "": the candidate is 0.1 m thick: against rigid body "disk" it must be 1 m thick`)
}

// TestSharedFloor: an elastic block (through its [[contact]]) and a rigid
// block (through a rule naming the obstacle) rest on the same [[obstacle]]
// floor for 2 000 steps: the rigid block neither sinks nor creeps, the
// elastic one settles, and no energy is created.
func TestSharedFloor(t *testing.T) {
	const scene = `
[time]
h = 1e-4
duration = 0.2

[[body]]
name = "soft"
rectangle = { kind = "Q4", origin = [-0.2, 0.0], size = [0.1, 0.05], cells = [8, 4] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]
damping = { alpha = 40.0 }

[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]

[[contact]]
candidate = { body = "soft", group = "bottom" }
obstacle = "floor"
mu = 0.3

[[rigid]]
name = "stone"
rectangle = [0.1, 0.05]
position = [0.02, 0.025]
rho = 2500
gravity = [0.0, -9.81]

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "floor"]
mu = 0.3
law = "signorini"
`
	m, sim, minGap := mixedRun(t, scene, 100)
	stone := m.Rigid.Bodies[0]
	assert.InDelta(t, 0.02, stone.Q[0], 1e-9, "no creep (the NLGS tolerance leaves 4e-11 m)")
	assert.InDelta(t, 0.025, stone.Q[1], 1e-9)
	assert.InDelta(t, 0, stone.Q[2], 1e-12)
	assert.Greater(t, minGap, -1e-6)
	assert.Len(t, m.Rigid.Bodies, 3, "the stone and the floor's two segments")
	assert.Less(t, sim.TotalEnergy().Kinetic, 1e-3)
}

// TestElasticOnDrivenBelt puts an elastic block at rest on a rigid belt
// driven at 0.2 m/s (mu = 0.5): friction drags it at mu g until it moves
// with the belt, after 0.2 / (0.5 g) = 0.041 s. Its mean velocity at
// 0.02 s is mu g t (1 %), at 0.1 s the belt's (0.5 %), without energy
// created; the obstacle the belt carries moves with the belt's motion
// without the simulation writing it.
func TestElasticOnDrivenBelt(t *testing.T) {
	const scene = `
[time]
h = 1e-4
duration = 0.1

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.05, 0.0], size = [0.1, 0.02], cells = [10, 2] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "belt"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "velocity", velocity = [0.2, 0.0] }

[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "belt"
mu = 0.5
`
	meanVx := func(m *Model) float64 {
		b := m.Bodies[0]
		var v float64
		for e := range b.Space.N() {
			if b.Space.DOFs.DOF[e]%2 == 0 {
				v += b.V[e]
			}
		}
		return v / float64(b.Space.N()/2)
	}
	var at20 float64
	step := 0
	m, sim, _ := mixedRun(t, scene, 0, func(m *Model) {
		if step++; step == 200 {
			at20 = meanVx(m)
		}
	})
	t.Logf("mean vx at 0.02 s %.5g (mu g t %.5g), at 0.1 s %.5g", at20, 0.5*9.81*0.02, meanVx(m))
	assert.InEpsilon(t, 0.5*9.81*0.02, at20, 0.02, "dragged at mu g")
	assert.InEpsilon(t, 0.2, meanVx(m), 0.005, "moving with the belt")
	assert.Nil(t, sim.Detector.Pairs[0].Obstacle.Motion, "the simulation wrote the carried obstacle's motion")
}
