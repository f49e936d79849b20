package signorini

import (
	"slices"
	"time"

	"github.com/fecontact/fecontact/internal/team"
)

// sweeper updates one contact at a time: the exact single-contact solve
// with the others' current impulses, relaxed, into r.
type sweeper struct {
	p      *Problem
	diag   [][4]float64
	r      []float64
	status []Status
	omega  float64
	team   *team.Team // a coloured sweep's cores
}

// sweepSums are a sweep's sums for the stop tests: the squared change and
// norm of the impulses, and VelocityChange's squared change of the local
// velocities through the contacts' own compliance and their scale.
type sweepSums struct {
	change, norm, dv2, wr2 float64
}

// sweep updates contacts order[lo:hi] (lo to hi-1 when order is nil) in
// turn and returns their sums. The loop is the hot one of a solve: one
// call per sweep or chunk, none per contact.
func (s *sweeper) sweep(lo, hi int, order []int, velocity bool) sweepSums {
	p, diag, r, omega := s.p, s.diag, s.r, s.omega
	var change, norm, dv2, wr2 float64
	for i := lo; i < hi; i++ {
		a := i
		if order != nil {
			a = order[i]
		}
		on, ot := p.W.OffDiag(a, r)
		var ra [2]float64
		var st Status
		if c := p.rollOf(a); c >= 0 {
			b := p.bound(a, c, r)
			ra[0], st = rollSingle(diag[a][0], p.Q[2*a]+on, b)
			if omega != 1 {
				ra[0] = min(max(omega*ra[0]+(1-omega)*r[2*a], -b), b)
			}
		} else {
			rn, rt, sst := single(&diag[a], p.Q[2*a]+on, p.Q[2*a+1]+ot, p.shift(a), p.Mu[a])
			ra, st = [2]float64{rn, rt}, sst
			if omega != 1 {
				ra = projectCone([2]float64{omega*ra[0] + (1-omega)*r[2*a], omega*ra[1] + (1-omega)*r[2*a+1]}, p.Mu[a])
			}
		}
		d0, d1 := ra[0]-r[2*a], ra[1]-r[2*a+1]
		change += d0*d0 + d1*d1
		norm += ra[0]*ra[0] + ra[1]*ra[1]
		if velocity {
			w := &diag[a]
			dn, dt := w[0]*d0+w[1]*d1, w[2]*d0+w[3]*d1
			vn, vt := w[0]*ra[0]+w[1]*ra[1], w[2]*ra[0]+w[3]*ra[1]
			dv2, wr2 = dv2+dn*dn+dt*dt, wr2+vn*vn+vt*vt
		}
		r[2*a], r[2*a+1] = ra[0], ra[1]
		s.status[a] = st
	}
	return sweepSums{change, norm, dv2, wr2}
}

// colourChunk is the number of contacts whose sums a coloured sweep takes
// together: fixed, so that the sums, and so the stop, do not depend on how
// many cores share a colour's chunks.
const colourChunk = 64

// coloured runs one sweep colour by colour, contacts [colours[c],
// colours[c+1]) being colour c, the chunks of a colour shared by the
// sweeper's team; the chunks' sums are added in order.
func (s *sweeper) coloured(colours []int, chunks *[]sweepSums, velocity bool) sweepSums {
	start := time.Now()
	alone := s.team.Alone()
	sums := (*chunks)[:0]
	for c := range len(colours) - 1 {
		lo, hi := colours[c], colours[c+1]
		first := len(sums)
		for k := lo; k < hi; k += colourChunk {
			sums = append(sums, sweepSums{})
		}
		part := sums[first:]
		s.team.Run(len(part), alone, func(k int) {
			part[k] = s.sweep(lo+k*colourChunk, min(lo+(k+1)*colourChunk, hi), nil, velocity)
		})
	}
	s.team.Record(time.Since(start))
	*chunks = sums
	var total sweepSums
	for _, c := range sums {
		total.change += c.change
		total.norm += c.norm
		total.dv2 += c.dv2
		total.wr2 += c.wr2
	}
	return total
}

// coloured solves p in Coloured order: it numbers W's contacts colour by
// colour (colours) and sweeps that problem with the colours' bounds.
func coloured(p *Problem, w *BlockSparse, opt Options, res *Result) (*Result, error) {
	perm, bounds := colours(w, p.links())
	opt.colours = bounds
	return renumbered(p, w, perm, opt, res)
}

// colours colours W's contacts greedily in contact order, each taking the
// first colour none of its coupled contacts has (through W, or linked:
// a rolling row and its contact), and returns the contacts colour by
// colour (in contact order within a colour) and the bounds of the colours
// in that list.
func colours(w *BlockSparse, links [][]int) (perm, bounds []int) {
	n := w.Contacts()
	colour := make([]int, n)
	var used []bool // by colour, for the contact being coloured
	ncol := 0
	for a := range n {
		clear(used)
		for _, b := range w.Col[w.Ptr[a]:w.Ptr[a+1]] {
			if b < a {
				used[colour[b]] = true
			}
		}
		if links != nil {
			for _, b := range links[a] {
				if b < a {
					used[colour[b]] = true
				}
			}
		}
		c := 0
		for c < len(used) && used[c] {
			c++
		}
		if c == len(used) {
			used = append(used, false)
		}
		colour[a], ncol = c, max(ncol, c+1)
	}
	perm = make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return colour[a] - colour[b] })
	bounds = make([]int, ncol+1)
	for _, a := range perm {
		bounds[colour[a]+1]++
	}
	for c := range ncol {
		bounds[c+1] += bounds[c]
	}
	return perm, bounds
}
