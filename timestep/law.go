package timestep

import (
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// A unit's law: the one-step problem's free velocities and shifts
// (problem), the Signorini or shock law with its restitution, slop and
// push-out (kind.Law, read once a unit from its source), the friction
// coefficient the unit takes (mu), and the forecast of an impact inside
// the step (arriving).

// problem builds the one-step contact problem: free local velocities, the
// law's shift per unit, and W from the bodies' compliances.
//
// With pred nil the units are at the start of the step; otherwise they were
// detected at the end configuration predicted by the velocities pred, and
// their gap is carried back to the start along the linearisation: g_start =
// g_pred - h (theta U_pred + (1-theta) U_start), in their frames.
func (s *Simulation) problem(units []contact.Unit, v0, vfree, pred [][]float64, t, h, th float64) (p *signorini.Problem, u0, rigid1 [][2]float64, active, push []bool, err error) {
	n := len(units)
	w := &s.work
	w.q, w.mu, w.shift = reuse.Zeroed(w.q, 2*n), reuse.Zeroed(w.mu, n), reuse.Zeroed(w.shift, n)
	w.u0, w.rigid1, w.active, w.push = reuse.Zeroed(w.u0, n), reuse.Zeroed(w.rigid1, n), reuse.Zeroed(w.active, n), reuse.Zeroed(w.push, n)
	w.arrive, w.soon, w.corr, w.acc, w.accBody = reuse.Zeroed(w.arrive, n), reuse.Zeroed(w.soon, n), reuse.Zeroed(w.corr, n), reuse.Zeroed(w.acc, n), reuse.Zeroed(w.accBody, n)
	w.uf, w.last = reuse.Zeroed(w.uf, n), reuse.Zeroed(w.last, n)
	w.prob = signorini.Problem{Q: w.q, Mu: w.mu, Shift: w.shift}
	p, u0, rigid1, active, push = &w.prob, w.u0, w.rigid1, w.active, w.push
	for a := range units {
		u := &units[a]
		ul := s.lawOf(a)
		w.last[a] = s.warm.get(s.idOf(a))
		rigid1[a] = u.Rigid
		if ul.Motion != nil {
			rigid1[a] = u.RigidEnd(ul.Motion.Velocity(t + h))
		}
		var uf [2]float64
		u0[a], uf = u.Velocities(v0, vfree)
		uf[0] += rigid1[a][0] - u.Rigid[0]
		uf[1] += rigid1[a][1] - u.Rigid[1]
		p.Q[2*a], p.Q[2*a+1], p.Mu[a] = uf[0], uf[1], frictionOf(u, w.last[a].slid)
		w.uf[a] = uf[0]
		g := u.Gap
		if pred != nil {
			up := u.Velocity(pred)
			g -= h * (th*(up[0]+rigid1[a][0]-u.Rigid[0]) + (1-th)*u0[a][0])
		}
		if s.holds(a) {
			active[a], p.Shift[a] = true, bondShift(u0[a][0], th)
			continue
		}
		if s.arriving(a, u, ul, g, uf, pred != nil, h, th) {
			continue
		}
		switch ul.Law {
		case contact.Positional:
			active[a] = true
			g = slack(g, ul.Slop)
			p.Shift[a] = positionalShift(closable(g, ul.Slop, w.soon[a]), u0[a][0], h, th, ul.Reach, w.soon[a])
			push[a] = g < 0
		case contact.Shock:
			active[a] = ul.Restitution == 0 || closes(slack(g, ul.Slop), u0[a][0], uf[0], h)
			p.Shift[a] = shockShift(u0[a][0], th, ul.Restitution)
			if ul.Restitution == 0 {
				p.Shift[a] += allowance(closable(slack(g, ul.Slop), ul.Slop, w.soon[a]), u0[a][0], h, th, w.soon[a])
			}
			if !active[a] {
				p.Shift[a] = math.Inf(1) // always open
			}
			// The law on U_end + e U_start, a positive multiple of the
			// mean velocity of [JM91] section 6 for the dissipation index
			// delta = (1 - e)/(1 + e).
			p.Q[2*a] += ul.Restitution * u0[a][0]
			p.Q[2*a+1] += ul.TangentialRestitution * u0[a][1]
		}
	}
	all := s.rollRows(units, active)
	s.rollProblem(units, p, v0, vfree)
	if p.W, err = s.delassus.Build(all); err == nil {
		s.cohere(units, p, h)
	}
	return p, u0, rigid1, active, push, err
}

// closes tells whether a unit of slack gap g, normal velocity u0 at the
// step's start and uf at its end along its free motion closes its gap in
// the step: g + h (u0 + uf)/2 <= 0, the free motion's gap at the step's
// end under a constant acceleration, the polynomial arrival solves (g +
// h uf, the test before, took a mass whose flight closed the gap just
// after the step's end for one that arrived, and the restitution turned it
// back in mid-air).
func closes(g, u0, uf, h float64) bool { return g+h*(u0+uf)/2 <= 0 }

// lawOf is unit a's law, as its source said when the step's units were
// detected (lawsOf): the step's storage, not a 90-byte copy at each
// read.
func (s *Simulation) lawOf(a int) *kind.Law { return &s.work.laws[a] }

// lawsOf reads the laws and identities of the step's units from their
// sources: once each time they are detected, at the step's start and
// about its predicted end.
func (s *Simulation) lawsOf(k *step) {
	w := &s.work
	w.laws, w.ids = reuse.Zeroed(w.laws, len(k.units)), reuse.Zeroed(w.ids, len(k.units))
	for j, src := range s.sources {
		lo, hi := k.from[j], k.from[j+1]
		src.Laws(k.units[lo:hi], w.laws[lo:hi], w.ids[lo:hi])
		for a := lo; a < hi; a++ {
			w.ids[a].Source = j
		}
	}
}

// positionalShift is the shift s of the Positional law (see problem), U_N,end + s >= 0,
// for a unit of gap g and normal velocity u0 at the start of the step.
//
// A unit that arrives in the next step (impact.go: soon) may close its
// whole gap (U_N,end >= -(g/h + (1 - theta) U_N,start)/theta: at most onto
// the surface), so that the step before an impact leaves the impact to
// the next step, all of it.
func positionalShift(g, u0, h, th, reach float64, soon bool) float64 {
	if g < 0 {
		return max(g, -reach)/h + (1-th)*u0
	}
	if gm := g/h + (1-th)*u0; soon && gm > 0 {
		return gm / th
	}
	return max(g/h+(1-th)*u0, (1-th)*u0/th)
}

// shockShift is the shift s of the Shock law, U_N,end + e U_N,start + s >=
// 0, for a unit of normal velocity u0 at the start of the step and
// restitution e. It is 0 but where the unit separates at the start (u0 >
// 0: a pivot whose lever arm turned in the last step, a centripetal
// velocity) and e is below (1-theta)/theta: there the law held at equality
// would leave U_N,theta = (1 - theta - theta e) u0 > 0 with P_N > 0,
// positive work. The shift makes U_N,theta = 0 instead, the positional
// law's second bound (design.md section 6).
func shockShift(u0, th, e float64) float64 {
	return max(0, ((1-th)/th-e)*u0)
}

// allowance is the approach the inelastic shock law lets a unit of gap g
// (less the slop) and normal velocity u0 at the start of the step make by
// its end, U_N,end >= -allowance: its gap at the mid configuration over h,
// when positive. Every unit the detection finds takes part (LMGC90's
// IQS_CLB, which allows the gap at the start). A body arriving at a gap
// larger than half its step's travel then lands on the surface in two
// steps, where the law on units that take part when their gap closes under
// the free velocity stopped it short, held by an impulse across the gap (a
// point mass 26 um above a floor), and bodies that fall together stay
// under the law: under that forecast a deposit, whose neighbours have no
// relative free velocity, fell onto the floor layer by layer (LMGC90's
// 1 000-disk deposit: 60 sweeps a step against 4.9 over 1 000 steps), and
// the pillar's joint opened unlike LMGC90's (TestPillarJointAgainstLMGC90).
// Its work is not positive: with P_N > 0, U_N,theta is at most -theta times
// the allowance.
//
// A unit that arrives in the next step, whose impact is then resolved
// when it comes (impact.go: soon), is allowed its whole gap, U_N,end >=
// -g_m/(h theta): it ends the step at most on the surface, and the impact
// comes in the next step, all of it (the allowance of g_m/h stopped a
// rocking block's corner in two steps, the first while it was still a gap
// away). Every other unit keeps LMGC90's allowance: given the whole gap
// too, the pillar's joint at 0.5 s moved from 128 mm (at h = 1, 0.5 and
// 0.25 ms) to 73 mm at h = 1 ms. Its work is not positive either: with
// P_N > 0, U_N,theta = -g/h.
func allowance(g, u0, h, th float64, soon bool) float64 {
	if soon {
		return max(g+h*(1-th)*u0, 0) / (h * th)
	}
	return max(g+h*(1-th)*u0, 0) / h
}

// closable is the gap a unit of slack gap g lets close in the step: g,
// and for a unit that arrives in the next step (soon) half its slop more,
// so that it starts that step touching and its impact is resolved at the
// start (impactNow). Closed to the slop's edge, round-off decided whether
// it touched or arrived a hair inside the step, where shiftsPush could put
// the impact at the theta-method's time and let the unit in by h (1 -
// theta) |U_N| (0.62 mm in the pillar).
func closable(g, slop float64, soon bool) float64 {
	if soon && g >= 0 {
		return g + slop/2
	}
	return g
}

// slack is the gap g the positional law and the shock law's allowance act
// on: g less the slop towards zero, and zero within it. Both ways: a law that let round-off gaps close
// while it held round-off overlaps took 2 206 sweeps a step on
// TestPileAtRest's pile at rest.
func slack(g, slop float64) float64 {
	switch {
	case g > slop:
		return g - slop
	case g < -slop:
		return g + slop
	}
	return 0
}

// mu is unit a's friction coefficient in this step's problem: the dynamic
// one where the unit has one and slid in the last solve, the static one
// (Mu) where it stuck, was open or is new.
func (s *Simulation) mu(a int, u *contact.Unit) float64 {
	return frictionOf(u, u.MuDynamic != u.Mu && s.warm.get(s.idOf(a)).slid)
}

// frictionOf is the friction coefficient of a unit that slid, or not, in
// its last solve (mu's; the problem has its last solve at hand).
func frictionOf(u *contact.Unit, slid bool) float64 {
	if slid {
		return u.MuDynamic
	}
	return u.Mu
}
