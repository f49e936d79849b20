package timestep

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// Impacts: where the step resolves a velocity jump as Moreau's impact
// instead of leaving it to the theta-method. There are three places, one
// rule: the units' law on the velocities just before and after the impact
// (U+_N + e U-_N >= 0 complementary to P_N >= 0, e the shock law's
// restitution, 0 under the positional law; Coulomb on U+_T + e U-_T), W
// from the bodies' mass compliances, the work P (U- + U+)/2 <= 0 booked as
// contact work (impactOn solves it).
//
// 1. At the start of a run (startImpact). The theta-method moves a body by
// h (theta v_end + (1 - theta) v_start): the velocity it had before the
// step carries it a part of the step. A body that starts touching another
// one (gap 0) while moving into it (the bar against a wall, the block
// dropped on a floor, as users write them) would be carried h (1 - theta)
// |U_N| inside by the velocity it cannot keep; the positional law then
// holds the next mid configuration out and throws it back at
// (1 - theta)/theta of its speed, half of it at theta = 1/2 (issue 28). So
// the first step resolves the impact at t = 0 first, the units that touch
// (mid-configuration gap <= 0) taking part; it changes nothing where no
// unit is both touching and approaching.
//
// 2. At the start of a later step (impactNow): the units of rigid bodies
// and free point masses (kind.Law.Exact) that touch while approaching, and
// the exact units of the bodies joined to theirs, a unit a hair away taking
// part with the shift that lets it close no faster than the step's first
// part would.
//
// 3. Inside a step (arrival, arriving, arrivingLaw). A rigid body or a
// point mass that arrives from a gap and meets the surface at tau into the
// step would, under a law on the velocities at the step's ends, stop
// (theta = 1/2) h/2 - tau short of the surface or past it: a mass at
// 500 m/s stopped 0.1 m above a plane at h = 1 ms, and the inelastic shock
// law's allowance, which lets the gap close but not be passed, spread the
// impact over two steps (a rod's corner impact that sticks ended sliding
// back at 5e-2 of its speed; Housner's ratio 1 to 2e-3 off at h = 1e-4). So
// an exact unit whose slack gap g > 0 closes inside the step along its
// free motion, g + U_0 t + a t^2/2 = 0 at t = tau in (0, h], is resolved in
// the step's own problem as Moreau's impact at tau: its law is on U- = U_0
// + a tau and U+ = U_end - (h - tau) a, and its impulse moves its bodies by
// (h (1 - theta) - tau) M^-1 H' P on top of the theta-method's
// displacement (kind.Family.Finish's shift): at theta = 1/2 the exact
// displacement of a body that flies freely to tau, takes the impulse and
// flies on, with constant forces. Its work, booked P (U_theta - (h (1 -
// theta) - tau) a), is exactly the impact's. Only at theta = 1/2. Where a
// shift would push a body at a contact it leans on (shiftsPush), the step
// is solved again without in-step impacts, and the impact is taken at the
// next step's start (2).
//
// Units already in contact (within the slop), and finite-element bodies,
// keep the laws of problem (law.go).

// startImpact resolves the impact at t = 0 of units that touch while
// approaching (see above) before the first step's free velocities are
// computed, and adds its works to stats.
func (s *Simulation) startImpact(units []contact.Unit, t, h, th float64, stats *StepStats) error {
	v := s.velocities()
	n := len(units)
	e, et, shift, mu := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	approaching := false
	for a := range units {
		u := &units[a]
		ul := s.lawOf(a)
		e[a], et[a], mu[a] = ul.ShockRestitution(), ul.ShockTangential(), s.mu(a, u)
		// Round-off gaps (within the slop) are gaps of zero: disks laid
		// touching at 0.1 + 0.2 are 2.8e-17 apart. A unit whose impact
		// inside the step is resolved when it comes (impact.go) takes
		// part only if it touches now: one a gap away is not stopped
		// there (a mass 0.1 m above a plane at 500 m/s stopped dead).
		g := slack(u.Gap, ul.Slop)
		u0 := u.Velocity(v)
		touching := g+h*(1-th)*u0[0] <= 0
		if ul.Exact && th == 0.5 {
			touching = g <= 0
		}
		if !touching {
			shift[a] = math.Inf(1)
		}
		approaching = approaching || (touching && u0[0] < 0)
	}
	if !approaching {
		return nil
	}
	comps := make([]Compliance, len(v))
	for i := range comps {
		c, err := s.bodyMassCompliance(i)
		if err != nil {
			return err
		}
		comps[i] = c
	}
	d, err := NewDelassus(comps...)
	if err != nil {
		return err
	}
	if err := s.impactOn(units, impactTerms{e: e, et: et, shift: shift, mu: mu}, d, stats); err != nil {
		return fmt.Errorf("the impact at t = %g of the bodies that start touching: %w", t, err)
	}
	return nil
}

// impactTerms are the laws of an impact's units, one entry a unit: their
// restitutions, shifts and friction coefficients, each read by the
// caller from the unit's place among the step's units (an impact's units
// are a subset of them, whose own places name other sources).
type impactTerms struct {
	e, et, shift, mu []float64
}

// impactOn resolves an impact on units, between steps or before a step's
// free velocities are used: M (v+ - v-) = H P, the units' laws on the
// velocities after it (U+_N + e U-_N + s >= 0 complementary to P_N >= 0,
// Coulomb of coefficient mu on U+_T + e U-_T, e their restitutions, s
// their shifts, +Inf for a unit that takes no part), W from the bodies'
// mass compliances (d). It applies the impulses and adds their works, P .
// (U- + U+)/2, to stats; a solve that misses its tolerance is counted in
// stats as the step's is.
func (s *Simulation) impactOn(units []contact.Unit, law impactTerms, d *Delassus, stats *StepStats) error {
	v := s.velocities()
	n := len(units)
	q := make([]float64, 2*n)
	u0 := make([][2]float64, n)
	for a := range units {
		u0[a] = units[a].Velocity(v)
		q[2*a], q[2*a+1] = (1+law.e[a])*u0[a][0], (1+law.et[a])*u0[a][1]
	}
	p := &signorini.Problem{Q: q, Mu: law.mu, Shift: law.shift}
	var err error
	if p.W, err = d.Build(units); err != nil {
		return err
	}
	opt := s.opt.Solver
	opt.Start, opt.Warm, opt.Reuse = signorini.Zero, nil, nil
	res, err := s.solveOne(p, opt, StartImpact, stats)
	if errors.Is(err, signorini.ErrNotConverged) {
		// Counted and certified as the step's own solve is (solve).
		s.Unconverged++
		if s.opt.Strict {
			return fmt.Errorf("%w (the run stops here: strict)", err)
		}
		stats.impactUnconverged = true
		stats.impactResidual = max(stats.impactResidual, res.Residual)
	} else if err != nil {
		return err
	}
	r := make([][]float64, len(v))
	for i := range r {
		r[i] = make([]float64, len(s.r[i]))
	}
	for a := range units {
		units[a].AddImpulse(r, [2]float64{res.R[2*a], res.R[2*a+1]})
	}
	if err := s.applyImpact(r); err != nil {
		return err
	}
	v = s.velocities()
	for a, u := range units {
		P := [2]float64{res.R[2*a], res.R[2*a+1]}
		u1 := u.Velocity(v)
		stats.NormalWork += P[0] * (u0[a][0] + u1[0]) / 2
		stats.FrictionWork += P[1] * (u0[a][1] + u1[1]) / 2
		stats.ObstacleWork -= P[0]*u.Rigid[0] + P[1]*u.Rigid[1]
	}
	return nil
}

// arriving sets unit a's law to an impact inside the step when it is
// one (impact.go), and reports whether it is.
func (s *Simulation) arriving(a int, u *contact.Unit, ul *kind.Law, g float64, uf [2]float64, pred bool, h, th float64) bool {
	w := &s.work
	if !ul.Exact || pred || th != 0.5 || w.noArrival {
		return false
	}
	u0 := w.u0[a]
	acc := [2]float64{(uf[0] - u0[0]) / h, (uf[1] - u0[1]) / h}
	if !mayArrive(slack(g, ul.Slop), u0[0], acc[0], h) {
		w.soon[a] = false
		return false
	}
	amax := largestAcceleration(u, w, u.Rigid, w.rigid1[a], h, math.Inf(1))
	tau, ok := arrival(slack(g, ul.Slop), u0[0], acc[0], amax, h)
	if !ok {
		// One that arrives in the next step may close its whole gap but
		// not pass it (problem's laws).
		next, soon := arrival(slack(g, ul.Slop), u0[0], acc[0], amax, 2*h)
		w.soon[a] = soon && next > h
		return false
	}
	w.active[a], w.arrive[a], w.acc[a] = true, true, acc
	w.corr[a] = arrivingLaw(w.q[2*a:2*a+2], &w.shift[a], uf, u0, acc, ul.ShockRestitution(), ul.ShockTangential(), tau, h, th)
	vb0, vb1 := u.Velocity(w.step.v0), u.Velocity(w.step.vfree)
	w.accBody[a] = [2]float64{(vb1[0] - vb0[0]) / h, (vb1[1] - vb0[1]) / h}
	return true
}

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
	tau = firstRoot(g, u0, a)
	return tau, tau <= h && u0+a*tau < -2*h*max(amax, math.Abs(a))
}

// mayArrive tells whether arrival could find a unit arriving in this step
// or the next (2h) whatever its bodies' largest acceleration amax, which
// only raises its bar: most units of a pile do not, and their amax, a pass
// over their entries, is not needed.
func mayArrive(g, u0, a, h float64) bool {
	if !(g >= 0) {
		return false
	}
	tau := firstRoot(g, u0, a)
	return tau <= 2*h && u0+a*tau < -2*h*math.Abs(a)
}

// firstRoot is the first time t > 0 (0 for g = 0 and u0 < 0) at which g +
// u0 t + a t^2/2 = 0, +Inf when there is none.
func firstRoot(g, u0, a float64) float64 {
	tau := math.Inf(1)
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
	return tau
}

// arrivingLaw sets unit a's problem to an impact at tau (see above): its
// free velocity turned into U+'s, U_free - (h - tau) acc, and the law
// U+_N >= max(-e U-_N, (h - tau) a_N / 2), so that a body that stays
// leaves the step on the surface, not below it by what its free
// acceleration (gravity) takes it in the rest of the step, (h - tau)^2 a /
// 2, which the positional law then pushed out (27 J of push-out work on
// the 28 disks); Coulomb on U+_T + et U-_T. The impact's normal work,
// P_N (U-_N + U+_N)/2, stays <= 0: U+_N is at most |U-_N| (an arriving
// unit approaches faster than 2 h |a|). It returns the unit's shift
// coefficient h (1 - theta) - tau.
func arrivingLaw(q []float64, shift *float64, uf, u0, acc [2]float64, e, et, tau, h, th float64) float64 {
	um := [2]float64{u0[0] + tau*acc[0], u0[1] + tau*acc[1]}
	for c := range 2 {
		q[c] = uf[c] - (h-tau)*acc[c]
	}
	*shift = min(e*um[0], (h-tau)*acc[0]/2)
	q[1] += et * um[1]
	return h*(1-th) - tau
}

// shiftsPush reports whether the step, with the shifts of its impacts
// inside it, would leave a unit deeper than it started (or inside, when
// it started outside) by more than its slop: a grain that lands on one
// grain while it leans on another is moved away from the first by its
// shift, (h (1 - theta) - tau) M^-1 H' P, which the law of the second did
// not see, and two grains that land on a third at other times share its
// shifts. The step is then solved again with every impact at the
// theta-method's time (as before the in-step impacts): the 28 disks went 0.7 mm
// into each other otherwise, which the positional law pushed out (37 J).
func (s *Simulation) shiftsPush(k *step) bool {
	w := &s.work
	n := len(k.units)
	w.sh, w.dsh = reuse.Zeroed(w.sh, len(k.prob.Q)), reuse.Zeroed(w.dsh, len(k.prob.Q))
	any := false
	for a := range n {
		if w.arrive[a] && w.active[a] {
			w.sh[2*a], w.sh[2*a+1] = w.corr[a]*k.res.R[2*a], w.corr[a]*k.res.R[2*a+1]
			any = any || w.sh[2*a] != 0
		}
	}
	for j, a := range w.rolls { // their moments shift too (rollImpulses)
		if w.arrive[a] {
			w.sh[2*(n+j)] = w.corr[a] * k.res.R[2*(n+j)]
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
		ul := s.lawOf(b)
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
// bodies over the step (their translations, w.bodyAcceleration) and of
// its antagonist's prescribed motion, or the first of them beyond
// enough: a caller whose bar that one already fails needs no more (+Inf
// for the largest).
func largestAcceleration(u *contact.Unit, w *stepWork, rigid0, rigid1 [2]float64, h, enough float64) float64 {
	amax := math.Hypot(rigid1[0]-rigid0[0], rigid1[1]-rigid0[1]) / h
	for _, e := range u.Entries {
		if amax > enough {
			break
		}
		if e.Eq < 2 {
			amax = max(amax, w.bodyAcceleration(e.Body, h))
		}
	}
	return amax
}

// failsAtStart is, for a unit touching at normal velocity u0 < 0, an
// acceleration beyond which it does not arrive at the step's start: at a
// gap of 0 arrival's bar is u0 < -2 h max(amax, |acc|), which an amax
// beyond -u0 / 2h fails. The margin keeps the bar's own rounding on the
// side of computing amax whole.
func failsAtStart(u0, h float64) float64 { return -u0 / (2 * h) * (1 + 1e-9) }

// start sets body i's velocity at the step's start and its free
// velocity (k.v0 and k.vfree are w's), and forgets its bodyAcceleration.
func (w *stepWork) start(i int, v0, vfree []float64) {
	w.v0[i], w.vfree[i], w.bodyAcc[i] = v0, vfree, math.NaN()
}

// bodyAcceleration is the size of body b's free acceleration over the
// step, |vfree - v0| / h of its translation (0 for a body of one
// equation), computed once for each start of it (start): a pile's units
// asked it of their bodies two entries at a time, four times a body (3 %
// of a deposit's step).
func (w *stepWork) bodyAcceleration(b int, h float64) float64 {
	if a := w.bodyAcc[b]; !math.IsNaN(a) {
		return a
	}
	v0, vf := w.v0[b], w.vfree[b]
	if len(v0) <= 1 {
		w.bodyAcc[b] = 0
		return 0
	}
	w.bodyAcc[b] = math.Hypot(vf[0]-v0[0], vf[1]-v0[1]) / h
	return w.bodyAcc[b]
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
		ul := s.lawOf(a)
		if !ul.Exact || slack(u.Gap, ul.Slop) > 0 {
			continue
		}
		rigid1 := u.Rigid
		if ul.Motion != nil {
			rigid1 = u.RigidEnd(ul.Motion.Velocity(k.t + k.h))
		}
		u0, uf := u.NormalVelocities(k.v0, k.vfree)
		acc := (uf + rigid1[0] - u.Rigid[0] - u0) / k.h
		if !mayArrive(0, u0, acc, k.h) {
			continue
		}
		// A pile's resting units, which mayArrive lets through when
		// their bodies fall together (acc ~ 0), fail the bar at their
		// first body's acceleration.
		amax := largestAcceleration(u, &s.work, u.Rigid, rigid1, k.h, failsAtStart(u0, k.h))
		if _, ok := arrival(0, u0, acc, amax, k.h); ok {
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
		if ul := s.lawOf(a); ul.Exact && slack(u.Gap, ul.Slop) <= 0 {
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
	law.e, law.et, law.shift, law.mu = law.e[:0], law.et[:0], law.shift[:0], law.mu[:0]
	seed := make(map[int]bool, len(seeds))
	for _, a := range seeds {
		seed[a] = true
	}
	for _, a := range take {
		u := &k.units[a]
		ul := s.lawOf(a)
		shift := max(slack(u.Gap, ul.Slop), 0) / (k.h * (1 - k.th))
		if seed[a] {
			shift = 0
		}
		w.impactUnits = append(w.impactUnits, *u)
		law.e = append(law.e, ul.ShockRestitution())
		law.et = append(law.et, ul.ShockTangential())
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
			v0, vfree := f.Start(j)
			s.work.start(s.base[fi]+j, v0, vfree)
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
		if !s.lawOf(a).Exact {
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
