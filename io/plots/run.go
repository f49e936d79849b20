package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/mesh"
)

// sides lists the segments to draw for a mesh: every cell side of a small
// mesh (quadratic sides as two segments through the mid-side node), only
// the boundary of a large one.
func sides(m *mesh.Mesh) [][]int {
	var out [][]int
	seen := map[[2]int]bool{}
	add := func(e mesh.Edge) {
		k := [2]int{min(e.Nodes[0], e.Nodes[1]), max(e.Nodes[0], e.Nodes[1])}
		if seen[k] {
			return
		}
		seen[k] = true
		if len(e.Nodes) == 3 {
			out = append(out, []int{e.Nodes[0], e.Nodes[2], e.Nodes[1]})
		} else {
			out = append(out, e.Nodes)
		}
	}
	if len(m.Cells) > 2000 {
		for _, e := range m.BoundaryEdges() {
			add(e)
		}
		return out
	}
	for c, cell := range m.Cells {
		for s := 0; s < cell.Kind.NumCorners(); s++ {
			loc := cell.Kind.SideNodes(s)
			nodes := make([]int, len(loc))
			for i, l := range loc {
				nodes[i] = m.Cells[c].Nodes[l]
			}
			add(mesh.Edge{Nodes: nodes})
		}
	}
	return out
}

var bodyColors = []color.Color{color.RGBA{31, 119, 180, 255}, color.RGBA{214, 39, 40, 255}, color.RGBA{44, 160, 44, 255}, color.RGBA{148, 103, 189, 255}}

// Bodies draws the deformed bodies at each snapshot time, side by side,
// all panels on the same scale.
func Bodies(path string, snaps []results.Snapshot) error {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, s := range snaps {
		for _, p := range s.Pos {
			for _, x := range p {
				lo[0], lo[1] = math.Min(lo[0], x[0]), math.Min(lo[1], x[1])
				hi[0], hi[1] = math.Max(hi[0], x[0]), math.Max(hi[1], x[1])
			}
		}
		for k, p := range s.Rigid {
			if s.Driven[k] {
				continue // a ground: drawn, cut at the panel's edge
			}
			for _, x := range p {
				lo[0], lo[1] = math.Min(lo[0], x[0]), math.Min(lo[1], x[1])
				hi[0], hi[1] = math.Max(hi[0], x[0]), math.Max(hi[1], x[1])
			}
		}
		for _, x := range s.Masses {
			lo[0], lo[1] = math.Min(lo[0], x[0]), math.Min(lo[1], x[1])
			hi[0], hi[1] = math.Max(hi[0], x[0]), math.Max(hi[1], x[1])
		}
	}
	if math.IsInf(lo[0], 1) { // only driven bodies: frame them
		for _, s := range snaps {
			for _, p := range s.Rigid {
				for _, x := range p {
					lo[0], lo[1] = math.Min(lo[0], x[0]), math.Min(lo[1], x[1])
					hi[0], hi[1] = math.Max(hi[0], x[0]), math.Max(hi[1], x[1])
				}
			}
		}
	}
	// Square panels with equal scales: the same span on both axes.
	span := 1.05 * math.Max(hi[0]-lo[0], hi[1]-lo[1])
	cx, cy := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	row := make([]*plot.Plot, len(snaps))
	for k, s := range snaps {
		p := plot.New()
		p.Title.Text = "t = " + timeLabel(s.T)
		p.X.Label.Text, p.Y.Label.Text = "x (m)", "y (m)"
		for b, m := range s.Meshes {
			for _, seg := range sides(m) {
				pts := make(plotter.XYs, len(seg))
				for i, n := range seg {
					pts[i] = plotter.XY{X: s.Pos[b][n][0], Y: s.Pos[b][n][1]}
				}
				l, err := plotter.NewLine(pts)
				if err != nil {
					return err
				}
				l.Color = bodyColors[b%len(bodyColors)]
				l.Width = vg.Points(0.5)
				p.Add(l)
			}
		}
		for b, o := range s.Rigid {
			pts := make(plotter.XYs, len(o)+1)
			for i := range pts {
				x := o[i%len(o)]
				pts[i] = plotter.XY{X: x[0], Y: x[1]}
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = bodyColors[(len(s.Meshes)+b)%len(bodyColors)]
			l.Width = vg.Points(0.5)
			p.Add(l)
		}
		for _, o := range s.Obstacles { // grey, cut at the panel's edge like a ground
			pts := make(plotter.XYs, len(o))
			for i, x := range o {
				pts[i] = plotter.XY{X: x[0], Y: x[1]}
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = color.Gray{Y: 96}
			l.Width = vg.Points(1)
			p.Add(l)
		}
		if err := addPoints(p, s); err != nil {
			return err
		}
		// After Add, which widens the axes to the data (a ground's).
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = cx-span/2, cx+span/2, cy-span/2, cy+span/2
		row[k] = p
	}
	return savePNG(path, [][]*plot.Plot{row}, vg.Length(len(snaps))*vg.Points(300), vg.Points(320))
}

// addPoints draws a snapshot's springs as thin black lines and its point
// masses as dots.
func addPoints(p *plot.Plot, s results.Snapshot) error {
	for _, sp := range s.Springs {
		l, err := plotter.NewLine(plotter.XYs{{X: sp[0][0], Y: sp[0][1]}, {X: sp[1][0], Y: sp[1][1]}})
		if err != nil {
			return err
		}
		l.Width = vg.Points(0.5)
		p.Add(l)
	}
	if len(s.Masses) == 0 {
		return nil
	}
	pts := make(plotter.XYs, len(s.Masses))
	for i, x := range s.Masses {
		pts[i] = plotter.XY{X: x[0], Y: x[1]}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.Color = bodyColors[1]
	sc.Radius = vg.Points(2.5)
	p.Add(sc)
	return nil
}

// timeLabel writes a time in ms below a second, in s above.
func timeLabel(t float64) string {
	if t >= 1 {
		return fmt.Sprintf("%.4g s", t)
	}
	return fmt.Sprintf("%.3g ms", 1e3*t)
}

// Gaps draws the distances between the pairs of rigid bodies against
// time.
func Gaps(path string, names []string, pts []results.EnergyPoint) error {
	lines := make([]line, len(names))
	for k, name := range names {
		lines[k] = line{name: name, xy: make(plotter.XYs, len(pts))}
		for i, e := range pts {
			lines[k].xy[i] = plotter.XY{X: e.T, Y: 1e3 * e.Gaps[k]}
		}
	}
	return lineChart(path, "gaps between rigid bodies", "t (s)", "mm", lines)
}

// Energy draws the energy history.
func Energy(path string, pts []results.EnergyPoint) error {
	series := []struct {
		name string
		f    func(e results.EnergyPoint) float64
	}{
		{"kinetic", func(e results.EnergyPoint) float64 { return e.E.Kinetic }},
		{"elastic", func(e results.EnergyPoint) float64 { return e.E.Elastic }},
		{"kinetic + elastic", func(e results.EnergyPoint) float64 { return e.E.Kinetic + e.E.Elastic }},
		{"friction loss", func(e results.EnergyPoint) float64 { return -e.Works[1] }},
		{"contact-law loss", func(e results.EnergyPoint) float64 { return -e.Works[0] }},
		{"numerical + damping loss", func(e results.EnergyPoint) float64 { return e.E.Numerical + e.E.Damping }},
	}
	lines := make([]line, len(series))
	for k, sr := range series {
		lines[k] = line{name: sr.name, xy: make(plotter.XYs, len(pts))}
		for i, e := range pts {
			lines[k].xy[i] = plotter.XY{X: 1e3 * e.T, Y: sr.f(e)}
		}
	}
	return lineChart(path, "energy", "t (ms)", "J", lines)
}

// line is one named curve of a lineChart.
type line struct {
	name string
	xy   plotter.XYs
}

// lineChart draws curves against one axis, a colour and a legend entry
// each, 640 x 400 points.
func lineChart(path, title, xlabel, ylabel string, lines []line) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	for k, ln := range lines {
		l, err := plotter.NewLine(ln.xy)
		if err != nil {
			return err
		}
		l.Color = plotColor(k)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(ln.name, l)
	}
	p.Legend.Top = true
	return savePNG(path, [][]*plot.Plot{{p}}, vg.Points(640), vg.Points(400))
}

func plotColor(k int) color.Color {
	palette := []color.Color{color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{0, 0, 0, 255},
		color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255}}
	return palette[k%len(palette)]
}

// drawable refuses axes the plotting library cannot lay out: a range
// whose span overflows (values of 1e308 and -1e308 sent its tick search
// into an endless loop) or is not a number.
func drawable(p *plot.Plot) error {
	for _, ax := range []struct {
		name     string
		min, max float64
	}{{p.X.Label.Text, p.X.Min, p.X.Max}, {p.Y.Label.Text, p.Y.Min, p.Y.Max}} {
		if span := ax.max - ax.min; math.IsNaN(span) || math.IsInf(span, 0) || math.Abs(ax.min) > maxAxis || math.Abs(ax.max) > maxAxis {
			return fmt.Errorf("axis %q: values from %g to %g, a range no picture can lay out (within %g): the data are not numbers or have overflowed", ax.name, ax.min, ax.max, maxAxis)
		}
	}
	return nil
}

// maxAxis bounds the values an axis takes: far beyond any physical
// quantity, far enough below overflow for the tick search.
const maxAxis = 1e200

// savePNG lays plots out in a grid and writes a PNG atomically.
func savePNG(path string, plots [][]*plot.Plot, w, h vg.Length) error {
	for _, row := range plots {
		for _, p := range row {
			if err := drawable(p); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Points(10), PadY: vg.Points(10),
		PadTop: vg.Points(5), PadBottom: vg.Points(5), PadLeft: vg.Points(5), PadRight: vg.Points(5)}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j, p := range plots[i] {
			p.Draw(canvases[i][j])
		}
	}
	// Through atomicfile: a hidden, unique temporary, removed on error
	// (PATH.tmp was neither, and stayed behind an interrupted run).
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
		return err
	})
}
