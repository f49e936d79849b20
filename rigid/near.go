package rigid

import "github.com/fecontact/fecontact/internal/reuse"

// nearPairs are the broad phase's pairs kept from one step to the next:
// those of the boxes grown by a margin when they were found. While every
// box stays inside its grown box, every pair of boxes that overlap now is
// among them, and the step's pairs are those of the list whose boxes
// overlap: the grid, its bins and the sort of a fresh broad phase (a
// tenth of a settled 1 000-disk deposit's step) are spent only when a
// body has moved by the margin.
type nearPairs struct {
	pairs  [][2]int
	lo, hi [][2]float64 // the grown boxes the pairs were found for
	driven []bool       // the bodies' Driven then (a rule pairs no two driven bodies)
}

// candidates appends broad's pairs of the boxes now, from the pairs kept
// (nearPairs) or, with images across a period (whose items come and go),
// from a fresh broad phase.
func (s *System) candidates(out [][2]int) [][2]int {
	w := &s.det
	if len(w.items) != len(s.Bodies) {
		w.near.pairs = w.near.pairs[:0]
		w.near.lo = w.near.lo[:0]
		return s.broad(out, w.lo, w.hi)
	}
	if !s.nearHolds() {
		s.renewNear(s.alert / 2)
	}
	for _, p := range w.near.pairs {
		if overlap(w.lo[p[0]], w.hi[p[0]], w.lo[p[1]], w.hi[p[1]]) {
			out = append(out, p)
		}
	}
	return out
}

// nearHolds reports whether the pairs kept hold every pair of boxes that
// overlap now: each box is inside its grown box and each body is driven
// or free as it was.
func (s *System) nearHolds() bool {
	w, nr := &s.det, &s.det.near
	if len(nr.lo) != len(w.lo) {
		return false
	}
	for i := range w.lo {
		lo, hi, glo, ghi := w.lo[i], w.hi[i], nr.lo[i], nr.hi[i]
		if lo[0] < glo[0] || lo[1] < glo[1] || hi[0] > ghi[0] || hi[1] > ghi[1] || s.Bodies[i].Driven() != nr.driven[i] {
			return false
		}
	}
	return true
}

// renewNear finds the pairs of the boxes grown by margin.
func (s *System) renewNear(margin float64) {
	w, nr := &s.det, &s.det.near
	n := len(w.lo)
	nr.lo, nr.hi, nr.driven = reuse.Zeroed(nr.lo, n), reuse.Zeroed(nr.hi, n), reuse.Zeroed(nr.driven, n)
	for i := range n {
		nr.lo[i] = [2]float64{w.lo[i][0] - margin, w.lo[i][1] - margin}
		nr.hi[i] = [2]float64{w.hi[i][0] + margin, w.hi[i][1] + margin}
		nr.driven[i] = s.Bodies[i].Driven()
	}
	nr.pairs = s.broad(nr.pairs[:0], nr.lo, nr.hi)
}
