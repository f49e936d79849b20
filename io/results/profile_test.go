package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/rigid"
)

// TestProfileWindows: a grain in strip 2 whose velocity is t, recorded
// every 0.1 s from 0 to 2 s with the profile from 0.5 s in windows of
// 0.5 s: the whole run's mean is that of t over [0.5, 2], each window's
// the mean of its own steps, a step on a window's end counted in it.
func TestProfileWindows(t *testing.T) {
	b, err := rigid.NewBody("g", rigid.Disk{R: 0.01}, [2]float64{0, 0.15}, 1000)
	require.NoError(t, err)
	sys, err := rigid.NewSystem([]*rigid.Body{b}, nil, 0)
	require.NoError(t, err)
	p := &profile{Profile: Profile{Strips: 4, Bottom: 0, Top: 0.4, From: 0.5, Window: 0.5}}
	for i := range 21 {
		tm := 0.1 * float64(i)
		b.V[0] = tm
		p.record(sys, tm)
	}
	mean := func(w int) float64 {
		_, v := p.mean(w)
		assert.True(t, math.IsNaN(v[0]), "no grain in strip 1")
		return v[1]
	}
	require.Len(t, p.sums, 4, "the run and 3 windows")
	assert.InDelta(t, 1.25, mean(0), 1e-12, "steps 0.5, 0.6, ..., 2.0")
	assert.InDelta(t, 0.75, mean(1), 1e-12, "0.5 to 1.0")
	assert.InDelta(t, 1.3, mean(2), 1e-12, "1.1 to 1.5")
	assert.InDelta(t, 1.8, mean(3), 1e-12, "1.6 to 2.0")
	dir := t.TempDir()
	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	require.NoError(t, err)
	defer files.Close()
	var painted recorder
	require.NoError(t, p.write(files, &painted))
	csv, err := os.ReadFile(filepath.Join(dir, "profile.csv"))
	require.NoError(t, err)
	lines := strings.Split(string(csv), "\n")
	assert.Equal(t, "strip,y [m],vx [m/s],samples,vx 0.5-1 s [m/s],vx 1-1.5 s [m/s],vx 1.5-2 s [m/s]", lines[0])
	assert.Equal(t, "2,0.15,1.25,16,0.75,1.3,1.8", lines[2])
	assert.Equal(t, filepath.Join(dir, "profile.png"), painted.path)
	require.Len(t, painted.profile.Curves, 4)
	assert.Equal(t, []string{"from 0.5 s", "0.5-1 s", "1-1.5 s", "1.5-2 s"},
		[]string{painted.profile.Curves[0].Label, painted.profile.Curves[1].Label, painted.profile.Curves[2].Label, painted.profile.Curves[3].Label})
	assert.InDelta(t, 1.8, painted.profile.Curves[3].V[1], 1e-12, "the last window's strip 2")
}

// recorder is a Painter that keeps what it is given.
type recorder struct {
	path    string
	profile ProfileCurves
}

func (r *recorder) Energy(path string, pts []EnergyPoint) error                 { return nil }
func (r *recorder) Gaps(path string, names []string, pts []EnergyPoint) error   { return nil }
func (r *recorder) Bodies(path string, snaps []Snapshot, frame []float64) error { return nil }
func (r *recorder) Forces(path string, width float64, density []float64) error  { return nil }
func (r *recorder) Fabric(path string, shares []float64) error                  { return nil }
func (r *recorder) Profile(path string, c ProfileCurves) error {
	r.path, r.profile = path, c
	return nil
}
