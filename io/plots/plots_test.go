package plots

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// TestPictures: every picture is a PNG of the size it is drawn at, and
// nothing is left beside it.
func TestPictures(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 0}, 1, 0.5, 4, 2, mesh.Q8)
	require.NoError(t, err)
	pts := []results.EnergyPoint{{T: 0, E: timestep.Energy{Kinetic: 1}, Gaps: []float64{0.01}}, {T: 1e-3, E: timestep.Energy{Kinetic: 0.5, Elastic: 0.4}, Works: results.Works{Law: -0.05, Friction: -0.05}, Gaps: []float64{0.02}}}
	var sides [][]int
	for _, c := range m.Cells {
		sides = append(sides, c.Nodes)
	}
	snap := results.Snapshot{T: 0.5,
		Shapes: []kind.Shape{{Form: kind.Mesh, Points: m.Nodes, Sides: sides}, {Form: kind.Outline, Points: [][2]float64{{0, -1}, {2, -1}, {2, 0}, {0, 0}}, Still: true},
			{Form: kind.Line, Points: [][2]float64{{0.5, 1}, {0.5, 2}}}, {Form: kind.Dot, Points: [][2]float64{{0.5, 1}}}},
		Obstacles: [][][2]float64{{{-1, -1}, {3, -1}}}}
	profile := results.ProfileCurves{Title: "profile", Curves: []results.ProfileCurve{
		{Label: "from 1 s", Y: []float64{0.1, 0.2}, V: []float64{1, 2}}, {Label: "1-2 s", Y: []float64{0.1, 0.2}, V: []float64{1.1, math.NaN()}}}}
	dir := t.TempDir()
	var p Painter
	for _, tc := range []struct {
		name string
		draw func(string) error
		w, h int
	}{
		{"energy.png", func(f string) error { return p.Energy(f, pts) }, 640 + legendWidth, 400},
		{"gaps.png", func(f string) error { return p.Gaps(f, []string{"a_b"}, pts) }, 640 + legendWidth, 400},
		{"bodies.png", func(f string) error { return p.Bodies(f, []results.Snapshot{snap, snap}, nil) }, 0, 0},
		{"profile.png", func(f string) error { return p.Profile(f, profile) }, 420 + legendWidth, 420},
		{"compare.png", func(f string) error {
			return Compare(f, "kinetic", "J", []results.Series{{Label: "a", T: []float64{0, 1}, Y: []float64{1, 2}}})
		}, 640 + legendWidth, 400},
		{"plane.png", func(f string) error {
			return ForcePlane(f, "contact 1", []ForcePanel{{Title: "guess", Dots: [][2]float64{{0, 1}, {0.1, 1.2}}, Admissible: [][2]float64{{-0.3, 1}, {0.3, 1}, {0, 2}}}})
		}, 0, 0},
	} {
		path := filepath.Join(dir, tc.name)
		require.NoError(t, tc.draw(path), tc.name)
		f, err := os.Open(path)
		require.NoError(t, err, tc.name)
		cfg, err := png.DecodeConfig(f)
		f.Close()
		require.NoError(t, err, tc.name)
		if tc.w > 0 { // gonum's points at its default 96 dpi / 72
			assert.InDelta(t, float64(tc.w)*96/72, cfg.Width, 2, tc.name)
			assert.InDelta(t, float64(tc.h)*96/72, cfg.Height, 2, tc.name)
		}
	}
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, files, 6, "no temporary left")
}

// TestNiceTicks: an axis gets five to nine labelled round values, their
// labels as short as the step allows (no 5000000.00, no 0.30000000000000004)
// and no minus on zero.
func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 3000, []string{"0", "500", "1000", "1500", "2000", "2500", "3000"}},
		{0, 1, []string{"0.00", "0.25", "0.50", "0.75", "1.00"}},
		{-0.8, 0.8, []string{"-0.75", "-0.50", "-0.25", "0.00", "0.25", "0.50", "0.75"}},
		{0.1, 0.7, []string{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"}},
		{-12, 37, []string{"-10", "0", "10", "20", "30"}},
		{0, 100, []string{"0", "25", "50", "75", "100"}},
		{0, 2e-3, []string{"0.0000", "0.0005", "0.0010", "0.0015", "0.0020"}},
	} {
		var labels []string
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		assert.Equal(t, tc.want, labels, "%g to %g", tc.lo, tc.hi)
	}
}

// TestSI: values are written with the SI prefix that brings them into
// [1, 1000).
func TestSI(t *testing.T) {
	for _, tc := range []struct {
		v      float64
		factor float64
		prefix string
	}{{5e6, 1e-6, "M"}, {50000, 1e-3, "k"}, {2.1e-3, 1e3, "m"}, {7, 1, ""}, {999, 1, ""}, {1000, 1e-3, "k"}, {3e-7, 1e9, "n"}, {0, 1, ""}, {1e30, 1, ""}} {
		f, p := si(tc.v)
		assert.InDelta(t, tc.factor, f, 1e-9*tc.factor, "%g", tc.v)
		assert.Equal(t, tc.prefix, p, "%g", tc.v)
	}
	assert.Equal(t, timeAxis{1e3, "ms"}, timeAxisFor(0.5))
	assert.Equal(t, timeAxis{1, "s"}, timeAxisFor(3))
	assert.Equal(t, timeAxis{1e6, "µs"}, timeAxisFor(7.5e-4))
	assert.Equal(t, "500 ms", timeAxisFor(1).label(0.5))
	assert.Equal(t, "1000 ms", timeAxisFor(1).label(1), "one unit in a picture")
}

// TestEnergyLedgerDrawn: energy.png draws every term of the ledger that
// is not zero, and the initial energy plus the works less the losses lies
// on what the bodies hold: a rigid block pushed by an obstacle against
// friction, under gravity, with push-out work, closes; kinetic alone is
// not drawn twice where nothing is elastic.
func TestEnergyLedgerDrawn(t *testing.T) {
	pt := func(tm, k, ext, law, fr, obs, push float64) results.EnergyPoint {
		w := results.Works{Law: law, Friction: fr, Obstacle: obs, PushOut: push}
		return results.EnergyPoint{T: tm, E: timestep.Energy{Kinetic: k, External: ext, Contact: law + fr + obs + push}, Works: w}
	}
	pts := []results.EnergyPoint{pt(0, 10, 0, 0, 0, 0, 0), pt(1, 12, 5, -1, -4, 1.5, 0.5), pt(2, 16, 9, -2, -6, 4.5, 0.5)}
	lines, closure := energyLines(pts)
	var names []string
	for _, ln := range lines {
		names = append(names, ln.name)
	}
	assert.Equal(t, []string{"kinetic", "work of external forces", "work of moving obstacles", "push-out work",
		"friction loss", "contact-law loss", "initial + works - losses"}, names)
	assert.Zero(t, closure)
	last := lines[len(lines)-1]
	require.True(t, last.dashed)
	for i := range pts {
		assert.Equal(t, lines[0].xy[i].Y, last.xy[i].Y, "the ledger closes at %g s", pts[i].T)
	}
	pts[2].E.Kinetic += 0.16 // an energy created from nothing shows
	_, closure = energyLines(pts)
	assert.InDelta(t, 0.16/16.16, closure, 1e-12, "0.16 J of 16.16 J")
}

// TestSweepAgainstSweptKey: a constant contact duration is drawn on an
// axis from 0, in ms.
func TestSweepAxis(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sweep.png")
	require.NoError(t, Sweep(path, "body.disc.velocity", results.SweepFigures[1], []results.Series{{T: []float64{1, 2, 3}, Y: []float64{2.1e-3, 2.1e-3, 2.1e-3}}}))
	require.NoError(t, Sweep(path, "rigid_contacts.rule.1.rolling", results.SweepFigures[0], []results.Series{{T: []float64{0, 1e-4, 2e-4}, Y: []float64{8, 16, 22}}}))
}
