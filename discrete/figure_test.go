package discrete_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/internal/analytic"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/timestep"
)

// TestKlarbringFigure draws [L]'s Figure 2 and 3 for docs/validation.md:
// the sets of equilibria in contact of five cases of (A, mu) in the
// (R_t, R_n) plane (K_t = K_n = 1, W = 0.5), and in each the reactions of
// a run perturbed from an equilibrium by a tangential velocity, every
// 100th step; a run with A >= 0 ends on the set drawn. It draws the
// figure only when FECONTACT_DOCS names a folder:
//
//	FECONTACT_DOCS=$PWD/docs go test -run TestKlarbringFigure ./discrete/
func TestKlarbringFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("five runs of 20 000 steps")
	}
	cases := []struct {
		title string
		k     discrete.Klarbring
		u0    [2]float64
	}{
		{"A > 0, mu = 0.5", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 0, Fn: 1, Mu: 0.5}, [2]float64{0, 0}},
		{"A = 0, mu = 0.3 < Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 0.3}, [2]float64{2, 0}},
		{"A = 0, mu = 3 > Kt/W", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 1, Mu: 3}, [2]float64{1, 0}},
		{"A < 0, mu = 0.3", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 0.3}, [2]float64{0, 0}},
		{"A < 0, mu = 3", discrete.Klarbring{Kt: 1, Kn: 1, W: 0.5, Ft: 2, Fn: 0.5, Mu: 3}, [2]float64{0, 0}},
	}
	var panels []plots.ForcePanel
	for _, c := range cases {
		sys, err := c.k.System(c.u0, [2]float64{0.1, 0}, 0)
		require.NoError(t, err)
		var dots [][2]float64
		simulate(t, sys, 1e-3, 0.5, 20000, func(i int, sim *timestep.Simulation) {
			if i%100 != 0 || i == 0 {
				return
			}
			var r [2]float64
			for _, u := range sim.Contacts() {
				f := sim.Force(u)
				r[0], r[1] = r[0]+f[0], r[1]-f[1]
			}
			dots = append(dots, r)
		})
		set := c.k.Equilibria(2)
		if len(set) > 0 && c.k.A() >= 0 { // a run that ends in contact ends on the set drawn
			end := dots[len(dots)-1]
			require.Less(t, distanceToSet(end, set), 1e-6, "%s: the run's last reaction %v", c.title, end)
		}
		panels = append(panels, plots.ForcePanel{Title: fmt.Sprintf("%s (A = %g)", c.title, c.k.A()), Dots: dots, Admissible: set,
			AdmissibleLabel: "equilibria in contact", DotsLabel: "reaction, every 0.1 s"})
	}
	dir := os.Getenv("FECONTACT_DOCS")
	if dir == "" {
		return // the figure is drawn only for the docs
	}
	require.NoError(t, plots.ForcePlane(filepath.Join(dir, "klarbring-equilibria.png"), "[L]", panels))
}

// TestPointImpactFigure draws [TG] eq. 3.44 against fecontact for
// docs/point-impact.png: the velocity along the plane after the impact
// of a point mass at 2 m/s on a plane (nu = 0.4), for incidence angles
// from 0 to 85 degrees (the shock law, from a gap), each to 1e-6 of the
// speed. It draws the figure only when FECONTACT_DOCS names a folder.
func TestPointImpactFigure(t *testing.T) {
	const nu, speed, h = 0.4, 2.0, 1e-4
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-10, 0}, {10, 0}}}
	exact := results.Series{Label: "[TG] eq. 3.44"}
	for deg := 0.0; deg <= 85; deg += 0.25 {
		b := deg * math.Pi / 180
		exact.T = append(exact.T, deg)
		exact.Y = append(exact.Y, analytic.PointImpact(-speed*math.Cos(b), speed*math.Sin(b), nu)[1])
	}
	computed := results.Series{Label: "fecontact (shock law, every 2.5 degrees)"}
	for deg := 0.0; deg <= 85; deg += 2.5 {
		b := deg * math.Pi / 180
		mass := &discrete.Mass{Name: "p", M: 0.5, X: [2]float64{0, 0.3 * h * speed}, V: [2]float64{speed * math.Sin(b), -speed * math.Cos(b)}}
		sys, err := discrete.NewSystem([]*discrete.Mass{mass}, nil, []discrete.Contact{{Name: "floor", Obstacle: floor, Mu: nu, Law: contact.Shock}})
		require.NoError(t, err)
		simulate(t, sys, h, 0.5, 5, nil)
		computed.T = append(computed.T, deg)
		computed.Y = append(computed.Y, mass.V[0])
		want := analytic.PointImpact(-speed*math.Cos(b), speed*math.Sin(b), nu)[1]
		require.InDelta(t, want, mass.V[0], 1e-6*speed, "%g degrees: the curve drawn is eq. 3.44's", deg)
	}
	dir := os.Getenv("FECONTACT_DOCS")
	if dir == "" {
		return // the figure is drawn only for the docs
	}
	require.NoError(t, plots.CompareAgainst(filepath.Join(dir, "point-impact.png"), "a point mass hits a rough plane at 2 m/s (nu = 0.4)",
		"incidence angle from the normal (degrees)", "velocity along the plane after (m/s)", []results.Series{exact, computed}))
}

// distanceToSet is the distance of p to the polyline set (a segment, a
// half-line drawn to a length, or a single point).
func distanceToSet(p [2]float64, set [][2]float64) float64 {
	if len(set) == 1 {
		return math.Hypot(p[0]-set[0][0], p[1]-set[0][1])
	}
	best := math.Inf(1)
	for i := 1; i < len(set); i++ {
		a, b := set[i-1], set[i]
		d := [2]float64{b[0] - a[0], b[1] - a[1]}
		s := ((p[0]-a[0])*d[0] + (p[1]-a[1])*d[1]) / (d[0]*d[0] + d[1]*d[1])
		s = math.Max(0, math.Min(1, s))
		best = math.Min(best, math.Hypot(p[0]-a[0]-s*d[0], p[1]-a[1]-s*d[1]))
	}
	return best
}
