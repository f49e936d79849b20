package timestep

import (
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// Rolling resistance (kind.Law.Rolling): each active unit whose law has
// one adds a rolling row to the step's problem after the units
// (signorini's Problem.RollOf), on the rows its source gives
// (kind.Roller), its moment impulse bounded by mu_r times the unit's
// normal impulse (r'_N under a bond: a bonded joint resists rolling by
// its cohesion too). The rows are the units' only in the problem, its W
// (built on the units and a unit per row carrying its rows as normal
// rows), the bodies' impulses, the warm start and the friction work: the
// units, their statuses and their counts are unchanged.

// rollRows lists the step's rolling rows (their units, w.rolls) and
// returns the units W is built on: the units and a unit per row, whose
// entries are its rolling rows.
func (s *Simulation) rollRows(units []contact.Unit, active []bool) []contact.Unit {
	w := &s.work
	w.rolls, w.rollSlab = w.rolls[:0], w.rollSlab[:0]
	ends := w.rollEnds[:0]
	for a := range units {
		if !active[a] || s.lawOf(a).Rolling == 0 {
			continue
		}
		if r, ok := s.sourceOf(a).(kind.Roller); ok {
			w.rolls, w.rollSlab = append(w.rolls, a), r.Roll(&units[a], w.rollSlab)
			ends = append(ends, len(w.rollSlab))
		}
	}
	w.rollEnds = ends
	if len(w.rolls) == 0 {
		return units
	}
	w.rollUnits = append(w.rollUnits[:0], units...)
	start := 0
	for k, a := range w.rolls {
		end := ends[k]
		w.rollUnits = append(w.rollUnits, contact.Unit{Key: units[a].Key, Weight: 1, Entries: w.rollSlab[start:end:end]})
		start = end
	}
	return w.rollUnits
}

// rollOfRow is rolling row k's entries.
func (s *Simulation) rollOfRow(n, k int) []contact.Entry { return s.work.rollUnits[n+k].Entries }

// rollProblem gives p the rolling rows' free velocities (vfree), their
// coefficients and their links to their units; their velocities at the
// start (v0) are kept for the work (rollWork).
func (s *Simulation) rollProblem(units []contact.Unit, p *signorini.Problem, v0, vfree [][]float64) {
	w := &s.work
	if len(w.rolls) == 0 {
		p.RollOf = nil
		return
	}
	n, m := len(units), len(w.rolls)
	w.q, w.mu, w.shift = extend(w.q, 2*n, 2*m), extend(w.mu, n, m), extend(w.shift, n, m)
	w.rollOf = reuse.Zeroed(w.rollOf, n+m)
	w.rollU0 = reuse.Zeroed(w.rollU0, m)
	p.Q, p.Mu, p.Shift, p.RollOf = w.q, w.mu, w.shift, w.rollOf
	for a := range n {
		w.rollOf[a] = -1
	}
	for k, a := range w.rolls {
		roll := s.rollOfRow(n, k)
		p.Q[2*(n+k)] = rollVelocity(roll, vfree)
		p.Mu[n+k] = s.lawOf(a).Rolling
		w.rollOf[n+k] = a
		w.rollU0[k] = rollVelocity(roll, v0)
	}
}

// extend is x's first n values followed by m zeros, in x's storage as it
// has room.
func extend(x []float64, n, m int) []float64 {
	x = slices.Grow(x[:n], m)[:n+m]
	clear(x[n:])
	return x
}

// rollVelocity is a rolling row's velocity for the bodies' velocities v.
func rollVelocity(roll []contact.Entry, v [][]float64) float64 {
	var u float64
	for _, e := range roll {
		u += e.N * v[e.Body][e.Eq]
	}
	return u
}

// rollImpulses adds the rolling rows' moment impulses to the bodies'
// generalised impulses (and, for a unit that arrives inside the step,
// times its shift coefficient, to the shifts: impact.go).
func (s *Simulation) rollImpulses(units []contact.Unit, res *signorini.Result) {
	w := &s.work
	n := len(units)
	for k, a := range w.rolls {
		P := res.R[2*(n+k)]
		for _, e := range s.rollOfRow(n, k) {
			s.r[e.Body][e.Eq] += e.N * P
			if w.arrive[a] {
				s.shift[e.Body][e.Eq] += e.N * w.corr[a] * P
			}
		}
	}
}

// rollWork is the rolling rows' work over the step, P_R (theta U_R,end +
// (1 - theta) U_R,start), for the velocities v1 at the end: the rolling
// law's dissipation, booked with friction's (and, like it, held on the
// end velocity).
func (s *Simulation) rollWork(units []contact.Unit, res *signorini.Result, v1 [][]float64, th float64) float64 {
	w := &s.work
	n := len(units)
	var work float64
	for k := range w.rolls {
		u := th*rollVelocity(s.rollOfRow(n, k), v1) + (1-th)*w.rollU0[k]
		work += res.R[2*(n+k)] * u
	}
	return work
}

// rollWarm sets the rolling rows' warm start, their units' last step's.
func (s *Simulation) rollWarm(units []contact.Unit, warm []float64) {
	n := len(units)
	for k, a := range s.work.rolls {
		warm[2*(n+k)] = s.work.last[a].roll
	}
}

// rollKeep keeps the rolling rows' impulses for the next step's warm
// start, after their units' (solve).
func (s *Simulation) rollKeep(units []contact.Unit, res *signorini.Result) {
	n := len(units)
	for k, a := range s.work.rolls {
		s.warm.setRoll(a, res.R[2*(n+k)])
	}
}

// rollMoments gives the contacts the Simulation reports their rolling
// rows' moment impulses (s.contacts in the units' order).
func (s *Simulation) rollMoments(res *signorini.Result) {
	n := len(s.contacts)
	for k, a := range s.work.rolls {
		s.contacts[a].Rolling = res.R[2*(n+k)]
	}
}
