package timestep

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/signorini"
)

// The step's contact solve: warm-started from the last step's impulses,
// certified (certify) and recorded into the contacts the Simulation
// reports.

// solve runs NLGS warm-started from the last solve's impulses of the same
// units (the step before's, or those of a solve of this step it
// replaces), each unit at the coefficient its slip in the step before
// gives it, for the reason why.
func (s *Simulation) solve(p *signorini.Problem, units []contact.Unit, why SolveReason, stats *StepStats) (*signorini.Result, error) {
	opt := s.opt.Solver
	opt.Start = signorini.Warm
	s.work.warm = reuse.Zeroed(s.work.warm, len(p.Q))
	opt.Warm = s.work.warm
	opt.Reuse = &s.work.res
	for a := range units {
		w := s.work.last[a]
		opt.Warm[2*a], opt.Warm[2*a+1] = w.p[0]+s.work.coh[a], w.p[1] // r' of a bond (cohesion.go)
	}
	s.rollWarm(units, opt.Warm)
	res, err := s.solveOne(p, opt, why, stats)
	if err == nil {
		if n := s.frictionChanged(p, units, res); n > 0 {
			// Solved again with the static coefficient where a unit that
			// slid turned its slip back (section 6: a stick attempt at mu).
			stats.StickAttempts = n
			opt.Warm = append(opt.Warm[:0], res.R...)
			res, err = s.solveOne(p, opt, StickAttempt, stats)
		}
	}
	if errors.Is(err, signorini.ErrNotConverged) {
		s.Unconverged++
		if s.opt.Strict {
			return nil, fmt.Errorf("step %d (t = %g): %w (the run stops here: strict)", stats.Step, stats.Time, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("step %d (t = %g): %w", stats.Step, stats.Time, err)
	}
	stats.Dynamic = 0 // the solve applied's: the step's last
	for a, u := range units {
		if u.MuDynamic != u.Mu && p.Mu[a] == u.MuDynamic {
			stats.Dynamic++
		}
	}
	stats.Residual, stats.Converged = max(res.Residual, stats.impactResidual), err == nil && !stats.impactUnconverged
	certify(p, res, stats)
	s.work.slipTol = slipTol(p, res.U, s.work.uf)
	s.uncohere(res, s.work.slipTol)
	s.warm.reset(s.work.ids[:len(units)])
	for a := range units {
		// The impulses warm-start the next solve, a step's again too;
		// whether a unit slid, which picks its coefficient, stays the
		// step before's until the step knows the solve it applies
		// (keepApplied): a solve the step replaces leaves no slip.
		last := s.work.last[a]
		s.warm.set(a, warmStart{p: [2]float64{res.R[2*a], res.R[2*a+1]}, slid: last.slid, forward: last.forward})
	}
	s.rollKeep(units, res)
	return res, nil
}

// solveOne solves one of the step's contact problems, shown first to
// OnProblem, and counts its sweeps and Newton iterations in stats, its
// sweeps under why too: every solve of a step counts (a step solved
// again, with its impacts at the theta-method's time, about its predicted
// end, on a Newton update's tangent, at the static coefficient, reported
// the last solve's sweeps alone, and the impact at its start's were not
// counted at all).
func (s *Simulation) solveOne(p *signorini.Problem, opt signorini.Options, why SolveReason, stats *StepStats) (*signorini.Result, error) {
	if s.opt.OnProblem != nil {
		if err := s.opt.OnProblem(stats.Step, p); err != nil {
			return nil, err
		}
	}
	res, err := signorini.Solve(p, opt)
	stats.Solves[why].Solves++
	if res != nil {
		stats.Sweeps += res.Sweeps
		stats.Solves[why].Sweeps += res.Sweeps
		stats.ContactNewton += res.NewtonIterations
	}
	return res, err
}

// keepApplied keeps what the solve the step applied leaves to the next
// step, and only that: the bonds it broke (uncohere), and whether each
// of its units slid, and which way (its coefficient next, mu or
// mu_dynamic, and a stick attempt's test). A solve the step replaced (about
// its predicted end, with its impacts at the theta-method's time, on a
// Newton tangent) leaves neither: its slip gave the solve after it
// mu_dynamic, and a mass at rest under static friction slid.
func (s *Simulation) keepApplied(k *step) error {
	s.breakBonds()
	if k.res == nil {
		return nil
	}
	for a := range k.units {
		ut := k.res.U[2*a+1]
		s.warm.setSlip(a, slides(k.res.Status[a], ut, s.work.slipTol), ut > 0)
	}
	return nil
}

// warmStart is what a unit's solve leaves to the next: its impulses (the
// warm start), whether it slid (its friction coefficient next, mu) and
// which way, and its rolling row's impulse.
type warmStart struct {
	p             [2]float64
	slid, forward bool
	roll          float64 // its rolling row's moment impulse (rolling.go)
}

// slipTol is the slip below which a unit is taken to stick: 1e-9 of the
// step's velocity scale, the largest free or solved local velocity (uf
// the normal free velocities before a cohesion's change of variables,
// which nearly cancels them in a bond that just holds). A block at rest
// on two corners has one on the cone's edge with a slip of round-off
// (8.7e-19 m/s), which took the dynamic coefficient next step and let the
// block slide off a 20 degree incline that mu = 0.5 holds.
func slipTol(p *signorini.Problem, u, uf []float64) float64 {
	var scale float64
	for i, q := range p.Q[:2*len(uf)] { // the units' (not the rolling rows', in rad/s)
		scale = max(scale, math.Abs(q), math.Abs(u[i]), math.Abs(uf[i/2]))
	}
	return 1e-9 * scale
}

// slides tells whether a unit of status st and slip ut slid: a slip
// beyond round-off (tol, slipTol's) on the cone's edge.
func slides(st signorini.Status, ut, tol float64) bool {
	return (st == signorini.SlideForward || st == signorini.SlideBackward) && math.Abs(ut) > tol
}

// frictionChanged gives the units that took their dynamic coefficient
// (they slid in the last step) and now slip the other way their static
// one in p, and counts them: their slip stopped and turned in
// the step, a stick attempt at mu (a mass pushed up a slope slid back down
// at mu_dynamic after stopping). One that sticks at mu_dynamic sticks at
// mu too: its solution holds the static law as it is.
func (s *Simulation) frictionChanged(p *signorini.Problem, units []contact.Unit, res *signorini.Result) int {
	// slipTol's, a pass over every unit, taken at the first unit at its
	// dynamic coefficient: a pile with none does not pay it.
	tol := math.NaN()
	changed := 0
	for a := range units {
		u := &units[a]
		if u.MuDynamic == u.Mu || p.Mu[a] != u.MuDynamic {
			continue
		}
		if math.IsNaN(tol) {
			tol = slipTol(p, res.U, s.work.uf)
		}
		ut := res.U[2*a+1]
		if math.Abs(ut) > tol && (ut > 0) != s.work.last[a].forward {
			p.Mu[a] = u.Mu
			changed++
		}
	}
	return changed
}

// certify measures how well the solve applied holds the laws: the
// complementarity gap of its impulses and velocities, and the cone
// violation of its impulses (StepStats).
func certify(p *signorini.Problem, res *signorini.Result, stats *StepStats) {
	c := signorini.Certify(p, res.R, res.U)
	stats.Complementarity, stats.ComplementarityRel, stats.ConeViolation = c.Complementarity, c.ComplementarityRel, c.ConeViolation
}

// record books the works of contact and counts the units by status. The
// units' states, which outputs read, are made when asked (Contacts), from
// what the step leaves in s.work: a pile's 2 000 states made at every step
// for the one in a thousand that writes them were 6 % of its step.
func (s *Simulation) record(units []contact.Unit, res *signorini.Result, u0, rigid1 [][2]float64, active, push []bool, th float64, stats *StepStats) {
	s.work.v1 = s.velocitiesTo(s.work.v1)
	v1 := s.work.v1
	for a := range units {
		u := &units[a]
		status := signorini.Open
		if res != nil && active[a] {
			status = res.Status[a]
			P := [2]float64{res.R[2*a], res.R[2*a+1]}
			U1 := u.Velocity(v1)
			U1[0] += rigid1[a][0] - u.Rigid[0]
			U1[1] += rigid1[a][1] - u.Rigid[1]
			var rt [2]float64
			for c := 0; c < 2; c++ {
				ut := th*U1[c] + (1-th)*u0[a][c]
				rt[c] = th*rigid1[a][c] + (1-th)*u.Rigid[c]
				if s.work.arrive[a] { // the impact's own work (impact.go)
					cf := s.work.corr[a]
					ut -= cf * s.work.acc[a][c]
					rt[c] -= cf * (s.work.acc[a][c] - s.work.accBody[a][c])
				}
				switch {
				case c == 0 && push[a]:
					stats.PushOutWork += P[0] * ut
				case c == 0:
					stats.NormalWork += P[0] * ut
				default:
					stats.FrictionWork += P[1] * ut
				}
			}
			stats.ObstacleWork -= P[0]*rt[0] + P[1]*rt[1]
		}
		switch status {
		case signorini.Open:
			stats.Open++
		case signorini.Stick:
			stats.Stick++
		default:
			stats.Slide++
		}
	}
	if res != nil {
		stats.FrictionWork += s.rollWork(units, res, v1, th)
	}
	s.pending = true
	s.paired = s.work.step.from[1]
	s.pointed = [2]int{s.work.step.from[2], s.work.step.from[3]}
	s.NormalWork += stats.NormalWork
	s.PushOutWork += stats.PushOutWork
	s.FrictionWork += stats.FrictionWork
	s.ObstacleWork += stats.ObstacleWork
}
