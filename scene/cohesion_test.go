package scene

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/timestep"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
)

// gluedScene is a block 0.1 x 0.1 m (plane stress, 1 m thick) whose bottom
// is glued 1e-9 m above y = 0 (a joint of round-off, as two meshes give)
// to a base (base: the TOML of the base and of the
// contact's antagonist key), pulled up by a traction on its top ramped
// from 0 to 2 sigma over 20 ms, the joint's tensile strength sigma = 1e5
// Pa: quasi-static (the block's first period is some 0.2 ms), so that the
// joint carries the traction and breaks when it reaches sigma, at 10 ms.
func gluedScene(kind, base, antagonist string, cohesion float64) string {
	basis := "nodal"
	if kind == "Q8" {
		basis = "pairing" // the consistent tractions of 3-node edges (contact/doc.go)
	}
	return fmt.Sprintf(`[time]
h = 1e-4
duration = 0.015
[solver]
tolerance = %g
[[body]]
name = "block"
rectangle = { kind = "%s", origin = [0.0, 1e-9], size = [0.1, 0.1], cells = [4, 4] }
E = 1e9
nu = 0.0
rho = 1000
plane = "stress"
traction = [{ group = "top", value = [0.0, 2e5], time = { type = "ramp", duration = 0.02 } }]
%s
[[contact]]
candidate = { body = "block", group = "bottom" }
%s
mu = 0.5
basis = "%s"
cohesion = %g
`, glueTolerance, kind, strings.ReplaceAll(base, "KIND", kind), antagonist, basis, cohesion)
}

// glueTolerance is the solver's: the default's 1e-8 leaves law velocities of
// 1e-9 m/s under a tension of 1e5 Pa, whose work, some 3e-6 of the
// traction's, is the solve's round-off, not the law's.
const glueTolerance = 1e-12

// The bases the block is glued to: an obstacle, a fixed rigid body, and
// an elastic body of the block's elements clamped along its bottom (a
// finite-element pair, its nodes on the block's), a cell wider than the
// block on each side: there the joint's tension peaks at its ends (the
// wider base is stiffer there) and it cracks from its ends inwards; and
// each of them flush with the block, its ends on the block's corners (the
// rigid base's corners then touch the block's corner nodes as units of
// their own, which hold no bond: they had one of a square metre, and held
// the block's corners for good).
var gluedBases = []struct {
	name, base, antagonist string
	uniform                bool // the joint's tension is uniform
	flush                  bool // the base ends where the block does
}{
	{"obstacle", `[[obstacle]]
name = "floor"
points = [[-0.1, 0.0], [0.2, 0.0]]`, `obstacle = "floor"`, true, false},
	{"rigid base", `[[rigid]]
name = "base"
rectangle = [0.2, 0.05]
position = [0.05, -0.025]
rho = 1000
motion = { type = "fixed" }`, `rigid = "base"`, true, false},
	{"elastic base", `[[body]]
name = "base"
rectangle = { kind = "KIND", origin = [-0.025, -0.05], size = [0.15, 0.05], cells = [6, 2] }
E = 1e9
nu = 0.0
rho = 1000
plane = "stress"
fixed = [{ group = "bottom" }]`, `antagonist = { body = "base", group = "top" }`, false, false},
	{"obstacle flush", "[[obstacle]]\nname = \"floor\"\npoints = [[0.0, 0.0], [0.1, 0.0]]", `obstacle = "floor"`, true, true},
	{"rigid base flush", "[[rigid]]\nname = \"base\"\nrectangle = [0.1, 0.05]\nposition = [0.05, -0.025]\nrho = 1000\nmotion = { type = \"fixed\" }", `rigid = "base"`, true, true},
	{"elastic base flush", "[[body]]\nname = \"base\"\nrectangle = { kind = \"KIND\", origin = [0.0, -0.05], size = [0.1, 0.05], cells = [4, 2] }\nE = 1e9\nnu = 0.0\nrho = 1000\nplane = \"stress\"\nfixed = [{ group = \"bottom\" }]",
		`antagonist = { body = "base", group = "top" }`, true, true},
}

// TestCohesionOnFiniteElementJoints: a block glued to an obstacle, to a
// rigid body and to an elastic body by a joint of tensile strength sigma
// (Pa) holds while the traction pulling it is below sigma and lets go
// when it reaches it: on the rigid bases all its units at once (the
// tension is uniform), at the ramp's time p(t) = sigma within two steps
// (each 1 % of it); on the elastic base from its ends inwards, where
// the base's restraint adds a shear that takes them to Mohr-Coulomb's
// envelope first (they slide; at 0.56 sigma on Q4, 0.28 on Q8, which
// resolves more of the corners' singular stress), the rest by the time
// the traction reaches sigma; on the bases flush with the block when the
// traction reaches sigma (within 4 steps: a Q8 joint's corner nodes
// first), a rigid base's corners holding nothing (they held the block's
// corners for good with a bond of a square metre's strength). The block
// then flies off. The first step bonds every
// unit of the joint, and contacts.pvd marks them. A joint of 4 sigma
// holds for the whole run (the traction reaches 1.5 sigma) with its gaps
// closed. No energy is created: the ledger closes, the
// contacts' work is not positive beyond the complementarity gap the
// solver's certificate admits (some 1e-8 J a step at tolerance 1e-12,
// against 1e-10 of friction's round-off work). Mutants: the factor h on c dropped, a
// bond not kept, Slop of the length not taken for touching (nothing
// bonds on the Q8 meshes), the bond's law left the positional one (its
// tension closes gaps of round-off, positive work).
func TestCohesionOnFiniteElementJoints(t *testing.T) {
	const sigma, h, tBreak = 1e5, 1e-4, 0.01
	for _, kind := range []string{"Q4", "Q8"} {
		for _, b := range gluedBases {
			for _, strength := range []float64{sigma, 8 * sigma} {
				name := fmt.Sprintf("%s, %s, strength %g", kind, b.name, strength)
				sc, err := Decode(strings.NewReader(gluedScene(kind, b.base, b.antagonist, strength)), "glued.toml")
				require.NoError(t, err, name)
				m, err := sc.Model(Variant{})
				require.NoError(t, err, name)
				sim, err := m.Simulation()
				require.NoError(t, err, name)
				e0 := sim.TotalEnergy().Balance()
				first, last, bonds, gap := glue(t, sim, sc.Steps(), name)
				v := m.Bodies[0].Velocity()
				switch {
				case strength > sigma:
					assert.Zero(t, first, "%s: the joint holds", name)
					assert.Equal(t, bonds, sim.Bonds(), "%s: every bond holds", name)
					for _, c := range sim.Contacts() {
						assert.InDelta(t, 1e-9, c.Gap, 1e-10, "%s: the joint stays as it was bonded", name)
					}
				case b.flush: // a Q8 joint's corner nodes take more of the tension
					assert.InDelta(t, tBreak, float64(first)*h, 4*h, "%s: the joint breaks when the traction reaches its strength", name)
					assert.InDelta(t, tBreak, float64(last)*h, 2.5*h, "%s: all of it", name)
				case b.uniform:
					assert.Equal(t, first, last, "%s: the joint breaks whole", name)
					assert.InDelta(t, tBreak, float64(first)*h, 2.5*h, "%s: the joint breaks when the traction reaches its strength", name)
				default:
					assert.Less(t, first, last, "%s: the joint cracks from its ends", name)
					assert.Greater(t, float64(first)*h, 0.2*tBreak, "%s: its ends reach the envelope first", name)
					assert.LessOrEqual(t, float64(last)*h, tBreak+2.5*h, "%s: the joint is broken by the time the traction reaches its strength", name)
				}
				if strength == sigma {
					assert.Positive(t, v[len(v)-1], "%s: the block flies off", name)
				}
				e := sim.TotalEnergy()
				assert.InDelta(t, e0, e.Balance(), 1e-9*math.Abs(e.External), "%s: the ledger closes", name)
				assert.LessOrEqual(t, e.Contact, gap, "%s: the contacts create no energy beyond the solver's certified complementarity gap", name)
			}
		}
	}
}

// glue runs sim for n steps and returns the steps at which the first and
// the last of its joint's bonds broke (0: they held) and the bonds it
// had, checking that the first step bonds every unit.
func glue(t *testing.T, sim *timestep.Simulation, n int, name string) (first, last, bonds int, gap float64) {
	for i := 1; i <= n; i++ {
		st, err := sim.Step()
		require.NoError(t, err, name)
		gap += st.Complementarity
		if i == 1 {
			bonds = sim.Bonds()
			require.Positive(t, bonds, "%s: the joint is bonded", name)
			for _, c := range sim.Contacts() {
				point := c.Key.Reverse && c.Weight == 1 // a rigid base's corner on the block's: no bond
				assert.Equal(t, math.Abs(c.Gap) < 1e-8 && !point, c.Bonded, "%s: the units of the joint are bonded, and no other (x = %g)", name, c.X[0])
			}
			assert.Equal(t, float64(bonds), bondedField(results.ContactGrid(sim)), "%s: contacts.pvd's bonded marks them", name)
		}
		k := sim.Bonds()
		if k < bonds && first == 0 {
			first = i
		}
		if k == 0 && last == 0 {
			last = i
		}
	}
	return first, last, bonds, gap
}

// bondedField is the sum of a contacts grid's field "bonded".
func bondedField(g *vtk.Grid) float64 {
	for _, f := range g.PointData {
		if f.Name == "bonded" {
			return floats.Sum(f.Values)
		}
	}
	return math.NaN()
}

// TestCohesionOnPointContacts: a point mass glued to a floor by a bond of
// tension c (N/m), pulled up by a force ramped from 0 to 2 c over 20 ms,
// lets go at 10 ms; pushed along the floor instead, it holds until the
// force reaches Mohr-Coulomb's mu c (no normal force: the cone's vertex
// is moved by the cohesion) and then slides, its bond broken. The ledger
// closes; no energy is created.
func TestCohesionOnPointContacts(t *testing.T) {
	const c, mu, h = 100.0, 0.4, 1e-4
	for _, tc := range []struct {
		name  string
		force string
		at    float64 // s: when the force reaches the bond's strength
	}{
		{"pulled", "[0.0, 200.0]", 0.01},
		{"sheared", "[200.0, 0.0]", 0.02 * mu / 2},
	} {
		sc, err := Decode(strings.NewReader(fmt.Sprintf(`[time]
h = %g
duration = 0.015
[[mass]]
name = "m"
mass = 1.0
position = [0.0, 0.0]
force = %s
load_time = { type = "ramp", duration = 0.02 }
[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]
[[point_contact]]
obstacle = "floor"
mu = %g
cohesion = %g
`, h, tc.force, mu, c)), "glued.toml")
		require.NoError(t, err, tc.name)
		m, err := sc.Model(Variant{})
		require.NoError(t, err, tc.name)
		sim, err := m.Simulation()
		require.NoError(t, err, tc.name)
		e0 := sim.TotalEnergy().Balance()
		broke, _, _, gap := glue(t, sim, sc.Steps(), tc.name)
		assert.InDelta(t, tc.at, float64(broke)*h, 2.5*h, "%s: the bond breaks when the force reaches its strength", tc.name)
		e := sim.TotalEnergy()
		assert.InDelta(t, e0, e.Balance(), 1e-9*math.Abs(e.External), "%s: the ledger closes", tc.name)
		assert.LessOrEqual(t, e.Contact, gap, "%s: the contact creates no energy beyond the certified complementarity gap", tc.name)
	}
}

// TestCohesionRefused: a negative, NaN or huge cohesion is refused naming
// the table and the key.
func TestCohesionRefused(t *testing.T) {
	for _, v := range []string{"-1.0", "nan", "1e300"} {
		text := strings.Replace(gluedScene("Q4", gluedBases[0].base, gluedBases[0].antagonist, 1), "cohesion = 1", "cohesion = "+v, 1)
		_, err := Decode(strings.NewReader(text), "glued.toml")
		require.Error(t, err, v)
		assert.Contains(t, err.Error(), "contact 1: cohesion", v)
		assert.Contains(t, err.Error(), "tensile strength in Pa", v)
	}
}

// TestCohesionResumesBitForBit: the glued block on the elastic base saved
// at 5.8 ms, its joint's ends cracked and its middle holding, and resumed
// in a simulation built afresh, ends the run bit for bit as the run that
// went on: the broken bonds stay broken, the holding ones hold.
func TestCohesionResumesBitForBit(t *testing.T) {
	b := gluedBases[2]
	text := gluedScene("Q4", b.base, b.antagonist, 1e5)
	build := func() (*Model, *timestep.Simulation) {
		sc, err := Decode(strings.NewReader(text), "glued.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		return m, sim
	}
	m, sim := build()
	var state bytes.Buffer
	for i := 1; i <= 150; i++ {
		_, err := sim.Step()
		require.NoError(t, err)
		if i == 58 {
			require.NoError(t, sim.SaveState(&state))
			require.Equal(t, 3, sim.Bonds(), "the ends cracked, the middle holds")
		}
	}
	m2, sim2 := build()
	require.NoError(t, sim2.LoadState(&state))
	for i := 59; i <= 150; i++ {
		_, err := sim2.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, m.Bodies[0].Velocity(), m2.Bodies[0].Velocity(), "the block's velocities bit for bit")
	assert.Equal(t, m.Bodies[0].Displacement(), m2.Bodies[0].Displacement(), "and its displacements")
	assert.Equal(t, sim.TotalEnergy(), sim2.TotalEnergy(), "and the ledger")
}
