package plots

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// The house style of the pictures: numbers for people (an SI prefix on
// the unit, so that ticks read 0, 5, 10, not 5000000.00), five to eight
// labelled ticks an axis, and legends beside the data, never on it.

// siPrefixes are the prefixes si chooses from, by power of 1000.
var siPrefixes = map[int]string{-4: "p", -3: "n", -2: "µ", -1: "m", 0: "", 1: "k", 2: "M", 3: "G", 4: "T"}

// si returns the factor that brings values of magnitude up to largest
// into [1, 1000) and its SI prefix (1 and "" for 0 or beyond the table).
func si(largest float64) (factor float64, prefix string) {
	if !(largest > 0) || math.IsInf(largest, 0) {
		return 1, ""
	}
	k := int(math.Floor(math.Log10(largest) / 3))
	p, ok := siPrefixes[k]
	if !ok {
		return 1, ""
	}
	return math.Pow(1000, -float64(k)), p
}

// unitLabel is "name (prefix unit)", or name alone without a unit.
func unitLabel(name, prefix, unit string) string {
	if unit == "" {
		return name
	}
	return name + " (" + prefix + unit + ")"
}

// largestAbs is the largest magnitude among the values (0 for none).
func largestAbs(values ...[]float64) float64 {
	var m float64
	for _, vs := range values {
		for _, v := range vs {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				m = math.Max(m, math.Abs(v))
			}
		}
	}
	return m
}

// niceTicks labels five to nine round values of an axis (steps of 1, 2,
// 2.5 or 5 times a power of ten) with as many decimals as the step needs,
// and puts four or five unlabelled ticks between them.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step, minor := niceStep(hi - lo)
	decimals := 0 // as many as the step has: 0.25 two, 25 none
	for d := step; decimals < 12 && math.Abs(d-math.Round(d)) > 1e-6*d; d *= 10 {
		decimals++
	}
	var ticks []plot.Tick
	sub := step / float64(minor)
	first := math.Ceil(lo/sub-1e-9) * sub
	for i := 0; ; i++ {
		v := first + float64(i)*sub
		if v > hi+sub*1e-9 || i > 10000 {
			break
		}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			ticks = append(ticks, plot.Tick{Value: v, Label: number(v, decimals)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// niceStep is the largest round step (1, 2, 2.5 or 5 times a power of
// ten) that cuts span into four intervals or more, and the number of minor
// intervals that divide it.
func niceStep(span float64) (step float64, minor int) {
	p := math.Pow(10, math.Floor(math.Log10(span/4))+1)
	for p > 0 {
		for _, m := range []struct {
			f     float64
			minor int
		}{{5, 5}, {2.5, 5}, {2, 4}, {1, 5}} {
			if s := m.f * p; span/s >= 4*(1-1e-9) {
				return s, m.minor
			}
		}
		p /= 10
	}
	return span / 4, 1
}

// number writes v with the decimals given, without a minus on zero.
func number(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// newPlot is a plot in the house style: its title and axis labels, the
// nice ticks on both axes.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	return p
}

// legendWidth is the strip beside a chart that its legend takes.
const legendWidth = 150

// timeAxis is the unit a picture writes times in: ms below 2 s of data,
// s beyond (one unit in a picture, its titles included).
type timeAxis struct {
	factor float64
	unit   string
}

func timeAxisFor(last float64) timeAxis {
	switch {
	case last < 2e-3:
		return timeAxis{1e6, "µs"}
	case last < 2:
		return timeAxis{1e3, "ms"}
	}
	return timeAxis{1, "s"}
}

// label writes t in the axis's unit.
func (a timeAxis) label(t float64) string {
	return strconv.FormatFloat(a.factor*t, 'g', 4, 64) + " " + a.unit
}

// legend is a legend drawn beside its chart (saveChart), which knows
// whether it has entries.
type legend struct {
	plot.Legend
	n int
}

func newLegend() *legend { return &legend{Legend: plot.NewLegend()} }

// add adds an entry.
func (l *legend) add(name string, th ...plot.Thumbnailer) {
	l.Add(name, th...)
	l.n++
}
