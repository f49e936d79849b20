package plots

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/io/results"
)

// Profile draws the profile of each window and, thicker, the whole run's.
func Profile(file string, c results.ProfileCurves) error {
	pl := newPlot(c.Title, "vx (m/s)", "y (m)")
	leg := newLegend()
	for w := len(c.Curves) - 1; w >= 0; w-- {
		cv := c.Curves[w]
		var xy plotter.XYs
		for k := range cv.Y {
			if !math.IsNaN(cv.V[k]) {
				xy = append(xy, plotter.XY{X: cv.V[k], Y: cv.Y[k]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotColor(w), plotColor(w)
		if w == 0 {
			l.Width = vg.Points(2)
		}
		pl.Add(l, s)
		if len(c.Curves) > 1 {
			leg.add(cv.Label, l)
		}
	}
	w := vg.Points(420)
	if leg.n > 0 {
		w += vg.Points(legendWidth)
	}
	return saveChart(file, pl, leg, w, vg.Points(420))
}
