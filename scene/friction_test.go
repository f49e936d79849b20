package scene

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inclineScene is a point mass of 1 kg/m on a plane inclined at atan(0.3)
// (down to the right), static and dynamic friction 0.5 and 0.2, starting
// on the plane with speed v0 down the slope.
func inclineScene(v0 float64, dynamic string) string {
	tan := 0.3
	c, s := 1/math.Sqrt(1+tan*tan), tan/math.Sqrt(1+tan*tan)
	return fmt.Sprintf(`
[time]
h = 1e-3
theta = 0.5
duration = 1.0

[[obstacle]]
name = "slope"
points = [[-10.0, 3.0], [10.0, -3.0]]  # the solid on the right: below

[[mass]]
name = "m"
mass = 1.0
position = [0.0, 0.0]
velocity = [%.17g, %.17g]
gravity = [0.0, -9.81]

[[point_contact]]
obstacle = "slope"
law = "signorini"
mu = 0.5
%s
`, v0*c, -v0*s, dynamic)
}

// TestStaticDynamicFriction: on a slope steeper than the dynamic
// coefficient and gentler than the static one (tan alpha = 0.3 between 0.2
// and 0.5), a mass at rest stays at rest (the static coefficient holds a
// new contact), and a mass thrown down it slides and speeds up at g (sin
// alpha - mu_d cos alpha) after its first step (whose new contact takes
// mu_s), to round-off; the friction work is what the ledger misses: the
// kinetic energy's change is gravity's work plus the friction work, and
// the friction work is mu N times the way slid, never positive.
func TestStaticDynamicFriction(t *testing.T) {
	const g, h, steps = 9.81, 1e-3, 1000
	tan := 0.3
	cos, sin := 1/math.Sqrt(1+tan*tan), tan/math.Sqrt(1+tan*tan)
	for _, tc := range []struct {
		name    string
		v0      float64
		dynamic string
	}{
		{"at rest", 0, "mu_dynamic = 0.2"},
		{"sliding", 1, "mu_dynamic = 0.2"},
		{"sliding, one coefficient", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Decode(strings.NewReader(inclineScene(tc.v0, tc.dynamic)), "incline.toml")
			require.NoError(t, err)
			m, err := sc.Model(Variant{})
			require.NoError(t, err)
			sim, err := m.Simulation()
			require.NoError(t, err)
			muD := 0.2
			if tc.dynamic == "" {
				muD = 0.5
			}
			aS, aD := g*(sin-0.5*cos), g*(sin-muD*cos)
			v, way := tc.v0, 0.0 // along the slope, the theta = 1/2 way
			var friction float64
			for k := 1; k <= steps; k++ {
				_, err := sim.Step()
				require.NoError(t, err)
				a := aD
				if k == 1 {
					a = aS // a new contact: static
				}
				mu := 0.5
				if k > 1 {
					mu = muD
				}
				vNext := v + h*a
				switch {
				case v == 0:
					vNext = 0 // it sticks: no work
				case vNext <= 0:
					// It stops within the step: the friction impulse stops
					// it and holds it against gravity.
					vNext = 0
					friction -= (v + g*sin*h) * v / 2
				default:
					friction -= mu * g * cos * h * (v + vNext) / 2
				}
				way += h * (v + vNext) / 2
				v = vNext
			}
			mass := m.Points.Masses[0]
			along := mass.V[0]*cos - mass.V[1]*sin
			across := mass.V[0]*sin + mass.V[1]*cos
			assert.InDelta(t, v, along, 1e-9, "the speed down the slope after 1 s")
			assert.InDelta(t, 0, across, 1e-9, "no speed off the plane")
			assert.InDelta(t, way, mass.X[0]*cos-mass.X[1]*sin, 1e-9, "the way slid")
			assert.InDelta(t, friction, sim.FrictionWork, 1e-9, "the friction work: mu N times the way, per step")
			assert.LessOrEqual(t, sim.FrictionWork, 1e-15, "friction never gives energy")
			ledger := (v*v-tc.v0*tc.v0)/2 - g*sin*way - sim.FrictionWork
			assert.InDelta(t, 0, ledger, 1e-9, "kinetic energy = gravity's work + friction's")
		})
	}
}

// TestDynamicFrictionRefused: a dynamic coefficient above the static one
// (or negative, or NaN) is refused, naming the file, the contact and the
// value, in each kind of contact; so is a restitution out of [0, 1],
// beside a dissipation index, or under the positional law.
func TestDynamicFrictionRefused(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{inclineScene(1, "mu_dynamic = 0.6"), `point contact 1 "": dynamic friction coefficient mu_dynamic = 0.6: expected a value from 0 to the static one, mu = 0.5`},
		{inclineScene(1, "mu_dynamic = -0.1"), "mu_dynamic = -0.1"},
		{inclineScene(1, "mu_dynamic = nan"), "mu_dynamic = NaN"},
		{bounceScene(1.5, false), "[[rigid_contacts.rule]] 1: restitution = 1.5: expected Newton's coefficient in [0, 1]"},
		{bounceScene(0.5, false) + "dissipation_index = 0.5\n", "restitution = 0.5: give restitution or dissipation_index, not both"},
		{strings.Replace(bounceScene(0.5, false), `law = "shock"`, `law = "signorini"`, 1), "restitution = 0.5: applies to the shock law only"},
		{strings.Replace(inclineScene(1, "restitution = -1.0"), `law = "signorini"`, `law = "shock"`, 1), "restitution = -1: expected Newton's coefficient in [0, 1]"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\nmu_dynamic = 0.4\n", 1), "mu_dynamic = 0.4: expected the friction coefficient while sliding, from 0 to the static one (mu = 0.3)"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\ncohesion = -5.0\n", 1), "cohesion = -5: expected a tension in N/m from 0 (no bond) to 1e+12"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\ncohesion = 1e300\n", 1), "cohesion = 1e+300: expected a tension in N/m from 0 (no bond) to 1e+12"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\ncohesion = nan\n", 1), "cohesion = NaN: expected a tension in N/m from 0 (no bond) to 1e+12"},
		{bounceScene(0.5, false) + "tangential_restitution = 1.5\n", "tangential_restitution = 1.5: expected a coefficient in [0, 1]"},
		{rigidMinimal + "[output]\ngranular = { surface = [-1e300, 1e300] }\n", "[output]: granular.surface = [-1e+300 1e+300]: expected [x0, x1] in m with x0 < x1, within +-1e+15 m"},
		{rigidMinimal + "[output]\ngranular = { surface = [0.2, 0.1] }\n", "granular.surface = [0.2 0.1]: expected [x0, x1] in m with x0 < x1"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\nrolling = -0.001\n", 1), "[[rigid_contacts.rule]] 1: rolling = -0.001: expected a rolling resistance mu_r in m from 0 (none) to 1000"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\nrolling = nan\n", 1), "rolling = NaN: expected a rolling resistance mu_r in m"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\nrolling = 1e300\n", 1), "rolling = 1e+300: expected a rolling resistance mu_r in m"},
		{strings.Replace(rigidMinimal, "mu = 0.3\n", "mu = 0.3\nrolling = 0.001\n", 1) + "[solver]\nmethod = \"newton\"\n", `rolling = 0.001: Newton's method has no rolling resistance: give [solver] method = "nlgs" or "auto"`},
		{minimal + "\n[[obstacle]]\nname = \"floor\"\npoints = [[0.0, 0.0], [1.0, 0.0]]\n[[contact]]\ncandidate = { body = \"b\", group = \"bottom\" }\nobstacle = \"floor\"\nmu = 0.5\nmu_dynamic = 2.0\n",
			"contact 1: mu_dynamic = 2: expected the friction coefficient while sliding, from 0 to the static one (mu = 0.5)"},
	} {
		sc, err := Decode(strings.NewReader(tc.text), "f.toml")
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		if assert.Error(t, err, tc.want) {
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "f.toml"), err.Error())
		}
	}
}

// TestDynamicFrictionResumes: a simulation saved while its unit slides and
// loaded into a fresh one goes on bit for bit with the dynamic coefficient
// (the unit's having slid is in the checkpoint: without it, the resumed
// step took the static one).
func TestDynamicFrictionResumes(t *testing.T) {
	build := func() *Model {
		sc, err := Decode(strings.NewReader(inclineScene(1, "mu_dynamic = 0.2")), "incline.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		return m
	}
	whole, parted := build(), build()
	a, err := whole.Simulation()
	require.NoError(t, err)
	b, err := parted.Simulation()
	require.NoError(t, err)
	for range 100 {
		_, err = a.Step()
		require.NoError(t, err)
		_, err = b.Step()
		require.NoError(t, err)
	}
	var saved bytes.Buffer
	require.NoError(t, b.SaveState(&saved))
	resumed := build()
	c, err := resumed.Simulation()
	require.NoError(t, err)
	require.NoError(t, c.LoadState(&saved))
	for range 100 {
		_, err = a.Step()
		require.NoError(t, err)
		_, err = c.Step()
		require.NoError(t, err)
	}
	assert.Equal(t, whole.Points.Masses[0].V, resumed.Points.Masses[0].V)
	assert.Equal(t, whole.Points.Masses[0].X, resumed.Points.Masses[0].X)
	assert.Equal(t, a.FrictionWork, c.FrictionWork)
}

// bounceScene is rigidMinimal's disk (radius 0.1 m) dropped from a gap of
// H = 0.1 m onto its fixed ground under the shock law with Newton's
// restitution e (as `restitution`, or `dissipation_index` when delta is
// true).
func bounceScene(e float64, delta bool) string {
	law := fmt.Sprintf("restitution = %g", e)
	if delta {
		law = fmt.Sprintf("dissipation_index = %.17g", (1-e)/(1+e))
	}
	s := strings.Replace(rigidMinimal, "h = 1e-3\nduration = 1e-2", "h = 1e-4\nduration = 0.6", 1)
	s = strings.Replace(s, "position = [0.0, 0.1]", "position = [0.0, 0.2]", 1)
	return s + "law = \"shock\"\n" + law + "\n"
}

// TestNewtonRestitution: a disk dropped from H bounces back to e^2 H
// (its rebound speed e times its landing speed, the impact inside the step
// where it lands), for restitution = e and for the dissipation index that
// is the same e; the bounce's kinetic energy lost is (1 - e^2) of the
// landing's, booked as the law's work.
func TestNewtonRestitution(t *testing.T) {
	const g, H, h = 9.81, 0.1, 1e-4
	for _, tc := range []struct {
		e     float64
		delta bool
	}{{0.5, false}, {0.8, false}, {0.5, true}, {0, false}} {
		t.Run(fmt.Sprintf("e=%g,delta=%v", tc.e, tc.delta), func(t *testing.T) {
			sc, err := Decode(strings.NewReader(bounceScene(tc.e, tc.delta)), "bounce.toml")
			require.NoError(t, err)
			m, err := sc.Model(Variant{})
			require.NoError(t, err)
			sim, err := m.Simulation()
			require.NoError(t, err)
			ball := m.Rigid.Bodies[1]
			landed, apex, work := false, 0.0, 0.0
			for range 4000 { // 0.4 s: the landing at 0.143 s, the apex at 0.143 (1 + e) s
				_, err := sim.Step()
				require.NoError(t, err)
				if !landed && ball.V[1] > 0 {
					landed, work = true, sim.NormalWork
				}
				if landed && ball.V[1] > 0 {
					apex = max(apex, ball.Q[1]-0.1) // the first rebound's
				}
				if landed && ball.V[1] < 0 && apex > 0 {
					break
				}
			}
			if !landed { // e = 0: it lands and stays
				work = sim.NormalWork
			}
			assert.InDelta(t, tc.e*tc.e*H, apex, 2e-4*H+g*h*h, "the rebound's height: e^2 H")
			assert.LessOrEqual(t, sim.NormalWork, 1e-12, "the law never gives energy")
			lost := (1 - tc.e*tc.e) * g * H * ball.Mass
			assert.InDelta(t, -lost, work, 1e-3*g*H*ball.Mass, "the law's work: (1 - e^2) of the landing's kinetic energy")
		})
	}
}

// TestStaticDynamicFrictionRigid: the same law between rigid bodies: a
// block of 0.2 x 0.1 m on a fixed ground, gravity tilted by atan(0.3)
// (the ground an incline), mu = 0.5, mu_dynamic = 0.2. Set down, it stays;
// pushed at 1 m/s down the slope, its two corners slide and it speeds up
// at g (sin alpha - 0.2 cos alpha) after its first step, to round-off,
// without turning, the ledger closing.
func TestStaticDynamicFrictionRigid(t *testing.T) {
	const g, h, steps = 9.81, 1e-3, 500
	tan := 0.3
	cos, sin := 1/math.Sqrt(1+tan*tan), tan/math.Sqrt(1+tan*tan)
	for _, v0 := range []float64{0, 1} {
		text := strings.Replace(rigidMinimal, "h = 1e-3\nduration = 1e-2", "h = 1e-3\nduration = 0.5", 1)
		text = strings.Replace(text, "radius = 0.1\nposition = [0.0, 0.1]", fmt.Sprintf("rectangle = [0.2, 0.1]\nposition = [0.0, 0.05]\nvelocity = [%g, 0.0]", v0), 1)
		text = strings.Replace(text, "gravity = [0.0, -9.81]", fmt.Sprintf("gravity = [%.17g, %.17g]", g*sin, -g*cos), 1)
		text = strings.Replace(text, "mu = 0.3\n", "mu = 0.5\nmu_dynamic = 0.2\n", 1)
		for _, edit := range []string{"duration = 0.5", "rectangle = [0.2, 0.1]", "gravity = [2.8", "mu_dynamic = 0.2"} {
			require.Contains(t, text, edit)
		}
		sc, err := Decode(strings.NewReader(text), "block.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		block := m.Rigid.Bodies[1]
		for range steps {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		want := 0.0
		if v0 > 0 {
			want = v0 + h*g*(sin-0.5*cos) + (steps-1)*h*g*(sin-0.2*cos)
		}
		assert.InDelta(t, want, block.V[0], 1e-9, "v0 = %g: the speed down the slope", v0)
		assert.InDelta(t, 0, block.V[1], 1e-9, "v0 = %g: no speed off the ground", v0)
		assert.InDelta(t, 0, block.V[2], 1e-9, "v0 = %g: no turning", v0)
		assert.LessOrEqual(t, sim.FrictionWork, 1e-12, "v0 = %g: friction never gives energy", v0)
		way := block.Q[0]
		kinetic := block.Mass * (block.V[0]*block.V[0] - v0*v0) / 2
		assert.InDelta(t, 0, kinetic-block.Mass*g*sin*way-sim.FrictionWork, 1e-9, "v0 = %g: the ledger", v0)
	}
}
