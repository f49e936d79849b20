package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fecontact/fecontact/rigid"
)

// ForcePanel is one panel of a contact's forces in the (R_T, R_N) plane:
// sampled solutions (dots), the exact admissible set (a polygon, a
// segment or a point) and, for a grain on two supports, the segment its
// own equilibrium allows.
type ForcePanel struct {
	Title      string
	Dots       [][2]float64
	Admissible [][2]float64
	Predicted  [][2]float64
	// Their legends; empty: "N solutions" and "exact set (LP)".
	DotsLabel, AdmissibleLabel string
}

// ForcePlane draws panels side by side on the same scales.
func ForcePlane(path, title string, panels []ForcePanel) error {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	grow := func(pts [][2]float64) {
		for _, p := range pts {
			for k := range 2 {
				lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
			}
		}
	}
	for _, p := range panels {
		grow(p.Dots)
		grow(p.Admissible)
		grow(p.Predicted)
	}
	pad := 0.05 * math.Max(math.Max(hi[0]-lo[0], hi[1]-lo[1]), 1e-9*math.Max(math.Abs(hi[1]), 1))
	row := make([]*plot.Plot, len(panels))
	for k, pn := range panels {
		p := newPlot(title+": "+pn.Title, "R_T (N/m)", "R_N (N/m)")
		if len(pn.Predicted) > 0 {
			if err := addOutline(p, pn.Predicted, false, color.RGBA{44, 160, 44, 255}, 4, "two supports"); err != nil {
				return err
			}
		}
		if len(pn.Admissible) > 0 {
			if err := addOutline(p, pn.Admissible, true, color.RGBA{214, 39, 40, 255}, 1.2, cmp.Or(pn.AdmissibleLabel, "exact set (LP)")); err != nil {
				return err
			}
		}
		xy := make(plotter.XYs, len(pn.Dots))
		for i, d := range pn.Dots {
			xy[i] = plotter.XY{X: d[0], Y: d[1]}
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(1), Shape: draw.CircleGlyph{}}
		p.Add(s)
		p.Legend.Add(cmp.Or(pn.DotsLabel, fmt.Sprintf("%d solutions", len(pn.Dots))), s)
		p.Legend.Top = true
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo[0]-pad, hi[0]+pad, lo[1]-pad, hi[1]+pad
		row[k] = p
	}
	return savePNG(path, [][]*plot.Plot{row}, vg.Length(len(panels))*vg.Points(360), vg.Points(360))
}

func addOutline(p *plot.Plot, pts [][2]float64, closed bool, c color.Color, width float64, name string) error {
	n := len(pts)
	if closed && n > 2 {
		n++
	}
	xy := make(plotter.XYs, n)
	for i := range xy {
		q := pts[i%len(pts)]
		xy[i] = plotter.XY{X: q[0], Y: q[1]}
	}
	if len(pts) == 1 { // a point: a ring, which a line of no length would not show
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
		p.Add(sc)
		p.Legend.Add(name, sc)
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color, l.Width = c, vg.Points(width)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// Force is a contact force to draw: at X, the force F (N/m).
type Force struct{ X, F [2]float64 }

// Forces draws the rigid bodies and the contact forces as segments
// from their points, of length proportional to their size (the largest
// spans a tenth of the picture).
func Forces(path, title string, sys *rigid.System, forces []Force) error {
	p := newPlot(title, "x (m)", "y (m)")
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, b := range sys.Bodies {
		o := rigid.Outline(b)
		if !b.Driven() {
			for _, x := range o {
				for k := range 2 {
					lo[k], hi[k] = math.Min(lo[k], x[k]), math.Max(hi[k], x[k])
				}
			}
		}
		xy := make(plotter.XYs, len(o)+1)
		for k := range xy {
			xy[k] = plotter.XY{X: o[k%len(o)][0], Y: o[k%len(o)][1]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color, l.Width = color.Gray{Y: 140}, vg.Points(0.6)
		p.Add(l)
	}
	span := math.Max(hi[0]-lo[0], hi[1]-lo[1])
	var big float64
	for _, f := range forces {
		big = math.Max(big, math.Hypot(f.F[0], f.F[1]))
	}
	for _, f := range forces {
		s := 0.1 * span / math.Max(big, 1e-300)
		xy := plotter.XYs{{X: f.X[0], Y: f.X[1]}, {X: f.X[0] + s*f.F[0], Y: f.X[1] + s*f.F[1]}}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color, l.Width = color.RGBA{214, 39, 40, 255}, vg.Points(1.5)
		p.Add(l)
	}
	pad := 0.05 * span
	c := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = c[0]-span/2-pad, c[0]+span/2+pad, c[1]-span/2-pad, c[1]+span/2+pad
	return savePNG(path, [][]*plot.Plot{{p}}, vg.Points(520), vg.Points(520))
}
