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
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// TestPictures: every picture is a PNG of the size it is drawn at, and
// nothing is left beside it.
func TestPictures(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 0}, 1, 0.5, 4, 2, mesh.Q8)
	require.NoError(t, err)
	pts := []results.EnergyPoint{{T: 0, E: timestep.Energy{Kinetic: 1}, Gaps: []float64{0.01}}, {T: 1e-3, E: timestep.Energy{Kinetic: 0.5, Elastic: 0.4}, Works: [3]float64{-0.05, -0.05, 0}, Gaps: []float64{0.02}}}
	snap := results.Snapshot{T: 0.5, Meshes: []*mesh.Mesh{m}, Pos: [][][2]float64{m.Nodes},
		Rigid: [][][2]float64{{{0, -1}, {2, -1}, {2, 0}, {0, 0}}}, Driven: []bool{true}, Obstacles: [][][2]float64{{{-1, -1}, {3, -1}}},
		Masses: [][2]float64{{0.5, 1}}, Springs: [][2][2]float64{{{0.5, 1}, {0.5, 2}}}}
	profile := results.ProfileCurves{Title: "profile", Curves: []results.ProfileCurve{
		{Label: "from 1 s", Y: []float64{0.1, 0.2}, V: []float64{1, 2}}, {Label: "1-2 s", Y: []float64{0.1, 0.2}, V: []float64{1.1, math.NaN()}}}}
	dir := t.TempDir()
	var p Painter
	for _, tc := range []struct {
		name string
		draw func(string) error
		w, h int
	}{
		{"energy.png", func(f string) error { return p.Energy(f, pts) }, 640, 400},
		{"gaps.png", func(f string) error { return p.Gaps(f, []string{"a_b"}, pts) }, 640, 400},
		{"bodies.png", func(f string) error { return p.Bodies(f, []results.Snapshot{snap, snap}) }, 600, 320},
		{"profile.png", func(f string) error { return p.Profile(f, profile) }, 400, 400},
		{"compare.png", func(f string) error {
			return Compare(f, "kinetic", "J", []results.Series{{Label: "a", T: []float64{0, 1}, Y: []float64{1, 2}}})
		}, 640, 400},
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
