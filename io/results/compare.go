package results

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Series is one column of a run's history.csv against time.
type Series struct {
	Label string
	Unit  string // from the column's header: "J" of "kinetic [J]"
	T, Y  []float64
}

// ReadColumn reads a column of a history.csv (the file path) against its
// time column; an unknown column is an error listing the file's columns.
func ReadColumn(path, column string) (Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return Series{}, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return Series{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) < 2 {
		return Series{}, fmt.Errorf("%s: no steps", path)
	}
	ti, ci := ColumnIndex(rows[0], "time"), ColumnIndex(rows[0], column)
	if ti < 0 || ci < 0 {
		return Series{}, fmt.Errorf("%s: no column %q (columns: %v)", path, column, rows[0])
	}
	s := Series{Label: path, Unit: columnUnit(rows[0][ci])}
	for k, r := range rows[1:] {
		t, err1 := strconv.ParseFloat(r[ti], 64)
		y, err2 := strconv.ParseFloat(r[ci], 64)
		if err1 != nil || err2 != nil {
			return Series{}, fmt.Errorf("%s: line %d: time %q, %s %q: expected numbers", path, k+2, r[ti], column, r[ci])
		}
		s.T, s.Y = append(s.T, t), append(s.Y, y)
	}
	return s, nil
}

// ComparePlot draws series of one quantity (ylabel) against time, one line
// each, into a PNG.
func ComparePlot(path, title, ylabel string, series []Series) error {
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
