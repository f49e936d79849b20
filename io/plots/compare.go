package plots

import (
	"gonum.org/v1/plot/plotter"

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
	return lineChart(path, title, xlabel, ylabel, lines)
}
