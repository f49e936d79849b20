package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ForceDensity draws the probability density of f_n / <f_n> (bins of width) on
// a log scale, where an exponential tail is a straight line, with the
// exponential of mean 1, exp(-x), for reference.
func ForceDensity(path string, width float64, density []float64) error {
	p := newPlot("normal contact forces", "f_n / <f_n>", "probability density")
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	var xy plotter.XYs
	for k, d := range density {
		if d > 0 {
			xy = append(xy, plotter.XY{X: (float64(k) + 0.5) * width, Y: d})
		}
	}
	leg := newLegend()
	if len(xy) > 0 {
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotColor(1), plotColor(1)
		p.Add(l, s)
		leg.add("contacts", l, s)
	}
	var ref plotter.XYs
	for x := 0.0; x <= width*float64(len(density)); x += width / 4 {
		ref = append(ref, plotter.XY{X: x, Y: math.Exp(-x)})
	}
	l, err := plotter.NewLine(ref)
	if err != nil {
		return err
	}
	l.Color, l.Dashes = color.Black, []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	leg.add("exp(-x)", l)
	return saveChart(path, p, leg, vg.Points(480+legendWidth), vg.Points(400))
}

// Fabric draws the rose of the contact normals: the share of each
// direction bin as a radius, against the circle of an isotropic sample.
func Fabric(path string, shares []float64) error {
	p := newPlot("contact normals (rose)", "", "")
	n := len(shares)
	rose := make(plotter.XYs, 0, n+1)
	var top float64
	for k := 0; k <= n; k++ {
		a := (float64(k%n) + 0.5) * 2 * math.Pi / float64(n)
		r := shares[k%n]
		top = math.Max(top, r)
		rose = append(rose, plotter.XY{X: r * math.Cos(a), Y: r * math.Sin(a)})
	}
	circle := make(plotter.XYs, 0, 73)
	for k := 0; k <= 72; k++ {
		a := float64(k) * 2 * math.Pi / 72
		circle = append(circle, plotter.XY{X: math.Cos(a) / float64(n), Y: math.Sin(a) / float64(n)})
	}
	leg := newLegend()
	for _, c := range []struct {
		name string
		xy   plotter.XYs
		col  color.Color
	}{{"isotropic", circle, color.Gray{Y: 140}}, {"contacts", rose, plotColor(1)}} {
		l, err := plotter.NewLine(c.xy)
		if err != nil {
			return err
		}
		l.Color, l.Width = c.col, vg.Points(1.5)
		p.Add(l)
		leg.add(c.name, l)
	}
	r := 1.1 * math.Max(top, 1/float64(max(n, 1)))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -r, r, -r, r
	p.X.Label.Text, p.Y.Label.Text = "share along x", "share along y"
	return saveChart(path, p, leg, vg.Points(420+legendWidth), vg.Points(420))
}
