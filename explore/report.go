package explore

import (
	"math"
	"slices"

	"github.com/fecontact/fecontact/signorini"
)

// Spread is the extent of contact c's force over the solutions: the
// spans of R_N and R_T (N/m).
func Spread(sols []Solution, c int) [2]float64 {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, sol := range sols {
		for k := range 2 {
			lo[k], hi[k] = math.Min(lo[k], sol.R[c][k]), math.Max(hi[k], sol.R[c][k])
		}
	}
	return [2]float64{hi[0] - lo[0], hi[1] - lo[1]}
}

// Fan is what a moving survey's runs say of its contacts ([M04] section
// 3.2: a sliding contact's force is determined, a sticking one's is not):
// the spreads of the forces (the norm of Spread) of the contacts that
// slide in every run and of those that stick in every run, sorted.
type Fan struct {
	Sliding, Sticking []float64
}

// FanOf sorts the contacts of the solutions of n contacts by what every
// run found of them.
func FanOf(sols []Solution, n int) Fan {
	var f Fan
	for c := range n {
		sliding, sticking := true, true
		for _, sol := range sols {
			sliding = sliding && (sol.Status[c] == signorini.SlideForward || sol.Status[c] == signorini.SlideBackward)
			sticking = sticking && sol.Status[c] == signorini.Stick
		}
		sp := Spread(sols, c)
		switch {
		case sliding:
			f.Sliding = append(f.Sliding, math.Hypot(sp[0], sp[1]))
		case sticking:
			f.Sticking = append(f.Sticking, math.Hypot(sp[0], sp[1]))
		}
	}
	slices.Sort(f.Sliding)
	slices.Sort(f.Sticking)
	return f
}

// Median is the middle of sorted spreads (NaN for none).
func Median(sorted []float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return sorted[len(sorted)/2]
}

// SetCoverage is how one modality's solutions cover the exact admissible
// sets of some contacts.
type SetCoverage struct {
	Mean          float64 // mean fraction of a set's area the dots' hull covers, over the indeterminate contacts
	Indeterminate int     // contacts whose set is a segment or a polygon
	Outside       int     // dots farther than Tol from their set: none may be
	Farthest      float64 // N/m
	Tol           float64 // N/m: 1e-4 of the weight
}

// CoverageOf measures how the solutions' forces at contacts exact cover
// their exact admissible sets polys (Admissible).
func (s *Survey) CoverageOf(exact []int, polys map[int][][2]float64, sols []Solution) SetCoverage {
	cov := SetCoverage{Tol: 1e-4 * s.Weight()}
	var sum float64
	for _, c := range exact {
		p := polys[c]
		dots := make([][2]float64, len(sols))
		for i, sol := range sols {
			dots[i] = [2]float64{sol.R[c][1], sol.R[c][0]}
		}
		frac, out, far := Coverage(p, dots, cov.Tol)
		cov.Outside += out
		cov.Farthest = math.Max(cov.Farthest, far)
		if len(p) >= 2 {
			sum += frac
			cov.Indeterminate++
		}
	}
	cov.Mean = sum / math.Max(float64(cov.Indeterminate), 1)
	return cov
}

// Widest returns up to k of the n contacts whose sampled forces spread
// over the largest areas, widest first, leaving out those in skip.
func Widest(sols [][]Solution, n, k int, skip []int) []int {
	area := make([]float64, n)
	for c := range area {
		var dots [][2]float64
		for _, ss := range sols {
			for _, sol := range ss {
				dots = append(dots, [2]float64{sol.R[c][1], sol.R[c][0]})
			}
		}
		if h := Hull(dots, 0); len(h) >= 3 {
			area[c] = Area(h)
		}
	}
	var out []int
	for range k {
		best := -1
		for c, a := range area {
			if a > 0 && !slices.Contains(skip, c) && !slices.Contains(out, c) && (best < 0 || a > area[best]) {
				best = c
			}
		}
		if best >= 0 {
			out = append(out, best)
		}
	}
	return out
}
