package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/io/results"
)

// Sweep draws a parameter study's contact duration against a setting
// (xlabel), a line with its points per series (a combination of the
// other settings' values, its label; none: no legend), into a PNG.
func Sweep(path, xlabel string, series []results.Series) error {
	p := plot.New()
	p.Title.Text = "contact duration"
	p.X.Label.Text, p.Y.Label.Text = xlabel, "contact duration (s)"
	for k, sr := range series {
		xy := make(plotter.XYs, len(sr.T))
		for i := range sr.T {
			xy[i] = plotter.XY{X: sr.T[i], Y: sr.Y[i]}
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotColor(k), plotColor(k)
		p.Add(l, s)
		if sr.Label != "" {
			p.Legend.Add(sr.Label, l, s)
		}
	}
	return savePNG(path, [][]*plot.Plot{{p}}, 6*vg.Inch, 4*vg.Inch)
}
