package scene

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/timestep"
)

// contactsScene has every kind of unit a Simulation reports: an elastic
// block glued to a rigid base (a pair's units, bonded), disks rolling on
// the base with rolling resistance (rigid units with rolling rows) and a
// point mass on an obstacle (a point contact's units).
const contactsScene = `[time]
h = 1e-4
duration = 0.004

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 1e-9], size = [0.1, 0.05], cells = [4, 2] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "base"
group = "base"
rectangle = [0.6, 0.05]
position = [0.2, -0.025]
motion = { type = "fixed" }

[[rigid]]
name = "d1"
radius = 0.01
position = [0.2, 0.01]
velocity = [0.3, 0.0]
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "d2"
radius = 0.01
position = [0.2200005, 0.01]
velocity = [-0.2, 0.0]
rho = 1000
gravity = [0.0, -9.81]

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.5
rolling = 1e-3

[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "base"
mu = 0.5
cohesion = 1e3

[[obstacle]]
name = "plane"
points = [[0.6, 0.0], [1.0, 0.0]]

[[mass]]
name = "p"
mass = 0.5
position = [0.8, 0.0005]
velocity = [0.5, -1.0]
gravity = [0.0, -9.81]

[[point_contact]]
name = "on plane"
obstacle = "plane"
mu = 0.4
`

// contactsSim builds the simulation of a scene's text.
func contactsSim(t *testing.T, text string) *timestep.Simulation {
	t.Helper()
	sc, err := Decode(strings.NewReader(text), "contacts.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	return sim
}

// TestContactsWhenAsked: a step leaves its units' states to be made when
// asked (Contacts); their count (ContactCount) and the pairs' and the
// point contacts' forces are read from the step without them. Two
// simulations, one asked for its forces before its states at every step
// and one after, report the same bits; the states hold what the step
// solved (bonds, rolling moments, every kind of unit); after a step that
// failed, and after LoadState, there are none. Mutants: the states not
// dropped at a step's start, nor on LoadState.
func TestContactsWhenAsked(t *testing.T) {
	a, b := contactsSim(t, contactsScene), contactsSim(t, contactsScene)
	var rolled, bonded, closed [3]int // pairs, rigid, points
	e0 := a.TotalEnergy().Balance()
	for step := 1; step <= 40; step++ {
		_, err := a.Step()
		require.NoError(t, err)
		_, err = b.Step()
		require.NoError(t, err)
		e := a.TotalEnergy()
		require.LessOrEqual(t, e.Balance()-e0, 1e-9*max(1, math.Abs(e0), math.Abs(e.External)), "step %d: energy created", step)

		fa, ca := a.PairForces()
		pa, qa := a.PointForces()
		n := a.ContactCount()
		sa := a.Contacts()
		require.Len(t, sa, n, "step %d: ContactCount before the states", step)
		require.Equal(t, n, a.ContactCount(), "step %d: and after", step)
		sb := b.Contacts()
		fb, cb := b.PairForces()
		pb, qb := b.PointForces()
		require.Equal(t, sb, sa, "step %d: the states", step)
		require.Equal(t, fb, fa, "step %d: the pairs' forces", step)
		require.Equal(t, cb, ca, "step %d: the pairs' closed units", step)
		require.Equal(t, pb, pa, "step %d: the point contacts' forces", step)
		require.Equal(t, qb, qa, "step %d: the point contacts' closed units", step)
		for _, c := range sa {
			k := 1
			switch {
			case c.Key.Pair == -1:
			case c.Body == 0:
				k = 0
			default:
				k = 2
			}
			if c.Rolling != 0 {
				rolled[k]++
			}
			if c.Bonded {
				bonded[k]++
			}
			if c.Impulse[0] > 0 {
				closed[k]++
			}
		}
	}
	assert.Positive(t, closed[0], "the block's units carry its weight")
	assert.Positive(t, bonded[0], "the block's units are bonded")
	assert.Positive(t, closed[1], "the disks' units carry their weight")
	assert.Positive(t, rolled[1], "the disks' rolling rows act")
	assert.Positive(t, closed[2], "the point mass lands")

	var saved bytes.Buffer
	require.NoError(t, a.SaveState(&saved))
	require.NotEmpty(t, a.Contacts())
	require.NoError(t, a.LoadState(&saved))
	assert.Zero(t, a.ContactCount(), "a loaded state has no step's contacts")
	assert.Empty(t, a.Contacts())
	force, _ := a.PairForces()
	assert.Equal(t, [][2]float64{{0, 0}}, force, "nor forces")

	b.Rigid.Bodies[2].V[0] = math.NaN()
	_, err := b.Step()
	require.Error(t, err)
	assert.Zero(t, b.ContactCount(), "a failed step has no contacts")
	assert.Empty(t, b.Contacts())
	force, _ = b.PairForces()
	assert.Equal(t, [][2]float64{{0, 0}}, force, "nor forces")
	points, _ := b.PointForces()
	assert.Equal(t, [][2]float64{{0, 0}}, points)
}

// TestContactsOutliveADetection: the rigid bodies' units of a step are
// the Simulation's until its next step, though a detection of the bodies
// between the step and the question (rigid.System.Detect, which reuses
// its storage) finds others: the contacts asked after it are those of a
// twin simulation asked before. Mutant: the rigid kind's steps detecting
// into Detect's storage.
func TestContactsOutliveADetection(t *testing.T) {
	text := contactsScene[:strings.Index(contactsScene, "[[body]]")] +
		contactsScene[strings.Index(contactsScene, "[[rigid]]"):strings.Index(contactsScene, "[[contact]]")]
	a, b := contactsSim(t, text), contactsSim(t, text)
	e0 := b.TotalEnergy().Balance()
	for step := 1; step <= 20; step++ {
		_, err := a.Step()
		require.NoError(t, err)
		_, err = b.Step()
		require.NoError(t, err)
		e := b.TotalEnergy()
		require.LessOrEqual(t, e.Balance()-e0, 1e-9*max(1, math.Abs(e0), math.Abs(e.External)), "step %d: energy created", step)
		want := slices.Clone(b.Contacts())
		require.Len(t, want, 3, "step %d: the disks on the base and on each other", step)
		d := a.Rigid.Bodies[2] // moved, detected and put back
		q := d.Q
		d.Q[0] += 0.05
		units, err := a.Rigid.Detect(0)
		require.NoError(t, err)
		require.Len(t, units, 2, "step %d: the disks apart", step)
		d.Q = q
		require.Equal(t, want, a.Contacts(), "step %d", step)
	}
}
