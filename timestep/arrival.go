package timestep

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// An impact inside a step.
//
// The theta-method moves a body by h (theta v_end + (1 - theta) v_start)
// over a step: as if any impulse of the step came at h (1 - theta) into
// it. A rigid body or a point mass that arrives from a gap and meets the
// surface at tau into the step would, under a law on the velocities at
// the step's ends, stop (theta = 1/2) h/2 - tau short of the surface or
// past it: a mass at 500 m/s stopped 0.1 m above a plane at h = 1 ms,
// and the inelastic shock law's allowance, which lets the gap close but
// not be passed, spread the impact over two steps, its first part at the
// cone's edge (a rod's corner impact that sticks ended sliding back at
// 5e-2 of its speed; Housner's ratio 1 to 2e-3 off at h = 1e-4).
//
// So a unit of a rigid body or a free point mass (kind.Law.exact) whose
// slack gap g > 0 closes inside the step along its free motion, g + U_0
// t + a t^2/2 = 0 at t = tau in (0, h] (a its free acceleration), is
// resolved as Moreau's impact at tau: its law is on the velocities just
// before and after the impact, U- = U_0 + a tau and U+ = U_end - (h - tau) a,
// U+ + e U- in the cone's complement (e the shock law's restitution, 0
// under the positional law), for both components, and its impulse moves
// its bodies by (h (1 - theta) - tau) M^-1 H' P on top of the
// theta-method's displacement (System.AddShift): at theta = 1/2 this is
// the exact displacement of a body that flies freely to tau, takes the
// impulse and flies on, with constant forces. Its work, booked
// P (U_theta - (h (1 - theta) - tau) a), is then exactly the impact's,
// P (U- + U+)/2 <= 0: contact creates no energy. Units already in
// contact (within the slop), and finite-element bodies, keep the laws of
// problem. Only at theta = 1/2.

// arrival returns when in a step of h (0 <= tau <= h) a unit of slack gap
// g >= 0, normal velocity u0 and free normal acceleration a closes its
// gap along its free motion, g + u0 t + a t^2/2 = 0 (the first root; 0
// for a unit touching at the start), approaching there faster than twice
// what its bodies' largest free acceleration amax adds in a step: slower,
// it is a resting unit, whose impulse is mostly the support of a load
// over the whole step (the law on U+ would leave the rest of the step
// without it, and the shift would lift a pile by h^2 g / 2 a step; two
// disks of a pile fall together, so that the unit's own relative
// acceleration says nothing of it). ok is false when it does not.
func arrival(g, u0, a, amax, h float64) (tau float64, ok bool) {
	if !(g >= 0) {
		return 0, false
	}
	tau = math.Inf(1)
	if g == 0 {
		if u0 < 0 {
			tau = 0
		}
	} else if a == 0 {
		if u0 < 0 {
			tau = -g / u0
		}
	} else if disc := u0*u0 - 2*a*g; disc >= 0 {
		// a t^2/2 + u0 t + g = 0 by the stable pair of formulas.
		q := -(u0 + math.Copysign(math.Sqrt(disc), u0)) / 2
		for _, t := range []float64{q / (a / 2), g / q} {
			if t > 0 && t < tau {
				tau = t
			}
		}
	}
	return tau, tau <= h && u0+a*tau < -2*h*max(amax, math.Abs(a))
}

// arrivingLaw sets unit a's problem to an impact at tau (see above): its
// free velocity turned into U+'s, U_free - (h - tau) acc, and the law
// U+_N >= max(-e U-_N, (h - tau) a_N / 2), so that a body that stays
// leaves the step on the surface, not below it by what its free
// acceleration (gravity) takes it in the rest of the step, (h - tau)^2 a /
// 2, which the positional law then pushed out (27 J of push-out work on
// the 28 disks); Coulomb on U+_T + e U-_T. The impact's normal work,
// P_N (U-_N + U+_N)/2, stays <= 0: U+_N is at most |U-_N| (an arriving
// unit approaches faster than 2 h |a|). It returns the unit's shift
// coefficient h (1 - theta) - tau.
func arrivingLaw(q []float64, shift *float64, uf, u0, acc [2]float64, e, tau, h, th float64) float64 {
	um := [2]float64{u0[0] + tau*acc[0], u0[1] + tau*acc[1]}
	for c := range 2 {
		q[c] = uf[c] - (h-tau)*acc[c]
	}
	*shift = min(e*um[0], (h-tau)*acc[0]/2)
	q[1] += e * um[1]
	return h*(1-th) - tau
}

// shiftsPush reports whether the step, with the shifts of its impacts
// inside it, would leave a unit deeper than it started (or inside, when
// it started outside) by more than its slop: a grain that lands on one
// grain while it leans on another is moved away from the first by its
// shift, (h (1 - theta) - tau) M^-1 H' P, which the law of the second did
// not see, and two grains that land on a third at other times share its
// shifts. The step is then solved again with every impact at the
// theta-method's time (as before arrival.go): the 28 disks went 0.7 mm
// into each other otherwise, which the positional law pushed out (37 J).
func (s *Simulation) shiftsPush(k *step) bool {
	w := &s.work
	n := len(k.units)
	w.sh, w.dsh = reuse.Zeroed(w.sh, 2*n), reuse.Zeroed(w.dsh, 2*n)
	any := false
	for a := range n {
		if w.arrive[a] && w.active[a] {
			w.sh[2*a], w.sh[2*a+1] = w.corr[a]*k.res.R[2*a], w.corr[a]*k.res.R[2*a+1]
			any = any || w.sh[2*a] != 0
		}
	}
	if !any {
		return false
	}
	mulDelassus(k.prob.W, w.sh, w.dsh)
	for b := range n {
		if !w.active[b] {
			continue
		}
		ul := s.lawOf(b, &k.units[b])
		g := slack(k.units[b].Gap, ul.Slop)
		u1 := w.uf[b] + k.res.U[2*b] - k.prob.Q[2*b] // the end velocity the solve gives
		end := g + k.h*(k.th*u1+(1-k.th)*w.u0[b][0]) + w.dsh[2*b]
		if end < min(g, 0)-ul.Slop {
			return true
		}
	}
	return false
}

// mulDelassus sets y = W x.
func mulDelassus(W signorini.Delassus, x, y []float64) {
	for a := range W.Contacts() {
		on, ot := W.OffDiag(a, x)
		d := W.Diag(a)
		y[2*a] = on + d[0]*x[2*a] + d[1]*x[2*a+1]
		y[2*a+1] = ot + d[2]*x[2*a] + d[3]*x[2*a+1]
	}
}

// largestAcceleration is the largest free acceleration of unit u's
// bodies over the step (their translations) and of its antagonist's
// prescribed motion.
func largestAcceleration(u *contact.Unit, v0, vfree [][]float64, rigid0, rigid1 [2]float64, h float64) float64 {
	amax := math.Hypot(rigid1[0]-rigid0[0], rigid1[1]-rigid0[1]) / h
	for _, e := range u.Entries {
		if e.Eq < 2 && len(v0[e.Body]) > 1 {
			b := e.Body
			amax = max(amax, math.Hypot(vfree[b][0]-v0[b][0], vfree[b][1]-v0[b][1])/h)
		}
	}
	return amax
}

// impactNow resolves the impacts at the start of a step (after the
// first, which impactFirst serves): units of rigid bodies and free point
// masses (kind.Law.exact) that touch while approaching as an arrival does,
// an impact at tau = 0 (taking those within twice their slop too, which
// would stop that short, put the rocking block's first impact off
// Housner's ratio by 9 %: its pivot lifts as it lands). Resolved inside the
// step, such an impact would move its bodies by the shift h (1 - theta)
// M^-1 H' P, which the units they rest on do not see (a block landing on
// one corner while it leans on the other), and shiftsPush would put every
// impact of the step at the theta-method's time, where the unit goes h (1
// - theta) |U_N| deep. Here it is Moreau's impact at the start
// (impactAtStart).
func (s *Simulation) impactNow(k *step) error {
	if k.stats.Step == 1 || k.th != 0.5 || len(k.units) == 0 {
		return nil
	}
	var seeds []int
	for a := range k.units {
		u := &k.units[a]
		ul := s.lawOf(a, u)
		if !ul.Exact || slack(u.Gap, ul.Slop) > 0 {
			continue
		}
		rigid1 := u.Rigid
		if ul.Motion != nil {
			rigid1 = u.RigidAt(ul.Motion.Velocity(k.t + k.h))
		}
		u0, uf := u.Velocity(k.v0), u.Velocity(k.vfree)
		acc := (uf[0] + rigid1[0] - u.Rigid[0] - u0[0]) / k.h
		amax := largestAcceleration(u, k.v0, k.vfree, u.Rigid, rigid1, k.h)
		if _, ok := arrival(0, u0[0], acc, amax, k.h); ok {
			seeds = append(seeds, a)
		}
	}
	return s.impactAtStart(k, seeds)
}

// touchingExact returns the units of rigid bodies and free point masses
// that touch at the start of the step (slack gap <= 0).
func (s *Simulation) touchingExact(k *step) []int {
	var touching []int
	for a := range k.units {
		u := &k.units[a]
		if ul := s.lawOf(a, u); ul.Exact && slack(u.Gap, ul.Slop) <= 0 {
			touching = append(touching, a)
		}
	}
	return touching
}

// impactAtStart resolves Moreau's impact at the start of the step on the
// units seeds, held as touching, and on every exact unit of the bodies
// joined to theirs through touching exact units (impactOn), and starts
// those bodies' families' step again from the velocities after it (rigid
// bodies' and point masses' begin is idempotent; no exact unit reaches a
// finite-element body). A unit of slack gap g > 0 takes part with the
// shift g / (h (1 - theta)): it may approach as fast as the step's first
// part closes g, no faster, so that the impact does not throw a body's
// other corner into what it rests on a hair away (0.075 mm in the
// pillar); the shifts are >= 0, so the impact creates no energy (its
// work is -P . s - P W P / 2).
func (s *Simulation) impactAtStart(k *step, seeds []int) error {
	if len(seeds) == 0 {
		return nil
	}
	take, reached := s.joined(k, seeds)
	w := &s.work
	w.impactUnits = w.impactUnits[:0]
	law := &w.impactLaw
	law.e, law.shift, law.mu = law.e[:0], law.shift[:0], law.mu[:0]
	seed := make(map[int]bool, len(seeds))
	for _, a := range seeds {
		seed[a] = true
	}
	for _, a := range take {
		u := &k.units[a]
		ul := s.lawOf(a, u)
		shift := max(slack(u.Gap, ul.Slop), 0) / (k.h * (1 - k.th))
		if seed[a] {
			shift = 0
		}
		w.impactUnits = append(w.impactUnits, *u)
		law.e = append(law.e, ul.ShockRestitution())
		law.shift = append(law.shift, shift)
		law.mu = append(law.mu, s.mu(a, u))
	}
	d, err := s.impactDelassus(w.impactUnits)
	if err != nil {
		return err
	}
	if err := s.impactOn(w.impactUnits, *law, d, &k.stats); err != nil {
		return fmt.Errorf("step %d (t = %g): the impact at the start of the step: %w", k.stats.Step, k.t, err)
	}
	restart := make(map[int]bool)
	for i := range reached {
		restart[s.familyOf(i)] = true
	}
	for fi, f := range s.families {
		if !restart[fi] {
			continue
		}
		if err := f.Begin(kind.Clock{T: k.t, H: k.h, Theta: k.th}); err != nil {
			return err
		}
		for j := range f.Len() {
			k.v0[s.base[fi]+j], k.vfree[s.base[fi]+j] = f.Start(j)
		}
	}
	return nil
}

// joined returns, in order, the exact units of the bodies joined to the
// seeds' through the seeds and the touching exact units (a union-find
// over the bodies), and those bodies.
func (s *Simulation) joined(k *step, seeds []int) (take []int, bodies map[int]bool) {
	parent := make(map[int]int)
	var root func(int) int
	root = func(i int) int {
		p, ok := parent[i]
		if !ok || p == i {
			return i
		}
		parent[i] = root(p)
		return parent[i]
	}
	join := func(a int) {
		es := k.units[a].Entries
		for _, e := range es {
			if q, r := root(e.Body), root(es[0].Body); q != r {
				parent[q] = r
			}
		}
	}
	for _, a := range seeds {
		join(a)
	}
	for _, a := range s.touchingExact(k) {
		join(a)
	}
	hit := make(map[int]bool)
	for _, a := range seeds {
		for _, e := range k.units[a].Entries {
			hit[root(e.Body)] = true
		}
	}
	bodies = make(map[int]bool)
	for a := range k.units {
		u := &k.units[a]
		if !s.lawOf(a, u).Exact {
			continue
		}
		in := false
		for _, e := range u.Entries {
			in = in || hit[root(e.Body)]
		}
		if !in {
			continue
		}
		take = append(take, a)
		for _, e := range u.Entries {
			bodies[e.Body] = true
		}
	}
	return take, bodies
}

// impactDelassus is the builder of W on the bodies' mass compliances for
// the impacts at a step's start: those of the bodies of units, fetched
// when first needed (a finite-element body's, which no exact unit
// reaches, never).
func (s *Simulation) impactDelassus(units []contact.Unit) (*Delassus, error) {
	w := &s.work
	if len(w.mcomp) != len(s.r) {
		w.mcomp, w.mhave, w.md = make([]Compliance, len(s.r)), make([]bool, len(s.r)), nil
	}
	for _, u := range units {
		for _, e := range u.Entries {
			if w.mhave[e.Body] {
				continue
			}
			c, err := s.bodyMassCompliance(e.Body)
			if err != nil {
				return nil, err
			}
			w.mcomp[e.Body], w.mhave[e.Body], w.md = c, true, nil
		}
	}
	if w.md == nil {
		d, err := NewDelassus(w.mcomp...)
		if err != nil {
			return nil, err
		}
		w.md = d
	}
	return w.md, nil
}
