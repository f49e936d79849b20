package results

import (
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/rigid"
)

// Profile asks for the velocity profile of a granular flow: the mean x
// velocity of the free rigid bodies whose centre lies in each of Strips
// strips of equal height between Bottom and Top, over the steps from From
// on ([M04] section 3.2, 12 strips parallel to the ground).
type Profile struct {
	Strips      int
	Bottom, Top float64
	From        float64
}

// profile accumulates a Profile.
type profile struct {
	Profile
	sum   []float64
	count []int
	steps int
}

func (p *profile) record(sys *rigid.System, t float64) {
	if p == nil || sys == nil || t < p.From {
		return
	}
	if p.sum == nil {
		p.sum, p.count = make([]float64, p.Strips), make([]int, p.Strips)
	}
	dy := (p.Top - p.Bottom) / float64(p.Strips)
	for _, b := range sys.Bodies {
		if b.Driven() {
			continue
		}
		k := int(math.Floor((b.Q[1] - p.Bottom) / dy))
		if k >= 0 && k < p.Strips {
			p.sum[k] += b.V[0]
			p.count[k]++
		}
	}
	p.steps++
}

// mean returns the strips' mid heights and mean velocities (NaN where no
// body passed).
func (p *profile) mean() (y, v []float64) {
	dy := (p.Top - p.Bottom) / float64(p.Strips)
	for k := range p.Strips {
		y = append(y, p.Bottom+(float64(k)+0.5)*dy)
		m := math.NaN()
		if p.count != nil && p.count[k] > 0 {
			m = p.sum[k] / float64(p.count[k])
		}
		v = append(v, m)
	}
	return y, v
}

// write writes profile.csv and profile.png in dir.
func (p *profile) write(dir string) error {
	if p == nil {
		return nil
	}
	y, v := p.mean()
	err := atomicfile.Write(dir+string(os.PathSeparator)+"profile.csv", func(w io.Writer) error {
		fmt.Fprintf(w, "strip,y,vx,samples\n")
		for k := range y {
			n := 0
			if p.count != nil {
				n = p.count[k]
			}
			fmt.Fprintf(w, "%d,%.6g,%.6g,%d\n", k+1, y[k], v[k], n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("velocity profile, mean over %d steps from t = %g s", p.steps, p.From)
	pl.X.Label.Text, pl.Y.Label.Text = "vx (m/s)", "y (m)"
	var xy plotter.XYs
	for k := range y {
		if !math.IsNaN(v[k]) {
			xy = append(xy, plotter.XY{X: v[k], Y: y[k]})
		}
	}
	if len(xy) > 0 {
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotColor(0), plotColor(0)
		pl.Add(l, s)
	}
	return savePNG(dir+string(os.PathSeparator)+"profile.png", [][]*plot.Plot{{pl}}, vg.Points(400), vg.Points(400))
}
