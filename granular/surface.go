package granular

import (
	"errors"
	"fmt"
	"math"
)

// Surface is the free surface of a sample's grains over [X0, X1]: the top
// of the grains in each bin of width Bin (the highest y + r of a free
// grain whose centre is in the bin), and the least-squares line through
// the tops of its flank: those between a quarter and three quarters of
// the way from the lowest top to the highest, so that neither a heap's
// crest nor its foot (a flat top left against a wall, grains rolled out
// onto the floor) bends the line. Angle is that line's inclination, atan
// |slope| in degrees: a heap's flank at rest is its angle of repose; RMS
// is how far the flank's tops lie from the line (m), a rough surface's,
// a grain's size.
type Surface struct {
	X0, X1, Bin float64
	Tops        [][2]float64 // each bin with a grain: its centre's x, its top
	Flank       [][2]float64 // the tops the line is fitted through
	Slope       float64      // dy/dx
	Angle       float64      // degrees
	RMS         float64      // m
}

// minBins is the fewest bins with grains a surface is fitted through;
// maxSurfaceBins the most bins a span is cut into (each is a float).
const (
	minBins        = 3
	maxSurfaceBins = 1e6
)

// FreeSurface fits the free surface of the sample's free grains over [x0,
// x1] with bins of twice their mean radius (RMS is then about a grain's
// radius on a surface of grains of one size). It fails where fewer than
// minBins bins hold a grain.
func FreeSurface(s Sample, x0, x1 float64) (Surface, error) {
	if !(x1 > x0) || math.IsInf(x1-x0, 0) {
		return Surface{}, fmt.Errorf("granular: free surface over x %g..%g: expected x0 < x1, finite", x0, x1)
	}
	var sum float64
	n := 0
	for _, g := range s.Grains {
		if !g.Driven {
			sum, n = sum+g.Radius, n+1
		}
	}
	if n == 0 {
		return Surface{}, errors.New("granular: free surface: no free grain")
	}
	sf := Surface{X0: x0, X1: x1, Bin: 2 * sum / float64(n)}
	nb := math.Ceil((x1 - x0) / sf.Bin) // in floating point: a span of 1e300 m would overflow an int
	if !(nb <= maxSurfaceBins) {
		return Surface{}, fmt.Errorf("granular: free surface over x %g..%g: %.3g bins of %.3g m: give a span of at most %g grains", x0, x1, nb, sf.Bin, float64(maxSurfaceBins))
	}
	bins := int(nb)
	top := make([]float64, bins)
	for k := range top {
		top[k] = math.Inf(-1)
	}
	for _, g := range s.Grains {
		if g.Driven || g.X[0] < x0 || g.X[0] >= x1 {
			continue
		}
		k := min(int((g.X[0]-x0)/sf.Bin), bins-1)
		top[k] = max(top[k], g.X[1]+g.Radius)
	}
	for k, y := range top {
		if !math.IsInf(y, -1) {
			sf.Tops = append(sf.Tops, [2]float64{x0 + (float64(k)+0.5)*sf.Bin, y})
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range sf.Tops {
		lo, hi = min(lo, p[1]), max(hi, p[1])
	}
	for _, p := range sf.Tops {
		if p[1] >= lo+(hi-lo)/4 && p[1] <= lo+3*(hi-lo)/4 {
			sf.Flank = append(sf.Flank, p)
		}
	}
	if len(sf.Flank) < minBins {
		return sf, fmt.Errorf("granular: free surface over x %g..%g: %d bins of %.3g m with a grain on its flank (of %d with one), fewer than %d: widen the span over the heap", x0, x1, len(sf.Flank), sf.Bin, len(sf.Tops), minBins)
	}
	sf.fit()
	return sf, nil
}

// fit is the least-squares line through the flank's tops, its angle and
// the tops' RMS about it.
func (sf *Surface) fit() {
	var mx, my float64
	for _, p := range sf.Flank {
		mx, my = mx+p[0], my+p[1]
	}
	n := float64(len(sf.Flank))
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for _, p := range sf.Flank {
		sxy += (p[0] - mx) * (p[1] - my)
		sxx += (p[0] - mx) * (p[0] - mx)
	}
	sf.Slope = sxy / sxx
	sf.Angle = math.Atan(math.Abs(sf.Slope)) * 180 / math.Pi
	var r2 float64
	for _, p := range sf.Flank {
		d := p[1] - (my + sf.Slope*(p[0]-mx))
		r2 += d * d
	}
	sf.RMS = math.Sqrt(r2 / n)
}
