package plots

import (
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/io/results"
)

// Compare draws series of one quantity (ylabel) against time, one line
// each, into a PNG.
func Compare(path, title, ylabel string, series []results.Series) error {
	return CompareAgainst(path, title, "t (s)", ylabel, series)
}

// CompareAgainst draws series of one column against another (a
// trajectory in their plane: Series.T is the other column).
func CompareAgainst(path, title, xlabel, ylabel string, series []results.Series) error {
	lines := make([]line, len(series))
	for k, sr := range series {
		lines[k] = line{name: sr.Label, xy: make(plotter.XYs, len(sr.T))}
		for i := range sr.T {
			lines[k].xy[i] = plotter.XY{X: sr.T[i], Y: sr.Y[i]}
		}
	}
	return xyChart(path, title, xlabel, ylabel, lines)
}

// xyChart draws curves against one pair of axes labelled as given, a
// colour and a legend entry each beside the data (none for one unnamed
// curve), 640 x 400 points.
func xyChart(path, title, xlabel, ylabel string, lines []line) error {
	p := newPlot(title, xlabel, ylabel)
	leg := newLegend()
	for k, ln := range lines {
		l, err := plotter.NewLine(ln.xy)
		if err != nil {
			return err
		}
		l.Color = plotColor(k)
		l.Width = vg.Points(1.2)
		p.Add(l)
		if ln.name != "" {
			leg.add(ln.name, l)
		}
	}
	w := vg.Points(640)
	if leg.n > 0 {
		w += vg.Points(legendWidth)
	}
	return saveChart(path, p, leg, w, vg.Points(400))
}
