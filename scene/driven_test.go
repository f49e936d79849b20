package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drivenScene is a block 0.1 x 0.1 m (plane stress, nu 0, E 1e7 Pa: a
// first period of 4 ms) standing on a floor it touches, its top driven
// down by a sine of amplitude a and period 0.4 s (a hundred of the
// block's), a quarter of which the run lasts: it presses the block onto
// the floor quasi-statically.
const drivenScene = `[time]
h = 1e-4
duration = 0.1
[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 0.0], size = [0.1, 0.1], cells = [4, 4] }
E = 1e7
nu = 0.0
rho = 1000
plane = "stress"
damping = { alpha = 200 }
fixed = [{ group = "top", components = "y", motion = { type = "sine", amplitude = 1e-4, period = 0.4, direction = [0.0, -1.0] } }]
[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]
[[contact]]
candidate = { body = "block", group = "bottom" }
obstacle = "floor"
mu = 0.5
`

// platenScene is drivenScene with the block's top free and pressed by a
// platen: a second body on it, touching, whose bottom is driven down by
// the sine (its nodes are where contact sees the platen).
var platenScene = strings.Replace(drivenScene, `fixed = [{ group = "top", components = "y", motion = { type = "sine", amplitude = 1e-4, period = 0.4, direction = [0.0, -1.0] } }]`,
	`[[body]]
name = "platen"
rectangle = { kind = "Q4", origin = [0.0, 0.1], size = [0.1, 0.02], cells = [4, 1] }
E = 1e9
nu = 0.0
rho = 1000
plane = "stress"
fixed = [{ group = "bottom", components = "y", motion = { type = "sine", amplitude = 1e-4, period = 0.4, direction = [0.0, -1.0] } }, { group = "left", components = "x" }]
[[contact]]
candidate = { body = "block", group = "top" }
antagonist = { body = "platen", group = "bottom" }
mu = 0.5
one_way = true`, 1)

// TestDrivenGroupInAScene: a block pressed onto a floor by its top,
// driven down by a sine, or by a platen whose bottom is so driven: at the
// quarter period the top is where the sine's peak puts it (to 1e-4 of it:
// the theta rule's integral of its velocity), the floor carries E W a /
// H, the block's stiffness times the amplitude, within 1 %, and the
// ledger closes, the reaction's work being what the bodies stored and
// lost; the platen's work through contact is the units' driven term
// (obstacle work), not a penetration pushed out; a neo-Hookean block (nu
// 0, plane strain: the same stiffness at 0.1 % strain) alike. A motion's
// key its type does not read is refused.
func TestDrivenGroupInAScene(t *testing.T) {
	rubber := strings.Replace(drivenScene, `plane = "stress"`, "plane = \"strain\"\nmodel = \"neohookean\"", 1)
	for _, text := range []string{drivenScene, platenScene, rubber} {
		pressed(t, text)
	}
	_, err := Decode(strings.NewReader(strings.Replace(drivenScene, `direction = [0.0, -1.0] }`, `direction = [0.0, -1.0], velocity = [1.0, 0.0] }`, 1)), "driven.toml")
	assert.ErrorContains(t, err, `fixed 1: motion.velocity is given, but a motion of type "sine" does not use it`)
	sc, err := Decode(strings.NewReader(strings.Replace(drivenScene, `direction = [0.0, -1.0] } }]`, `direction = [0.0, -1.0] } }, { group = "right" }]`, 1)), "driven.toml")
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, `node 24's y is held by fixed 1 and fixed 2, and at least one drives it`)
}

// pressed runs a scene of the block pressed onto the floor and checks it.
func pressed(t *testing.T, text string) {
	const E, W, H, a = 1e7, 0.1, 0.1, 1e-4
	sc, err := Decode(strings.NewReader(text), "driven.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	for k := range sc.Steps() {
		st, err := sim.Step()
		require.NoError(t, err, "step %d", k+1)
		require.True(t, st.Converged, "step %d", k+1)
		e := sim.TotalEnergy()
		require.InDelta(t, e0, e.Balance(), 1e-9*math.Max(e.External, e.Kinetic+e.Elastic)+1e-15, "step %d: ledger", k+1)
	}
	b := m.Bodies[0]
	u := b.Displacement()
	for n, x := range b.Space.Mesh.Nodes {
		if x[1] == H {
			require.InDelta(t, -a, u[2*n+1], 2e-3*a, "top node %d", n)
		}
	}
	force, closed := sim.PairForces()
	floor := len(force) - 1 // the floor's contact is the scene's last
	force, closed = force[floor:], closed[floor:]
	assert.LessOrEqual(t, sim.NormalWork, 1e-12, "the contact law's work")
	e := sim.TotalEnergy()
	works := sim.NormalWork + sim.FrictionWork + sim.ObstacleWork + sim.PushOutWork
	assert.InDelta(t, e.Contact, works, 1e-6*e.Elastic, "the bodies' contact work is the law's, friction's and the driven motions'")
	assert.InDelta(t, 0, sim.PushOutWork, 1e-6*e.Elastic, "nothing pushed out: a driven node's velocity is in its units' velocity")
	t.Logf("floor force %.6g N/m (E W a / H = %.6g) on %d nodes; stored %.4g J, damping %.3g J, the reaction's work %.4g J, obstacles' %.4g J, the law's %.3g J",
		force[0][1], E*W*a/H, closed[0], e.Elastic, e.Damping, e.External, sim.ObstacleWork, sim.NormalWork)
	assert.InEpsilon(t, E*W*a/H, force[0][1], 0.01, "the floor carries the block's stiffness times a")
	assert.Equal(t, 5, closed[0], "the bottom's nodes")
	assert.InEpsilon(t, E*W*a*a/(2*H), e.Elastic, 0.01, "stored")

}

// TestDrivenGroupOnAMovingFloor: a block under gravity whose bottom is
// driven along x at the speed of the floor it stands on, itself moving:
// the contact point does not slip (the units' tangential velocity is the
// driven nodes' less the floor's, at the step's start and at its end), so
// friction does no work and the floor carries the weight. (Damping is
// stiffness-proportional: a mass-proportional one drags a translating
// block as air would, and this one would tip over.)
func TestDrivenGroupOnAMovingFloor(t *testing.T) {
	const text = `[time]
h = 1e-4
duration = 0.2
[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 0.0], size = [0.1, 0.1], cells = [4, 4] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]
ramp = 0.01
damping = { beta = 1e-4 }
fixed = [{ group = "bottom", components = "x", motion = { type = "velocity", velocity = [0.1, 0.0] } }]
[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]
motion = { type = "velocity", velocity = [0.1, 0.0] }
[[contact]]
candidate = { body = "block", group = "bottom" }
obstacle = "floor"
mu = 0.5
`
	sc, err := Decode(strings.NewReader(text), "floor.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	for k := range sc.Steps() {
		st, err := sim.Step()
		require.NoError(t, err, "step %d", k+1)
		require.Zero(t, st.Slide, "step %d: nothing slides", k+1)
	}
	force, _ := sim.PairForces()
	weight := 1000 * 0.1 * 0.1 * 9.81
	t.Logf("floor force %.6g N/m against the weight %.6g; friction's work %.3g J", force[0][1], weight, sim.FrictionWork)
	assert.InDelta(t, 0, sim.FrictionWork, 1e-9, "friction's work")
	assert.InEpsilon(t, weight, force[0][1], 0.01, "the floor carries the weight")
}
