package timestep

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// A step of the Simulation, phase by phase (Step reads as the list of
// them): the bodies placed, the contacts detected, the impacts at the
// step's start, the free velocities, the contact problem posed, solved and
// applied, and the bodies advanced.

// keep copies cfg into s.prev, reusing its storage.
func (s *Simulation) keep(cfg contact.Config) {
	s.prev.Time = cfg.Time
	if len(s.prev.Disp) != len(cfg.Disp) {
		s.prev.Disp = make([][]float64, len(cfg.Disp))
	}
	for i, u := range cfg.Disp {
		s.prev.Disp[i] = append(s.prev.Disp[i][:0], u...)
	}
	s.prev.Poses = append(s.prev.Poses[:0], cfg.Poses...)
}

// Step advances the simulation by one step.
//
// The contact problem is linearised about the configuration at the start
// of the step. When the configuration that solution predicts at the end of
// the step has a unit deeper than predictTol of its length (a point sliding
// over a curved or kinked surface, where the linearised gap lags), the
// problem is detected and linearised again about that predicted end
// configuration and solved once more, warm-started: one fixed-point
// iteration on the geometry, so that curvature does not leave penetrations
// that a law which never creates energy could not push out again.
func (s *Simulation) Step() (StepStats, error) {
	s.forget()
	s.work.broken = s.work.broken[:0] // none left by a step that failed
	k := &s.work.step
	*k = step{t: s.Time(), h: s.opt.H, th: s.opt.Theta}
	k.stats = StepStats{Step: s.steps + 1, Time: k.t + k.h, MinGap: math.Inf(1)}
	s.inStep = true
	for _, phase := range []func(*step) error{
		s.place,       // the configuration at the start, checked for overlaps and tunnelling
		s.detect,      // the contact units of the elastic and the rigid bodies
		s.impactFirst, // bodies that start touching while approaching
		s.free,        // the bodies' free velocities over the step
		s.impactNow,   // rigid bodies and free masses that touch while approaching
		s.contact,     // the contact impulses, corrected about the predicted end
		s.advance,     // the bodies' end state (Newton's updates re-solve contact)
		s.keepApplied, // what the solve applied leaves: bonds broken, slips
	} {
		if err := phase(k); err != nil {
			return k.stats, err
		}
	}
	s.steps, s.inStep = s.steps+1, false
	k.stats.Units = len(k.units)
	s.iterations(&k.stats)
	s.record(k.units, k.res, k.u0, k.rigid1, k.active, k.push, k.th, &k.stats)
	return k.stats, nil
}

// step is what the phases of one Step hand on to each other.
type step struct {
	t, h, th   float64
	cfg        contact.Config
	units      []contact.Unit // every unit, each source's together, sources in order
	from       []int          // where each source's units start in units, and their end
	v0, vfree  [][]float64    // velocities at the start and free, as contact.Entry.Body indexes them
	vpred      [][]float64    // the predicted end velocities the problem was built on, if any
	prob       *signorini.Problem
	u0, rigid1 [][2]float64
	active     []bool
	push       []bool
	res        *signorini.Result
	stats      StepStats
}

// place expands the bodies' displacements and poses into the start
// configuration, refuses a node deeper than the alert distance or one that
// tunnelled through a boundary since the last step, and notes the deepest.
func (s *Simulation) place(k *step) error {
	s.placeAll()
	k.cfg = s.at.Config(k.t)
	deep := s.Detector.Deepest(k.cfg, s.steps == 0)
	if ov := s.Detector.Missed(deep); len(ov) > 0 {
		return s.overlapError(ov[0], s.steps)
	}
	if s.steps > 0 {
		if ov := s.Detector.Swept(s.prev, k.cfg); len(ov) > 0 {
			return s.sweptError(ov[0], s.steps)
		}
	}
	s.keep(k.cfg)
	for _, o := range deep {
		if o.Depth > k.stats.Deepest.Depth {
			k.stats.Deepest = o
		}
	}
	return nil
}

// detect finds the units of every source.
func (s *Simulation) detect(k *step) error {
	k.from, k.units = append(s.work.from[:0], 0), nil
	for _, src := range s.sources {
		units, minGap, err := src.Detect(k.cfg)
		if err != nil {
			return fmt.Errorf("step %d (t = %g): %w", k.stats.Step, k.t, err)
		}
		k.units = gather(k.units, units)
		k.from = append(k.from, len(k.units))
		k.stats.MinGap = min(k.stats.MinGap, minGap)
	}
	s.work.from = k.from
	s.lawsOf(k)
	k.stats.Units = len(k.units)
	if k.stats.Step == 1 {
		s.InitialPenetration = max(0, -k.stats.MinGap)
		s.bond(k)
	}
	return nil
}

// impactFirst applies the impact of bodies that touch at t = 0 while
// approaching (impact.go).
func (s *Simulation) impactFirst(k *step) error {
	if s.steps > 0 || len(k.units) == 0 {
		return nil
	}
	return s.startImpact(k.units, k.t, k.h, k.th, &k.stats)
}

// free starts the step of every body: its velocity at the start and its
// free velocity.
func (s *Simulation) free(k *step) error {
	var err error
	k.v0, k.vfree, err = s.begin(k.t, k.h, k.th)
	return err
}

// contact builds and solves the contact problem and, when the end it
// predicts is too deep somewhere, detects there and solves again.
func (s *Simulation) contact(k *step) error {
	if err := s.pose(k); err != nil || len(k.units) == 0 {
		return err
	}
	if err := s.solveApply(k, OwnSolve); err != nil {
		return err
	}
	if s.shiftsPush(k) { // the impacts inside the step as the theta-method's (impact.go)
		s.work.noArrival = true
		err := s.resolve(k, ImpactsAtTheta)
		s.work.noArrival = false
		if err != nil {
			return err
		}
	}
	for range maxCorrections {
		vp := s.predict(k.vfree, k.h, k.th)
		units, from, deep, err := s.atEnd(k)
		if err != nil || !deep {
			return err
		}
		k.stats.Corrected++
		k.units, k.from, k.vpred = units, from, vp
		s.lawsOf(k)
		if err := s.resolve(k, AboutTheEnd); err != nil {
			return err
		}
	}
	return nil
}

// atEnd asks every source for its units at the predicted end
// configuration, and whether one is too deep there.
func (s *Simulation) atEnd(k *step) (units []contact.Unit, from []int, deep bool, err error) {
	cfg := s.at.Config(s.endTime())
	from = append(s.work.endFrom[:0], 0)
	for j, src := range s.sources {
		u, d, err := src.AtEnd(cfg, k.units[k.from[j]:k.from[j+1]], k.t)
		if err != nil {
			return nil, nil, false, err
		}
		units = gather(units, u)
		from, deep = append(from, len(units)), deep || d
	}
	// The ranges the step goes on with are the start's storage from now
	// on, and the old start's the next correction's.
	s.work.from, s.work.endFrom = from, s.work.from
	return units, from, deep, nil
}

// gather appends a source's units to those of the sources before it. The
// first source with units lends its storage (a detector's, which it keeps
// until its next detection): a step of one kind's units copies none (a
// fresh slice for a deposit's 2 000 units, and one more about the
// predicted end, was a tenth of its step with their collection). The
// loan is capped, so that the next source's units go to a slice of the
// step's own and never into the lender's storage.
func gather(all, units []contact.Unit) []contact.Unit {
	if len(all) == 0 {
		return units[:len(units):len(units)]
	}
	return append(all, units...)
}

// sourceOf is the source of unit a of the step.
func (s *Simulation) sourceOf(a int) kind.Source { return s.sources[s.sourceIndex(a)] }

// sourceIndex is the place of unit a's source in s.sources.
func (s *Simulation) sourceIndex(a int) int {
	from := s.work.step.from
	j := 0
	for from[j+1] <= a {
		j++
	}
	return j
}

// idOf is unit a's identity across steps: its source's and the source's
// place (lawsOf).
func (s *Simulation) idOf(a int) kind.ID { return s.work.ids[a] }

// pose builds the contact problem of the step's units.
func (s *Simulation) pose(k *step) error {
	var err error
	k.prob, k.u0, k.rigid1, k.active, k.push, err = s.problem(k.units, k.v0, k.vfree, k.vpred, k.t, k.h, k.th)
	return err
}

// solveApply solves the posed problem, for the reason why, and turns its
// impulses into the bodies' generalised impulses.
func (s *Simulation) solveApply(k *step, why SolveReason) error {
	var err error
	if k.res, err = s.solve(k.prob, k.units, why, &k.stats); err != nil {
		return err
	}
	s.impulses(k.units, k.res, k.active)
	return nil
}

// resolve builds the contact problem again (new units, or a new Newton
// tangent) and solves it, for the reason why.
func (s *Simulation) resolve(k *step, why SolveReason) error {
	if err := s.pose(k); err != nil {
		return err
	}
	return s.solveApply(k, why)
}

// advance ends the step of every body under the contact impulses. While
// a body asks for it (a hyperelastic body's Newton update, newton.go), the
// contact problem is solved again on its new tangent.
func (s *Simulation) advance(k *step) error {
	loaded := len(k.units) > 0
	for {
		done := true
		for fi, f := range s.families {
			d, err := f.Advance(s.impulsesOf(fi), loaded)
			if err != nil {
				return err
			}
			done = done && d
		}
		if done {
			break
		}
		k.stats.Newton++
		if loaded {
			if err := s.resolve(k, NewtonTangent); err != nil {
				return err
			}
		}
	}
	for fi, f := range s.families {
		b := s.base[fi]
		if err := f.Finish(s.impulsesOf(fi), s.shift[b:b+f.Len()], loaded, k.stats.Step); err != nil {
			return err
		}
	}
	return nil
}

// impulsesOf is family fi's part of the generalised impulses s.r.
func (s *Simulation) impulsesOf(fi int) [][]float64 {
	b := s.base[fi]
	return s.r[b : b+s.families[fi].Len()]
}

// begin starts the step of every body and returns their velocities at
// the start and their free velocities, indexed like contact.Entry.Body.
func (s *Simulation) begin(t, h, th float64) (v0, vfree [][]float64, err error) {
	w := &s.work
	w.v0, w.vfree = reuse.Zeroed(w.v0, len(s.r)), reuse.Zeroed(w.vfree, len(s.r))
	w.bodyAcc = reuse.Zeroed(w.bodyAcc, len(s.r))
	for fi, f := range s.families {
		if err := f.Begin(kind.Clock{T: t, H: h, Theta: th}); err != nil {
			return nil, nil, err
		}
		for k := range f.Len() {
			v0, vfree := f.Start(k)
			w.start(s.base[fi]+k, v0, vfree)
		}
	}
	return w.v0, w.vfree, nil
}

// maxCorrections bounds the solves about predicted end configurations.
// One is enough where the geometry is smooth; more chatter between frames
// where it is not (measured on the colliding blocks at refine 4: 20 um of
// penetration with one, 222 um with three).
const maxCorrections = 1

// predictTol is the depth, relative to a unit's length, beyond which the
// end configuration predicted by the first solve triggers the second.
const predictTol = 1e-4

// impulses sets s.r to the bodies' generalised impulses of the units,
// and s.shift to those of the units that arrive inside the step times
// their shift coefficients (impact.go).
func (s *Simulation) impulses(units []contact.Unit, res *signorini.Result, active []bool) {
	for i := range s.r {
		clear(s.r[i])
		clear(s.shift[i])
	}
	for a := range units {
		if active[a] {
			P := [2]float64{res.R[2*a], res.R[2*a+1]}
			units[a].AddImpulse(s.r, P)
			if s.work.arrive[a] {
				c := s.work.corr[a]
				units[a].AddImpulse(s.shift, [2]float64{c * P[0], c * P[1]})
			}
		}
	}
	s.rollImpulses(units, res)
}

// placeAll writes every body's current configuration into s.at.
func (s *Simulation) placeAll() {
	for fi, f := range s.families {
		for k := range f.Len() {
			f.Place(k, s.base[fi]+k, &s.at)
		}
	}
}

// predict returns the end velocities the impulses s.r give and sets s.at
// to the end configuration they reach (for finite-element bodies exact on
// the contact DOFs, free elsewhere, and placed on the contact nodes).
func (s *Simulation) predict(vfree [][]float64, h, th float64) [][]float64 {
	if len(s.work.vpred) != len(vfree) {
		s.work.vpred = make([][]float64, len(vfree))
	}
	v := s.work.vpred
	t := s.Time()
	for fi, f := range s.families {
		for k := range f.Len() {
			i := s.base[fi] + k
			v[i] = append(v[i][:0], vfree[i]...)
			f.Predict(k, i, v[i], s.r[i], kind.Clock{T: t, H: h, Theta: th}, &s.at)
		}
	}
	return v
}

// velocities returns the bodies' current velocities, indexed like
// contact.Entry.Body (nil for a driven rigid body).
func (s *Simulation) velocities() [][]float64 { return s.velocitiesTo(nil) }

// velocitiesTo is velocities in dst's storage.
func (s *Simulation) velocitiesTo(dst [][]float64) [][]float64 {
	v := reuse.Zeroed(dst, len(s.r))
	for fi, f := range s.families {
		for k := range f.Len() {
			v[s.base[fi]+k] = f.Current(k)
		}
	}
	return v
}

// family returns the family of global body i and i's index in it.
func (s *Simulation) family(i int) (kind.Family, int) {
	fi := s.familyOf(i)
	return s.families[fi], i - s.base[fi]
}

// familyOf is the index of global body i's family.
func (s *Simulation) familyOf(i int) int {
	fi := len(s.base) - 1
	for s.base[fi] > i {
		fi--
	}
	return fi
}

// bodyMassCompliance is body i's M^-1 on the DOFs contact acts on.
func (s *Simulation) bodyMassCompliance(i int) (Compliance, error) {
	f, k := s.family(i)
	return f.MassCompliance(k)
}

// applyImpact applies the generalised impulses r of an impact between
// steps (or before a step's free velocities are used: impactNow), to the
// bodies it reaches.
func (s *Simulation) applyImpact(r [][]float64) error {
	for fi, f := range s.families {
		for k := range f.Len() {
			if rk := r[s.base[fi]+k]; slices.ContainsFunc(rk, func(x float64) bool { return x != 0 }) {
				if err := f.Impact(k, rk); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
