package timestep

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// An impact at the start of a run.
//
// The theta-method moves a body by h (theta v_end + (1 - theta) v_start):
// the velocity it had before the step carries it a part of the step. A
// body that starts touching another one (gap 0) while moving into it
// (the bar against a wall, the block dropped on a floor, as users write
// them) would be carried h (1 - theta) |U_N| inside by the velocity it
// cannot keep; the positional law then holds the next mid configuration
// out and throws it back at (1 - theta)/theta of its speed, half of it at
// theta = 1/2 (issue 28). A body arriving from a gap never meets this: the
// step before contact already stops it, so that every unit the law held
// starts the next step with a mid-configuration gap >= 0.
//
// So the first step resolves the impact at t = 0 first, as a velocity jump
// with the bodies' masses: M (v+ - v-) = H P with the units' laws on the
// velocities after it (U+_N + e U-_N >= 0 complementary to P_N >= 0, e
// the shock law's restitution, 0 under the positional law; Coulomb on
// U+_T + e U-_T), the units that touch (mid-configuration gap <= 0) taking
// part. It changes nothing where no unit is both touching and
// approaching. Its work, P . (U- + U+)/2 per unit, is exactly the change
// of the kinetic energy it causes and is booked as contact work of the
// first step.

// massCompliance returns the compliance M^-1 of body i's contact DOFs,
// factorising M on the first call: the response of the body to an impact,
// which lasts no time, so that neither stiffness nor damping acts.
func (s *Stepper) massCompliance(i int) (Compliance, error) {
	st := s.bodies[i]
	if st.mfactor == nil {
		f, err := st.b.Space.FactorLast(st.b.M, st.nodes)
		if err != nil {
			return Compliance{}, fmt.Errorf("body %s: factorising M for an impact at the start: %w", st.b.Name, err)
		}
		c, rows, err := f.TailCompliance(len(st.eqB))
		if err == nil && !slices.Equal(rows, st.eqB) {
			err = errors.New("the contact boundary is not last in its order")
		}
		if err != nil {
			return Compliance{}, fmt.Errorf("body %s: the mass compliance of the contact boundary: %w", st.b.Name, err)
		}
		st.mfactor, st.mcomp = f, c
	}
	return Compliance{Eqs: st.eqB, C: st.mcomp}, nil
}

// impact applies a generalised impulse r to body i at the current time,
// between steps: v += M^-1 r. The body's contact work grows by
// r . (v- + v+)/2, its kinetic energy by as much.
func (s *Stepper) impact(i int, r []float64) error {
	if s.stage != 0 {
		return errors.New("timestep: an impact inside a step")
	}
	st := s.bodies[i]
	b := st.b
	st.mfactor.SolveTo(st.dv, r)
	var work float64
	for k := range b.V {
		work += r[k] * (b.V[k] + st.dv[k]/2)
		b.V[k] += st.dv[k]
	}
	st.energy.Contact += work
	return st.start()
}

// startImpact resolves the impact at t = 0 of units that touch while
// approaching (see above) before the first step's free velocities are
// computed, and adds its works to stats.
func (s *Simulation) startImpact(units []contact.Unit, t, h, th float64, stats *StepStats) error {
	v := s.velocities()
	n := len(units)
	e, shift, mu := make([]float64, n), make([]float64, n), make([]float64, n)
	approaching := false
	for a := range units {
		u := &units[a]
		ul := s.lawOf(a, u)
		e[a], mu[a] = ul.ShockRestitution(), s.mu(a, u)
		// Round-off gaps (within the slop) are gaps of zero: disks laid
		// touching at 0.1 + 0.2 are 2.8e-17 apart. A unit whose impact
		// inside the step is resolved when it comes (arrival.go) takes
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
	if err := s.impactOn(units, impactTerms{e: e, shift: shift, mu: mu}, d, stats); err != nil {
		return fmt.Errorf("the impact at t = %g of the bodies that start touching: %w", t, err)
	}
	return nil
}

// impactTerms are the laws of an impact's units, one entry a unit: their
// restitutions, shifts and friction coefficients, each read by the
// caller from the unit's place among the step's units (an impact's units
// are a subset of them, whose own places name other sources).
type impactTerms struct {
	e, shift, mu []float64
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
		q[2*a], q[2*a+1] = (1+law.e[a])*u0[a][0], (1+law.e[a])*u0[a][1]
	}
	p := &signorini.Problem{Q: q, Mu: law.mu, Shift: law.shift}
	var err error
	if p.W, err = d.Build(units); err != nil {
		return err
	}
	opt := s.opt.Solver
	opt.Start, opt.Warm, opt.Reuse = signorini.Zero, nil, nil
	res, err := signorini.Solve(p, opt)
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
