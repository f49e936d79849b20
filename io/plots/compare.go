package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/io/results"
)

// Compare draws series of one quantity (ylabel) against time, one line
// each, into a PNG.
func Compare(path, title, ylabel string, series []results.Series) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "t (s)", ylabel
	for k, s := range series {
		xy := make(plotter.XYs, len(s.T))
		for i := range s.T {
			xy[i] = plotter.XY{X: s.T[i], Y: s.Y[i]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = plotColor(k)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(s.Label, l)
	}
	p.Legend.Top = true
	return savePNG(path, [][]*plot.Plot{{p}}, vg.Points(640), vg.Points(400))
}
