package plots

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/io/results"
)

// Sweep draws a parameter study's figure y (results.SweepFigure: the
// contact duration, or a heap's surface angle) against the swept setting
// (xlabel), a line with its points per series (a combination of the
// other settings' values, its label, in a legend beside; none: no
// legend), into a PNG. The axis starts at 0, a duration written in the
// unit an SI prefix makes readable (ms), so that a constant duration
// reads as one.
func Sweep(path, xlabel string, y results.SweepFigure, series []results.Series) error {
	var ys []float64
	for _, sr := range series {
		ys = append(ys, sr.Y...)
	}
	top := largestAbs(ys)
	f, prefix := 1.0, ""
	if y.Unit == "s" {
		f, prefix = si(top)
	}
	p := newPlot(y.Name, xlabel, unitLabel(y.Name, prefix, y.Unit))
	leg := newLegend()
	for k, sr := range series {
		xy := make(plotter.XYs, 0, len(sr.T))
		for i := range sr.T {
			if !math.IsNaN(sr.Y[i]) {
				xy = append(xy, plotter.XY{X: sr.T[i], Y: f * sr.Y[i]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotColor(k+1), plotColor(k+1)
		p.Add(l, s)
		if sr.Label != "" {
			leg.add(sr.Label, l, s)
		}
	}
	if top > 0 {
		p.Y.Min, p.Y.Max = 0, 1.15*f*top
	}
	w := vg.Points(600)
	if leg.n > 0 {
		w += vg.Points(legendWidth)
	}
	return saveChart(path, p, leg, w, vg.Points(400))
}
