package granular

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Options choose a series' region and the window of its means.
type Options struct {
	Region Region // zero: the free grains' box at each time
	// From and To bound the window of the means and of the force
	// distribution (s); To = 0: to the end.
	From, To float64
	// Surface, when set (x0 < x1), is the span of x over which the
	// free surface is fitted at each output time (FreeSurface).
	Surface [2]float64
}

// surface tells whether the options fit a free surface.
func (o Options) surface() bool { return o.Surface != [2]float64{} }

// in tells whether time t is in the window.
func (o Options) in(t float64) bool { return t >= o.From && (o.To == 0 || t <= o.To) }

// Bins of the force distribution (f_n / <f_n> up to histTop) and of the
// rose of contact normals (over 2 pi).
const (
	histWidth = 0.2
	histTop   = 6.0
	roseBins  = 36
)

// Series is the measures of a run at its output times, and the force
// distribution and normals' rose summed over the window: what granular.csv,
// the summary's mean and the two pictures hold. Its exported fields are
// what a checkpoint keeps.
type Series struct {
	Options  Options
	Rows     []Measures
	Hist     []int // contacts per bin of f_n / <f_n> over the window's times
	Over     int   // past the last bin
	Rose     []int // normal directions per bin of 2 pi / roseBins, both ways
	Contacts int   // force-carrying contacts counted in Hist
	// Surfaces are the free surface's angle and RMS at each output time
	// (Options.Surface; NaN where it could not be fitted), SurfaceError
	// why the first of the window's that could not was not.
	Surfaces     [][2]float64
	SurfaceError string
}

// NewSeries starts a series.
func NewSeries(o Options) *Series {
	return &Series{Options: o, Hist: make([]int, int(math.Round(histTop/histWidth))), Rose: make([]int, roseBins)}
}

// Add measures the sample of one output time (io/results.SampleOf reads
// one from a run's pieces).
func (sr *Series) Add(s Sample) {
	sr.Rows = append(sr.Rows, Measure(s, sr.Options.Region))
	if sr.Options.surface() {
		sf, err := FreeSurface(s, sr.Options.Surface[0], sr.Options.Surface[1])
		if err != nil {
			sf.Angle, sf.RMS = math.NaN(), math.NaN()
			if sr.SurfaceError == "" && sr.Options.in(s.T) {
				sr.SurfaceError = fmt.Sprintf("t = %g s: %v", s.T, err)
			}
		}
		sr.Surfaces = append(sr.Surfaces, [2]float64{sf.Angle, sf.RMS})
	}
	if !sr.Options.in(s.T) {
		return
	}
	d := Forces(s, sr.Options.Region, histWidth, histTop)
	for k, c := range d.Count {
		sr.Hist[k] += c
	}
	sr.Over += d.Over
	sr.Contacts += d.Contacts
	for _, a := range d.Normals {
		sr.Rose[min(int(a/(2*math.Pi)*roseBins), roseBins-1)]++
	}
}

// Means are the measures' means over a window: Measures, its counts
// real numbers (1.5 rattlers on average is not 1).
type Means struct {
	Measures
	Grains, Rattlers, Contacts float64
}

// Mean is the mean of the measures at the output times in the window
// (T: the window's last time), and how many times it took.
func (sr *Series) Mean() (Means, int) {
	var sum []float64
	var m Means
	n := 0
	for _, r := range sr.Rows {
		if !sr.Options.in(r.T) {
			continue
		}
		n++
		m.T = r.T
		v := r.values()
		if sum == nil {
			sum = make([]float64, len(v))
		}
		for k := range v {
			sum[k] += v[k]
		}
	}
	if n == 0 {
		return m, 0
	}
	for k := range sum {
		sum[k] /= float64(n)
	}
	t := m.T
	m.Measures.setValues(sum)
	m.T = t
	m.Grains, m.Rattlers, m.Contacts = sum[0], sum[1], sum[2]
	return m, n
}

// columns are granular.csv's columns after time, with their units.
var columns = []string{"grains", "rattlers", "contacts", "Z", "Z_no_rattlers", "Z_2Nc_Ng", "Z_2Nc_Ng_no_rattlers", "solid_fraction",
	"fabric_xx", "fabric_xy", "fabric_yy", "anisotropy", "fabric_angle [rad]",
	"stress_xx [Pa]", "stress_xy [Pa]", "stress_yx [Pa]", "stress_yy [Pa]", "pressure [Pa]", "deviator [Pa]", "stress_angle [rad]",
	"mean_fn [N/m]", "max_fn_ratio", "mobilised", "sliding", "x0 [m]", "x1 [m]", "y0 [m]", "y1 [m]"}

// values are a row's numbers in the columns' order.
func (m Measures) values() []float64 {
	return []float64{float64(m.Grains), float64(m.Rattlers), float64(m.Contacts), m.Z, m.ZNoRattlers, m.Z2, m.Z2NoRattlers, m.SolidFraction,
		m.Fabric[0], m.Fabric[1], m.Fabric[2], m.Anisotropy, m.FabricAngle,
		m.Stress[0], m.Stress[1], m.Stress[2], m.Stress[3], m.Pressure, m.Deviator, m.StressAngle,
		m.MeanFn, m.MaxFnRatio, m.Mobilised, m.Sliding, m.Region.X0, m.Region.X1, m.Region.Y0, m.Region.Y1}
}

// setValues is values' inverse but for the counts, which a mean keeps as
// real numbers (Means).
func (m *Measures) setValues(v []float64) {
	m.Z, m.ZNoRattlers, m.Z2, m.Z2NoRattlers, m.SolidFraction = v[3], v[4], v[5], v[6], v[7]
	m.Fabric = [3]float64{v[8], v[9], v[10]}
	m.Anisotropy, m.FabricAngle = v[11], v[12]
	m.Stress = [4]float64{v[13], v[14], v[15], v[16]}
	m.Pressure, m.Deviator, m.StressAngle = v[17], v[18], v[19]
	m.MeanFn, m.MaxFnRatio, m.Mobilised, m.Sliding = v[20], v[21], v[22], v[23]
	m.Region = Region{v[24], v[25], v[26], v[27]}
}

// WriteCSV writes granular.csv: a row per output time, with the free
// surface's angle and RMS where the options fit one.
func (sr *Series) WriteCSV(w io.Writer) error {
	var b strings.Builder
	b.WriteString("time [s]," + strings.Join(columns, ","))
	if sr.Options.surface() {
		b.WriteString(",surface_angle [deg],surface_rms [m]")
	}
	b.WriteByte('\n')
	for k, r := range sr.Rows {
		b.WriteString(strconv.FormatFloat(r.T, 'g', 9, 64))
		v := r.values()
		if sr.Options.surface() && k < len(sr.Surfaces) {
			v = append(v, sr.Surfaces[k][0], sr.Surfaces[k][1])
		}
		for _, v := range v {
			if v == 0 {
				v = 0 // not -0: a checkpoint (gob) keeps no sign of a zero, and a resumed run's rows must read the same
			}
			b.WriteByte(',')
			b.WriteString(strconv.FormatFloat(v, 'g', 12, 64))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Empty is a warning when no output time in the window found a grain in
// the region (its rows are zeros), "" otherwise.
func (sr *Series) Empty() string {
	for _, m := range sr.Rows {
		if sr.Options.in(m.T) && m.Grains > 0 {
			return ""
		}
	}
	return fmt.Sprintf("granular: no free grain in the region x %g..%g, y %g..%g at any output time of the window: the rows are zeros; give a region that holds grains (the default is the free grains' box)", sr.Options.Region.X0, sr.Options.Region.X1, sr.Options.Region.Y0, sr.Options.Region.Y1)
}

// Summary is the summary's line of the means over the window.
func (sr *Series) Summary() string {
	m, n := sr.Mean()
	if n == 0 {
		return "granular: no output time in the window"
	}
	line := fmt.Sprintf("granular (mean of %d output times from t = %g s): %.1f grains, %.3g rattlers, Z %.4g (%.4g without rattlers; 2 N_c / N_g %.4g, %.4g), solid fraction %.4g, fabric anisotropy %.3g at %.1f deg, pressure %.4g Pa, deviator %.4g Pa, <f_n> %.4g N/m, mobilised friction %.3g, %.3g sliding",
		n, sr.Options.From, m.Grains, m.Rattlers, m.Z, m.ZNoRattlers, m.Z2, m.Z2NoRattlers, m.SolidFraction, m.Anisotropy, m.FabricAngle*180/math.Pi,
		m.Pressure, m.Deviator, m.MeanFn, m.Mobilised, m.Sliding)
	if sr.Options.surface() {
		angle, rms := sr.SurfaceMean()
		if math.IsNaN(angle) {
			line += fmt.Sprintf("; free surface over x %g..%g m: none in the window (at %s)", sr.Options.Surface[0], sr.Options.Surface[1], sr.SurfaceError)
		} else {
			line += fmt.Sprintf("; free surface over x %g..%g m at %.3g deg (%.3g m RMS about its line)", sr.Options.Surface[0], sr.Options.Surface[1], angle, rms)
		}
	}
	return line
}

// SurfaceMean is the free surface's mean angle (degrees) and RMS (m) over
// the window's output times: NaN without a surface (Options.Surface) or
// where a time's surface had too few bins.
func (sr *Series) SurfaceMean() (angle, rms float64) {
	if !sr.Options.surface() {
		return math.NaN(), math.NaN()
	}
	n := 0
	for k, r := range sr.Rows {
		if k < len(sr.Surfaces) && sr.Options.in(r.T) {
			angle, rms, n = angle+sr.Surfaces[k][0], rms+sr.Surfaces[k][1], n+1
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	return angle / float64(n), rms / float64(n)
}

// Density is the force distribution summed over the window: the
// probability density of f_n / <f_n> per bin of width Width.
func (sr *Series) Density() (width float64, density []float64) {
	density = make([]float64, len(sr.Hist))
	if sr.Contacts == 0 {
		return histWidth, density
	}
	for k, c := range sr.Hist {
		density[k] = float64(c) / (float64(sr.Contacts) * histWidth)
	}
	return histWidth, density
}

// RoseShares is the share of the normals' directions in each of the rose's
// bins (both directions of a normal counted).
func (sr *Series) RoseShares() []float64 {
	out := make([]float64, len(sr.Rose))
	total := 0
	for _, c := range sr.Rose {
		total += c
	}
	if total == 0 {
		return out
	}
	for k, c := range sr.Rose {
		out[k] = float64(c) / float64(total)
	}
	return out
}
