package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/rigid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// depositScene is a box 0.2 m wide, x from -0.1 to 0.1 over a floor at
// y = 0.01 (a floor and two walls, fixed rigid bodies) and a [[grains]] table deposited in it (grains: its keys past
// the name), mu 0.3, h 2e-4, under gravity.
func depositScene(grains string) string {
	return fmt.Sprintf(`[time]
h = 2e-4
duration = 0.1
[[rigid]]
name = "floor"
rectangle = [0.3, 0.05]
position = [0.0, -0.015]
motion = { type = "fixed" }
[[rigid]]
name = "left"
rectangle = [0.05, 0.4]
position = [-0.125, 0.21]
motion = { type = "fixed" }
[[rigid]]
name = "right"
rectangle = [0.05, 0.4]
position = [0.125, 0.21]
motion = { type = "fixed" }
[[grains]]
name = "g"
shape = "disk"
placement = "deposit"
radius = [0.004, 0.006]
region = [[-0.1, 0.01], [0.1, 0.31]]
rho = 2600
gravity = [0.0, -9.81]
%s
[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
`, grains)
}

// TestDepositedGrains: 300 disks deposited in a box (placement =
// "deposit") lie inside it, overlap nowhere beyond round-off, and each
// rests on the floor, on two disks one each side of it, or on a disk and
// a wall (Visscher and Bolsterli's rule); their radii are the asked
// uniform distribution; the same seed deposits the same sample to the
// bit, another seed another; the bulk packs near 0.8. Run, the deposit
// stays at rest (a grain moves less than 1e-6 m in 0.1 s) but for a few
// grains, which the geometric rule left where friction 0.3 does not hold
// them exactly and which move less than a radius to their rest (here 3 of
// 300 grains of the surface, at most 1.2 mm; another deposit of 120
// settles by 2e-5 m, python/tests/test_builders.py), and no energy is
// created. With solid_fraction instead of count it deposits that share
// of the region's area to one grain; more than fits below the region's top
// is refused with how many did, and polygons are refused.
func TestDepositedGrains(t *testing.T) {
	build := func(grains string) *Model {
		sc, err := Decode(strings.NewReader(depositScene(grains)), "deposit.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		return m
	}
	m := build("count = 300\nseed = 3")
	grains := m.Rigid.Bodies[3:]
	require.Len(t, grains, 300)
	const tol = 1e-12
	radii := make([]float64, len(grains))
	for i, g := range grains {
		r := g.Shape.(rigid.Disk).R
		radii[i] = r
		assert.True(t, g.Q[0]-r >= -0.1-tol && g.Q[0]+r <= 0.1+tol && g.Q[1]-r >= 0.01-tol, "%s inside the box", g.Name)
		var left, right, below bool
		for _, o := range grains {
			if o == g {
				continue
			}
			ro := o.Shape.(rigid.Disk).R
			d := math.Hypot(g.Q[0]-o.Q[0], g.Q[1]-o.Q[1])
			require.GreaterOrEqual(t, d, r+ro-tol, "%s and %s overlap", g.Name, o.Name)
			if d <= r+ro+1e-9 {
				below = below || o.Q[1] < g.Q[1]
				left, right = left || o.Q[0] <= g.Q[0], right || o.Q[0] >= g.Q[0]
			}
		}
		onFloor := math.Abs(g.Q[1]-r-0.01) <= 1e-9
		onWall := g.Q[0]-r <= -0.1+1e-9 || g.Q[0]+r >= 0.1-1e-9
		assert.True(t, onFloor || (below && left && right) || (below && onWall), "%s at (%g, %g) rests on the floor, on two disks or on a disk and a wall", g.Name, g.Q[0], g.Q[1])
	}
	slices.Sort(radii)
	var worst float64
	for i, r := range radii {
		f := (r - 0.004) / 0.002
		worst = max(worst, math.Abs(float64(i+1)/300-f), math.Abs(float64(i)/300-f))
	}
	assert.Less(t, worst, 1.36/math.Sqrt(300), "the radii's distribution is the asked uniform one")
	assert.InDelta(t, 0.8, packing(grains, -0.08, 0.08, 0.03, 0.09), 0.05, "the bulk's solid fraction")

	again := build("count = 300\nseed = 3").Rigid.Bodies[3:]
	other := build("count = 300\nseed = 4").Rigid.Bodies[3:]
	for i := range grains {
		require.Equal(t, grains[i].Q, again[i].Q, "the same seed, the same deposit")
	}
	assert.NotEqual(t, grains[0].Q, other[0].Q, "another seed, another deposit")

	sim, err := m.Simulation()
	require.NoError(t, err)
	start := make([][3]float64, len(grains))
	for i, g := range grains {
		start[i] = g.Q
	}
	e0 := sim.TotalEnergy().Balance()
	for range m.Scene.Steps() {
		_, err := sim.Step()
		require.NoError(t, err)
		require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9, "energy created")
	}
	moved, most := 0, 0.0
	for i, g := range grains {
		d := math.Hypot(g.Q[0]-start[i][0], g.Q[1]-start[i][1])
		if d > 1e-6 {
			moved++
		}
		most = max(most, d)
	}
	assert.LessOrEqual(t, moved, 30, "all but a few grains stay at rest")
	assert.Less(t, most, 0.004, "those move less than a radius to their rest")

	half := build("solid_fraction = 0.5").Rigid.Bodies[3:]
	var a float64
	for _, g := range half {
		r := g.Shape.(rigid.Disk).R
		a += math.Pi * r * r
	}
	assert.True(t, a >= 0.5*0.2*0.3 && a < 0.5*0.2*0.3+math.Pi*0.006*0.006, "solid_fraction 0.5 of the region, to one grain: %g", a/(0.2*0.3))

	for grains, want := range map[string]string{
		"count = 3000":                     `grains "g": only `,
		"count = 10\nsides = [5, 8]":       "disks have no sides",
		"solid_fraction = 0.9":             `grains "g": solid_fraction = 0.9: expected a fraction in (0, 0.8)`,
		"count = 10\nsolid_fraction = 0.3": `solid_fraction = 0.3: applies with placement = "random" or "deposit" and no count`,
	} {
		sc, err := Decode(strings.NewReader(depositScene(grains)), "deposit.toml")
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		require.Error(t, err, grains)
		assert.Contains(t, err.Error(), want, grains)
	}
	tiny := strings.Replace(depositScene("count = 10"), "radius = [0.004, 0.006]", "radius = [1e-300, 1e-300]", 1)
	_, err = Decode(strings.NewReader(tiny), "deposit.toml")
	require.Error(t, err, "a radius that would make 1e299 columns")
	assert.Contains(t, err.Error(), `grains "g": radius = [1e-300 1e-300]: expected a largest radius of at least 1e-06 m`)
}

// TestDepositedPolygons: polygons deposited (placement = "deposit") are
// each in the place of its circumscribed disk in a deposit of those
// disks: inside the box, overlapping nowhere (every pair's distance
// non-negative), the sample's seed reproducing it; run, they settle from
// there without a penetration to push out, no contact creating energy,
// the ledger closed.
func TestDepositedPolygons(t *testing.T) {
	text := strings.Replace(depositScene("count = 80\nsides = [4, 7]\nseed = 11"), `shape = "disk"`, `shape = "polygon"`, 1)
	sc, err := Decode(strings.NewReader(text), "deposit.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	grains := m.Rigid.Bodies[3:]
	require.Len(t, grains, 80)
	for i, a := range grains {
		_, ok := a.Shape.(*rigid.Polygon)
		require.True(t, ok, "a polygon")
		r := a.Shape.Radius()
		assert.True(t, a.Q[0]-r >= -0.1-1e-12 && a.Q[0]+r <= 0.1+1e-12 && a.Q[1]-r >= 0.01-1e-12, "grain %d inside the box", i)
		for _, b := range grains[:i] {
			require.GreaterOrEqual(t, rigid.Distance(a, b), -1e-12, "%s and %s", a.Name, b.Name)
		}
	}
	again, err := sc.Model(Variant{})
	require.NoError(t, err)
	assert.Equal(t, grains[79].Q, again.Rigid.Bodies[82].Q, "the seed's sample")
	sim, err := m.Simulation()
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	for k := range 250 {
		st, err := sim.Step()
		require.NoError(t, err, "step %d", k+1)
		require.LessOrEqual(t, st.NormalWork, 1e-12, "step %d: the law's work", k+1)
	}
	e := sim.TotalEnergy()
	assert.Zero(t, sim.InitialPenetration, "nothing overlaps at the start")
	assert.InDelta(t, e0, e.Balance(), 1e-9*math.Abs(e.External), "ledger")
}

// packing is the share of the rectangle [x0, x1] x [y0, y1] the disks
// cover, sampled on a 400 x 400 grid.
func packing(disks []*rigid.Body, x0, x1, y0, y1 float64) float64 {
	const n = 400
	in := 0
	for i := range n {
		for j := range n {
			p := [2]float64{x0 + (x1-x0)*(float64(i)+0.5)/n, y0 + (y1-y0)*(float64(j)+0.5)/n}
			for _, d := range disks {
				r := d.Shape.(rigid.Disk).R
				if math.Hypot(p[0]-d.Q[0], p[1]-d.Q[1]) < r {
					in++
					break
				}
			}
		}
	}
	return float64(in) / (n * n)
}

// TestGradedGrains: a grading (sizes = [[radius, share], ...]) draws each
// grain's radius from its table: 400 disks deposited from a 3:1 grading
// by number, or placed at random from an even one, have only the table's
// radii, in its shares (within three standard deviations of the binomial
// draw); polygons take the grading's radius as their circumscribed
// circle's; a radius beside the grading, a share that is not positive and
// an empty table are refused naming the key.
func TestGradedGrains(t *testing.T) {
	for _, tc := range []struct {
		name, grains string
		radii        []float64
		shares       []float64
	}{
		{"deposit 3:1", "count = 400\nsizes = [[0.003, 3.0], [0.005, 1.0]]", []float64{0.003, 0.005}, []float64{0.75, 0.25}},
		{"random, even", "count = 100\nsizes = [[0.004, 1.0], [0.006, 1.0]]\nplacement = \"random\"", []float64{0.004, 0.006}, []float64{0.5, 0.5}},
		{"polygons", "count = 100\nsizes = [[0.004, 1.0], [0.006, 1.0]]\nplacement = \"random\"\nsides = [4, 6]", []float64{0.004, 0.006}, []float64{0.5, 0.5}},
	} {
		text := strings.Replace(depositScene(tc.grains), "radius = [0.004, 0.006]\n", "", 1)
		if strings.Contains(tc.grains, "random") {
			text = strings.Replace(text, "placement = \"deposit\"\n", "", 1)
		}
		if strings.Contains(tc.grains, "sides") {
			text = strings.Replace(text, `shape = "disk"`, `shape = "polygon"`, 1)
		}
		sc, err := Decode(strings.NewReader(text), "graded.toml")
		require.NoError(t, err, tc.name)
		m, err := sc.Model(Variant{})
		require.NoError(t, err, tc.name)
		grains := m.Rigid.Bodies[3:]
		counts := make([]int, len(tc.radii))
		for _, g := range grains {
			r := g.Shape.Radius()
			k := slices.Index(tc.radii, r)
			if _, polygon := g.Shape.(*rigid.Polygon); polygon { // its vertices on the circle about where it was drawn, not its centre of mass
				k = 0
				if math.Abs(r-tc.radii[1]) < math.Abs(r-tc.radii[0]) {
					k = 1
				}
				require.InEpsilon(t, tc.radii[k], r, 0.15, "%s: %s's radius", tc.name, g.Name)
			}
			require.GreaterOrEqual(t, k, 0, "%s: %s's radius %g is the table's", tc.name, g.Name, r)
			counts[k]++
		}
		n := float64(len(grains))
		for k, want := range tc.shares {
			got := float64(counts[k]) / n
			t.Logf("%s: radius %g m: %d grains, share %.3f asked %.3f", tc.name, tc.radii[k], counts[k], got, want)
			assert.InDelta(t, want, got, 3*math.Sqrt(want*(1-want)/n), "%s: radius %g's share", tc.name, tc.radii[k])
		}
	}
	for grains, want := range map[string]string{
		"count = 10\nsizes = [[0.004, 1.0]]\nradius = [0.004, 0.006]": "radius and sizes are both given",
		"count = 10\nsizes = [[0.004, 0.0]]":                          `sizes[1] = [0.004 0]: expected [radius, share], both positive and below`,
		"count = 10\nsizes = []":                                      "sizes = 0 entries: expected 1 to 1000 [radius, share] pairs",
		"count = 10\nsizes = [[0.004, 1.0, 2.0]]":                     "sizes[1] = [0.004 1 2]",
	} {
		text := strings.Replace(depositScene(grains), "radius = [0.004, 0.006]\n", "", 1)
		_, err := Decode(strings.NewReader(text), "graded.toml")
		require.Error(t, err, grains)
		assert.Contains(t, err.Error(), want, grains)
	}
}

// TestGrainsWithinAPolygon: grains placed at random within a convex
// polygon (a hopper: a V bottom between vertical walls) lie in it, every
// circumscribed circle at least its radius from each side, overlap
// nowhere, and reach the asked solid fraction of the polygon's area; a
// polygon given clockwise, one beside a region, and within under another
// placement are refused.
func TestGrainsWithinAPolygon(t *testing.T) {
	hopper := [][2]float64{{0.05, 0}, {0.15, 0}, {0.2, 0.1}, {0.2, 0.3}, {0, 0.3}, {0, 0.1}}
	within := "within = [[0.05, 0.0], [0.15, 0.0], [0.2, 0.1], [0.2, 0.3], [0.0, 0.3], [0.0, 0.1]]"
	text := strings.Replace(depositScene("solid_fraction = 0.4\nseed = 9\n"+within), "placement = \"deposit\"\n", "placement = \"random\"\n", 1)
	text = strings.Replace(text, "region = [[-0.1, 0.01], [0.1, 0.31]]\n", "", 1)
	sc, err := Decode(strings.NewReader(text), "hopper.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	grains := m.Rigid.Bodies[3:]
	var area float64
	for i, g := range grains {
		r := g.Shape.Radius()
		area += g.Shape.Area()
		for k, p := range hopper {
			q := hopper[(k+1)%len(hopper)]
			d := ((q[0]-p[0])*(g.Q[1]-p[1]) - (q[1]-p[1])*(g.Q[0]-p[0])) / math.Hypot(q[0]-p[0], q[1]-p[1])
			require.GreaterOrEqual(t, d, r-1e-12, "grain %d within side %d", i, k+1)
		}
		for _, o := range grains[:i] {
			require.GreaterOrEqual(t, rigid.Distance(g, o), -1e-12, "%s and %s", g.Name, o.Name)
		}
	}
	polygon := 0.2*0.3 - 2*0.05*0.1/2 // the box less its two corner triangles
	t.Logf("%d grains, solid fraction %.3f of the hopper's %.4g m^2", len(grains), area/polygon, polygon)
	assert.GreaterOrEqual(t, area/polygon, 0.4)
	assert.Less(t, area/polygon, 0.42, "no more than a grain past it")

	for edit, want := range map[string]string{
		strings.Replace(text, within, "within = [[0.0, 0.1], [0.0, 0.3], [0.2, 0.3], [0.2, 0.1], [0.15, 0.0], [0.05, 0.0]]", 1): "expected a convex polygon, its vertices counter-clockwise",
		strings.Replace(text, within, within+"\nregion = [[0.0, 0.0], [0.3, 0.3]]", 1):                                          "region and within are both given",
		strings.Replace(text, "placement = \"random\"", "placement = \"deposit\"", 1):                                           "within places grains at random",
	} {
		_, err := Decode(strings.NewReader(edit), "hopper.toml")
		assert.ErrorContains(t, err, want)
	}
}
