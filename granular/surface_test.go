package granular

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreeSurface: a flank of equal disks whose centres climb a line of
// slope 0.5, each in a bin of its own, with disks buried under it, a
// driven wall above it left out, a flat crest and a grain rolled out at
// its foot, fits at atan(0.5) = 26.565 degrees with no RMS through the
// middle half of its height; an alternate step up and down of 1 mm gives
// that RMS; too few bins or a span the wrong way are refused.
func TestFreeSurface(t *testing.T) {
	const r = 0.005
	heap := func(jitter float64) Sample {
		var s Sample
		for k := range 20 {
			x := 2 * r * (float64(k) + 0.5)
			y := 0.5*x + jitter*float64(1-2*(k%2))
			s.Grains = append(s.Grains, Grain{X: [2]float64{x, y}, Radius: r}, Grain{X: [2]float64{x, y - 3*r}, Radius: r})
		}
		s.Grains = append(s.Grains, Grain{X: [2]float64{0.1, 1}, Radius: 0.2, Driven: true})
		for k := range 5 { // the crest
			s.Grains = append(s.Grains, Grain{X: [2]float64{0.2 + 2*r*(float64(k)+0.5), 0.1}, Radius: r})
		}
		s.Grains = append(s.Grains, Grain{X: [2]float64{-0.05, 0}, Radius: r}) // the foot
		return s
	}
	sf, err := FreeSurface(heap(0), -0.06, 0.25)
	require.NoError(t, err)
	assert.Len(t, sf.Tops, 26)
	assert.Len(t, sf.Flank, 10)
	assert.InDelta(t, math.Atan(0.5)*180/math.Pi, sf.Angle, 1e-9)
	assert.InDelta(t, 0, sf.RMS, 1e-12)
	sf, err = FreeSurface(heap(0.001), -0.06, 0.25)
	require.NoError(t, err)
	assert.InDelta(t, 0.001, sf.RMS, 2e-5)
	assert.InDelta(t, 26.565, sf.Angle, 0.5)

	_, err = FreeSurface(heap(0), 0, 0.02)
	assert.ErrorContains(t, err, "0 bins of 0.01 m with a grain on its flank (of 2 with one), fewer than 3: widen the span over the heap")
	_, err = FreeSurface(heap(0), 0.2, 0)
	assert.ErrorContains(t, err, "expected x0 < x1")
	_, err = FreeSurface(heap(0), -1e300, 1e300) // it panicked: an int of 2e302 bins
	assert.ErrorContains(t, err, "bins of 0.01 m: give a span of at most 1e+06 grains")
}

// TestSeriesSurface: a series with a surface span writes its angle and
// RMS in granular.csv's last columns and the summary, and means them over
// the window; one without writes neither.
func TestSeriesSurface(t *testing.T) {
	s := Sample{T: 1}
	for k := range 10 {
		x := 0.01 * float64(k)
		s.Grains = append(s.Grains, Grain{X: [2]float64{x + 0.005, x}, Radius: 0.005, Area: 1e-4})
	}
	sr := NewSeries(Options{Surface: [2]float64{0, 0.1}})
	sr.Add(s)
	angle, rms := sr.SurfaceMean()
	assert.InDelta(t, 45, angle, 1e-9)
	assert.InDelta(t, 0, rms, 1e-12)
	assert.Contains(t, sr.Summary(), "free surface over x 0..0.1 m at 45 deg")
	var b strings.Builder
	require.NoError(t, sr.WriteCSV(&b))
	assert.Contains(t, b.String(), ",surface_angle [deg],surface_rms [m]\n")
	plain := NewSeries(Options{})
	plain.Add(s)
	b.Reset()
	require.NoError(t, plain.WriteCSV(&b))
	assert.NotContains(t, b.String(), "surface")
	assert.NotContains(t, plain.Summary(), "surface")
	a, _ := plain.SurfaceMean()
	assert.True(t, math.IsNaN(a))

	away := NewSeries(Options{Surface: [2]float64{5, 6}}) // no grain there
	away.Add(s)
	assert.Contains(t, away.Summary(), "free surface over x 5..6 m: none in the window (at t = 1 s: granular: free surface over x 5..6: 0 bins of 0.01 m with a grain on its flank (of 0 with one), fewer than 3: widen the span over the heap)")
}
