package scene

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/rigid"
)

// builtScene has a body of its own, then every builder: polygons on a
// lattice, disks at random, disks deposited, glued grains, a wall in a
// running bond (half blocks at its ends) and an arch, one header with a
// comment, one array over lines.
const builtScene = `[time]
h = 1e-3
duration = 0.01
[[rigid]]
name = "ground"
rectangle = [4.0, 0.1]
position = [1.0, -0.05]
motion = { type = "fixed" }
[[grains]]   # polygons
name = "p"
count = 6
sides = [4, 7]
radius = [0.01, 0.02]
region = [[0.0, 0.5], [0.2, 0.6]]
seed = 3
rho = 2500
velocity = [0.1, 0.0]
gravity = [0.0, -9.81]
[[grains]]
name = "d"
shape = "disk"
placement = "random"
count = 8
radius = [0.005, 0.01]
region = [[0.3, 0.5], [0.5, 0.7]]
seed = 4
rho = 2500
[[grains]]
name = "s"
shape = "disk"
placement = "deposit"
count = 10
radius = [0.004, 0.006]
region = [ # over lines, as TOML allows: a row is no table's header
  [-0.5, 0.0],
  [-0.4, 0.3]]
seed = 5
rho = 2500
[[grains]]
name = "glue"
shape = "disk"
count = 2
radius = [0.01, 0.01]
region = [[0.6, 0.5], [0.7, 0.6]]
fixed = true
rho = 2500
[[wall]]
name = "w"
origin = [1.0, 0.0]
courses = 2
blocks = 3
size = [0.4, 0.2]
joint = 0.01
rho = 2000
gravity = [0.0, -9.81]
[[arch]]
name = "a"
centre = [2.5, 0.0]
radius = 1.0
thickness = 0.2
voussoirs = 7
rho = 2000
[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.5
`

// TestExpandedScene: a scene's builders expanded into [[rigid]] tables
// (the scene a run keeps) build the same rigid bodies to the bit: names,
// groups, poses, velocities, masses, inertias, gravity, motions, radii
// and vertices; their areas to 1e-14 (taken from the vertices about the centre of mass, where
// the builder took a voussoir's from where it stands); and the expanded scene has no
// builder left and expands to itself. Builders written as inline arrays
// are kept, with a note.
func TestExpandedScene(t *testing.T) {
	sc, err := Decode(strings.NewReader(builtScene), "built.toml")
	require.NoError(t, err)
	e, err := sc.Expanded()
	require.NoError(t, err)
	require.NotSame(t, sc, e)
	assert.Empty(t, e.Grains)
	assert.Empty(t, e.Walls)
	assert.Empty(t, e.Arches)
	assert.Contains(t, e.Text, "# (expanded below) [[grains]]   # polygons")
	again, err := e.Expanded()
	require.NoError(t, err)
	assert.Same(t, e, again, "no builder left")

	a, err := sc.Model(Variant{})
	require.NoError(t, err)
	b, err := e.Model(Variant{})
	require.NoError(t, err)
	require.Len(t, b.Rigid.Bodies, len(a.Rigid.Bodies))
	assert.Len(t, a.Rigid.Bodies, 1+6+8+10+2+(3+4)+7, "the ground and every builder's bodies (the wall's second course with its half blocks)")
	for k, x := range a.Rigid.Bodies {
		y := b.Rigid.Bodies[k]
		what := fmt.Sprintf("body %d %q", k, x.Name)
		assert.Equal(t, x.Name, y.Name, what)
		assert.Equal(t, x.Group, y.Group, what)
		assert.Equal(t, x.Q, y.Q, what)
		assert.Equal(t, x.V, y.V, what)
		assert.Equal(t, x.Mass, y.Mass, what)
		assert.Equal(t, x.Inertia, y.Inertia, what)
		assert.Equal(t, x.Gravity, y.Gravity, what)
		assert.Equal(t, x.Driven(), y.Driven(), what)
		assert.Equal(t, x.Shape.Radius(), y.Shape.Radius(), what)
		assert.InEpsilon(t, x.Shape.Area(), y.Shape.Area(), 1e-14, what) // from the vertices about the centre
		assert.Equal(t, x.Shape.PolarMoment(), y.Shape.PolarMoment(), what)
		if p, ok := x.Shape.(*rigid.Polygon); ok {
			assert.Equal(t, p.Vertices(), y.Shape.(*rigid.Polygon).Vertices(), what)
		}
	}

	arch := "[[arch]]\nname = \"a\"\ncentre = [2.5, 0.0]\nradius = 1.0\nthickness = 0.2\nvoussoirs = 7\nrho = 2000\n"
	require.Contains(t, builtScene, arch)
	inline := "arch = [{ name = \"a\", centre = [2.5, 0.0], radius = 1.0, thickness = 0.2, voussoirs = 7, rho = 2000 }]\n" + strings.Replace(builtScene, arch, "", 1)
	sc, err = Decode(strings.NewReader(inline), "inline.toml")
	require.NoError(t, err)
	e, err = sc.Expanded()
	require.NoError(t, err)
	assert.Same(t, sc, e, "kept as it is")
	m, err := e.Model(Variant{})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(m.Warnings(), "\n"), "scene-as-run.toml keeps the builders: they are written as inline arrays")
}

// TestBrackets: a line's open arrays, its strings' and comment's brackets
// left out.
func TestBrackets(t *testing.T) {
	for line, want := range map[string]int{
		"region = [":                     1,
		"  [-0.5, 0.0],":                 0,
		"  [-0.4, 0.3]]":                 -1,
		`name = "a[b" # [[`:              0,
		`name = 'c]' ]`:                  -1,
		`s = "q\"[" [`:                   1,
		"[[grains]]   # [a header]":      0,
		"x = [[1.0, 2.0], [3.0, 4.0]] #": 0,
	} {
		assert.Equal(t, want, brackets(line), line)
	}
}
