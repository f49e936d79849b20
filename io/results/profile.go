package results

import (
	"fmt"
	"io"
	"math"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/rigid"
)

// Profile asks for the velocity profile of a granular flow: the mean x
// velocity of the free rigid bodies whose centre lies in each of Strips
// strips of equal height between Bottom and Top, over the steps from From
// on ([M04] section 3.2, 12 strips parallel to the ground). With a Window,
// the mean over each window of that length from From on is given too:
// the flow is steady when they agree.
type Profile struct {
	Strips      int
	Bottom, Top float64
	From        float64
	Window      float64 // s; 0: the whole run from From only
}

// profile accumulates a Profile: window 0 is the whole run from From,
// window k >= 1 the k-th of length Window.
type profile struct {
	Profile
	sums []strips
}

// strips is one window's sums.
type strips struct {
	sum   []float64
	count []int
	steps int
}

func (p *profile) record(sys *rigid.System, t float64) {
	if p == nil || sys == nil || t < p.From {
		return
	}
	into := []int{0}
	if p.Window > 0 {
		// The step ending at From + k Window is the last of window k.
		into = append(into, max(1, int(math.Ceil((t-p.From)/p.Window-1e-9))))
	}
	for len(p.sums) <= into[len(into)-1] {
		p.sums = append(p.sums, strips{sum: make([]float64, p.Strips), count: make([]int, p.Strips)})
	}
	dy := (p.Top - p.Bottom) / float64(p.Strips)
	for _, w := range into {
		s := &p.sums[w]
		s.steps++
		for _, b := range sys.Bodies {
			k := int(math.Floor((b.Q[1] - p.Bottom) / dy))
			if !b.Driven() && k >= 0 && k < p.Strips {
				s.sum[k] += b.V[0]
				s.count[k]++
			}
		}
	}
}

// mean returns the strips' mid heights and mean velocities over window w
// (NaN where no body passed).
func (p *profile) mean(w int) (y, v []float64) {
	dy := (p.Top - p.Bottom) / float64(p.Strips)
	for k := range p.Strips {
		y = append(y, p.Bottom+(float64(k)+0.5)*dy)
		m := math.NaN()
		if w < len(p.sums) && p.sums[w].count[k] > 0 {
			m = p.sums[w].sum[k] / float64(p.sums[w].count[k])
		}
		v = append(v, m)
	}
	return y, v
}

// label names window w: its time span.
func (p *profile) label(w int) string {
	if w == 0 {
		return fmt.Sprintf("from %.4g s", p.From)
	}
	// %.4g: 0.15000000000000002 as 0.15
	return fmt.Sprintf("%.4g-%.4g s", p.From+float64(w-1)*p.Window, p.From+float64(w)*p.Window)
}

// write writes profile.csv and profile.png in the folder: the mean over
// the run from From, then over each window.
func (p *profile) write(files *outdir.Folder, painter Painter) error {
	if p == nil {
		return nil
	}
	y, _ := p.mean(0)
	csvPath, err := files.Path("profile.csv")
	if err != nil {
		return err
	}
	err = atomicfile.Write(csvPath, func(w io.Writer) error {
		fmt.Fprint(w, "strip")
		writeColumns(w, "y", "m", "vx", "m/s", "samples", "")
		for k := 1; k < len(p.sums); k++ {
			writeColumns(w, "vx "+p.label(k), "m/s")
		}
		fmt.Fprintln(w)
		means := make([][]float64, len(p.sums))
		for k := range means {
			_, means[k] = p.mean(k)
		}
		for i := range y {
			n := 0
			if len(p.sums) > 0 {
				n = p.sums[0].count[i]
			}
			fmt.Fprintf(w, "%d,%.6g,%.6g,%d", i+1, y[i], nanOr(means, 0, i), n)
			for k := 1; k < len(means); k++ {
				fmt.Fprintf(w, ",%.6g", means[k][i])
			}
			fmt.Fprintln(w)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if painter == nil {
		return nil
	}
	png, err := files.Path("profile.png")
	if err != nil {
		return err
	}
	return drawn("profile.png", painter.Profile(png, p.curves()))
}

// nanOr is means[k][i], or NaN when nothing was recorded.
func nanOr(means [][]float64, k, i int) float64 {
	if k < len(means) {
		return means[k][i]
	}
	return math.NaN()
}

// ProfileCurves is what profile.png draws: the mean velocity profile of
// the whole run from From and of each window.
type ProfileCurves struct {
	Title  string
	Curves []ProfileCurve // the whole run's first
}

// ProfileCurve is one mean profile: the strips' heights Y (m) and mean x
// velocities V (m/s; NaN where no body was).
type ProfileCurve struct {
	Label string
	Y, V  []float64
}

// curves are the profile's means, for a Painter.
func (p *profile) curves() ProfileCurves {
	steps := 0
	if len(p.sums) > 0 {
		steps = p.sums[0].steps
	}
	c := ProfileCurves{Title: fmt.Sprintf("velocity profile, mean over %d steps from t = %g s", steps, p.From)}
	for w := range p.sums {
		y, v := p.mean(w)
		c.Curves = append(c.Curves, ProfileCurve{Label: p.label(w), Y: y, V: v})
	}
	return c
}
