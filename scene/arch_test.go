package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/rigid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// archScene is a semicircular arch of n dry voussoirs on a fixed ground,
// intrados radius 1 m, ring depth t, friction 0.8 (no joint slides: the
// arch fails by hinging, Heyman's mechanism).
func archScene(t float64, n int) string {
	return fmt.Sprintf(`[time]
h = 1e-3
duration = 2.0
[solver]
measure = "velocity"
tolerance = 1e-5
[[rigid]]
name = "ground"
rectangle = [6.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }
[[arch]]
name = "arch"
centre = [0.0, 0.0]
radius = 1.0
thickness = %g
voussoirs = %d
rho = 2000
gravity = [0.0, -9.81]
[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.8
`, t, n)
}

// TestArchStandsAboveHeymansThickness: a semicircular arch under its own
// weight stands when its ring is thick enough to hold a line of thrust
// and falls when it is not. The least thickness of a semicircle is t/R =
// 0.1075 of its centre line's radius (Heyman; Ochsendorf's 0.1075 with
// friction enough to forbid sliding): 15 dry voussoirs at t/R 0.1087
// stand (the crown settles less than 0.1 mm in 2 s), at 0.1043 they hinge
// and fall (the crown drops more than 10 cm), as at 0.148 and 0.077. The
// voussoirs are laid as the builder says: n of them, radial joints, the
// springers on the ground, the ring's area that of n quadrilaterals.
func TestArchStandsAboveHeymansThickness(t *testing.T) {
	for _, tc := range []struct {
		name      string
		thickness float64
		stands    bool
	}{
		{"thick", 0.16, true},              // t / R_mean = 0.148
		{"just thick enough", 0.115, true}, // 0.1087
		{"just too thin", 0.110, false},    // 0.1043
		{"thin", 0.08, false},              // 0.077
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 15
			sc, err := Decode(strings.NewReader(archScene(tc.thickness, n)), "arch.toml")
			require.NoError(t, err)
			m, err := sc.Model(Variant{})
			require.NoError(t, err)
			sys := m.Rigid
			require.Len(t, sys.Bodies, n+1)
			var area float64
			for _, b := range sys.Bodies[1:] {
				area += b.Shape.Area()
			}
			// Each voussoir is the quadrilateral of its corners: (sin w / 2)
			// (re^2 - ri^2) for its angle w = pi / n.
			want := n / 2.0 * math.Sin(math.Pi/n) * ((1+tc.thickness)*(1+tc.thickness) - 1)
			assert.InDelta(t, want, area, 1e-12*want, "the ring's area")
			crown := sys.Bodies[n/2+1]
			assert.Equal(t, "arch_v8", crown.Name)
			assert.InDelta(t, 0, crown.Q[0], 1e-12, "the crown on the axis")
			y0 := crown.Q[1]
			sim, err := m.Simulation()
			require.NoError(t, err)
			e0 := sim.TotalEnergy()
			for range sc.Steps() {
				_, err := sim.Step()
				require.NoError(t, err)
			}
			drop := y0 - crown.Q[1]
			t.Logf("t/R_mean %.3f: the crown dropped %.3g m in 2 s", tc.thickness/(1+tc.thickness/2), drop)
			if tc.stands {
				assert.Less(t, drop, 1e-4, "it stands")
			} else {
				assert.Greater(t, drop, 0.1, "it falls")
			}
			e := sim.TotalEnergy()
			assert.InDelta(t, e0.Balance(), e.Balance(), 1e-9*math.Max(1, math.Abs(e.External)), "the ledger closes")
			assert.LessOrEqual(t, e.Contact, 1e-9*math.Abs(e.External), "contact creates no energy")
		})
	}
}

// TestArchRefused: an arch out of range is refused naming the key.
func TestArchRefused(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"thickness = 0.16", "thickness = 0.0", `arch "arch": thickness = 0: expected the ring's positive depth`},
		{"voussoirs = 15", "voussoirs = 0", `arch "arch": voussoirs = 0: expected 1 to 100000 voussoirs`},
		{"voussoirs = 15", "voussoirs = 1", `a voussoir would span 180 degrees: expected less than 180`},
		{"radius = 1.0", "radius = 1.0\nfrom = 90.0\nto = 10.0", `arch "arch": from, to = 90, 10: expected angles in degrees with from < to`},
		{"rho = 2000", "rho = 2000\njoint = 0.5", `arch "arch": joint = 0.5: expected a gap between voussoirs`},
	} {
		_, err := Decode(strings.NewReader(strings.Replace(archScene(0.16, 15), tc.old, tc.new, 1)), "arch.toml")
		require.Error(t, err, tc.new)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestPointedArch: an equilateral pointed arch (each half's centre half
// the radius off the middle: a clear span of the radius) of 16 dry
// voussoirs is laid as its halves' arcs say: mirror-symmetric to 1e-12,
// its springers on the ground's line, its crown a vertical joint at the
// middle, its neighbours touching (distance 0 to 1e-12), none
// overlapping. Under its own weight, at a ring depth of 0.08 of the
// radius, where the semicircle of the same depth hinges and falls
// (TestArchStandsAboveHeymansThickness), it stands: its crown settles less
// than 0.1 mm in 2 s, the ledger closed; at 0.02 it hinges and falls (the
// least depth lies between 0.03 and 0.04 of the radius here, a third of
// the semicircle's). An odd number of voussoirs, an offset of the radius,
// and from beside pointed are refused.
func TestPointedArch(t *testing.T) {
	const n, R, tk = 16, 1.0, 0.08
	text := strings.Replace(archScene(tk, n), "radius = 1.0\n", "radius = 1.0\npointed = 0.5\n", 1)
	sc, err := Decode(strings.NewReader(text), "pointed.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	vs := m.Rigid.Bodies[1:]
	require.Len(t, vs, n)
	for k, v := range vs {
		w := vs[n-1-k]
		assert.InDelta(t, -v.Q[0], w.Q[0], 1e-12, "voussoirs %d and %d mirror each other", k+1, n-k)
		assert.InDelta(t, v.Q[1], w.Q[1], 1e-12, "voussoirs %d and %d mirror each other", k+1, n-k)
		if k > 0 {
			assert.InDelta(t, 0, rigid.Distance(vs[k-1], v), 1e-12, "voussoirs %d and %d touch", k, k+1)
		}
		for _, u := range vs[:k] {
			assert.GreaterOrEqual(t, rigid.Distance(u, v), -1e-12, "%s and %s overlap nowhere", u.Name, v.Name)
		}
	}
	lowest := math.Inf(1)
	for _, x := range append(vs[0].Vertices(nil), vs[n-1].Vertices(nil)...) {
		lowest = math.Min(lowest, x[1])
	}
	assert.InDelta(t, 0, lowest, 1e-12, "the springers on the ground's line")
	var atCrown int
	for _, x := range vs[n/2].Vertices(nil) {
		if math.Abs(x[0]) < 1e-12 {
			atCrown++
		}
	}
	assert.Equal(t, 2, atCrown, "the crown voussoir's joint is the vertical through the middle")

	for _, tc := range []struct {
		depth  float64
		stands bool
	}{{tk, true}, {0.02, false}} {
		m, err := Decode(strings.NewReader(strings.Replace(text, fmt.Sprintf("thickness = %g", tk), fmt.Sprintf("thickness = %g", tc.depth), 1)), "pointed.toml")
		require.NoError(t, err)
		model, err := m.Model(Variant{})
		require.NoError(t, err)
		crown := model.Rigid.Bodies[1+n/2]
		y0 := crown.Q[1]
		sim, err := model.Simulation()
		require.NoError(t, err)
		e0 := sim.TotalEnergy()
		for range m.Steps() {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		drop := y0 - crown.Q[1]
		t.Logf("pointed, t/R %.2f: the crown dropped %.3g m in 2 s", tc.depth/R, drop)
		if tc.stands {
			assert.Less(t, drop, 1e-4, "t/R %g: it stands", tc.depth)
		} else {
			assert.Greater(t, drop, 0.1, "t/R %g: it falls", tc.depth)
		}
		e := sim.TotalEnergy()
		assert.InDelta(t, e0.Balance(), e.Balance(), 1e-9*math.Max(1, math.Abs(e.External)), "the ledger closes")
	}

	for old, want := range map[string]string{
		"voussoirs = 16": "voussoirs = 15: expected an even number",
		"pointed = 0.5":  "pointed = 1: expected each half's centre's offset",
		"radius = 1.0\n": "leave from and to out",
	} {
		bad := strings.Replace(text, "voussoirs = 16", "voussoirs = 15", map[bool]int{true: 1, false: 0}[old == "voussoirs = 16"])
		bad = strings.Replace(bad, "pointed = 0.5", "pointed = 1.0", map[bool]int{true: 1, false: 0}[old == "pointed = 0.5"])
		bad = strings.Replace(bad, "radius = 1.0\n", "radius = 1.0\nfrom = 0.0\n", map[bool]int{true: 1, false: 0}[old == "radius = 1.0\n"])
		_, err := Decode(strings.NewReader(bad), "pointed.toml")
		assert.ErrorContains(t, err, want, old)
	}
}
