package run

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// balanceError reports the energy ledger's error in joules and, when the
// run has an energy scale (the initial energy or the external work, the
// larger), relative to it: a body that starts at rest unloaded has none.
func balanceError(err, e0, external float64) string {
	scale := math.Max(math.Abs(e0), math.Abs(external))
	if scale == 0 {
		return fmt.Sprintf("balance error %.2g J", err)
	}
	return fmt.Sprintf("balance error %.2g J, %.2g relative to %.6g J (the initial energy or the external work, the larger)", err, math.Abs(err)/scale, scale)
}

// Stats accumulate the steps' statistics for a run's summary.
type Stats struct {
	// ContactSteps counts the steps with a contact unit; Units and Sweeps
	// are summed over them.
	ContactSteps, Units, Sweeps int
	// Deepest is the step of the deepest node inside the other body.
	Deepest timestep.StepStats

	maxSweeps, unconverged            int
	steps, newton, maxNewton, factors int
	minGap, maxResidual               float64
	init                              bool
	warnings                          []string // said during the run (Simulation.Warnings)
	// The certificate: Newton's iterations of the contact solves, the
	// worst step by residual, by relative complementarity gap and by cone
	// violation, and the first step that missed its tolerance.
	contactNewton, newtonSteps         int
	dynamic, stickAttempts             int // unit-steps at mu_dynamic, units solved again at mu
	solves                             [timestep.NumSolveReasons]timestep.SolveCount
	worstResidual, worstGap, worstCone timestep.StepStats
	firstUnconverged                   timestep.StepStats
}

// Add takes a step's statistics.
func (s *Stats) Add(st timestep.StepStats) {
	if !s.init {
		s.minGap, s.init = math.Inf(1), true
	}
	if st.Units > 0 {
		s.ContactSteps++
		s.Units += st.Units
		s.Sweeps += st.Sweeps
		s.maxSweeps = max(s.maxSweeps, st.Sweeps)
		s.maxResidual = math.Max(s.maxResidual, st.Residual)
		if !st.Converged {
			if s.unconverged == 0 {
				s.firstUnconverged = st
			}
			s.unconverged++
		}
		s.certify(st)
	}
	s.minGap = math.Min(s.minGap, st.MinGap)
	if st.Deepest.Depth > s.Deepest.Deepest.Depth {
		s.Deepest = st
	}
	s.steps++
	s.newton += st.NewtonIterations
	s.maxNewton = max(s.maxNewton, st.NewtonIterations)
	s.factors += st.Factorisations
}

// certify keeps the worst steps of the certificate.
func (s *Stats) certify(st timestep.StepStats) {
	s.dynamic += st.Dynamic
	s.stickAttempts += st.StickAttempts
	for r, c := range st.Solves {
		s.solves[r].Solves += c.Solves
		s.solves[r].Sweeps += c.Sweeps
	}
	s.contactNewton += st.ContactNewton
	if st.ContactNewton > 0 {
		s.newtonSteps++
	}
	if st.Residual > s.worstResidual.Residual {
		s.worstResidual = st
	}
	if st.ComplementarityRel > s.worstGap.ComplementarityRel {
		s.worstGap = st
	}
	if st.ConeViolation > s.worstCone.ConeViolation {
		s.worstCone = st
	}
}

// printCertificate says how well every contact step was solved.
func (s *Stats) printCertificate(w io.Writer, solver scene.Solver) {
	method := solver.Method
	if method == "" {
		method = "auto"
	}
	how := fmt.Sprintf("%s solved by %s", plural.S(s.ContactSteps, "step"), method)
	if s.newtonSteps > 0 {
		how += fmt.Sprintf(" (%d of them finished by Newton's method, %.1f iterations each)", s.newtonSteps, float64(s.contactNewton)/float64(s.newtonSteps))
	}
	verdict := "every one to its tolerance"
	if s.unconverged > 0 {
		f := s.firstUnconverged
		verdict = fmt.Sprintf("%d NOT to their tolerance, the first at step %d (t = %.6g s, residual %.3g)", s.unconverged, f.Step, f.Time, f.Residual)
	}
	fmt.Fprintf(w, "certificate: %s, %s; worst residual %.3g (step %d, t = %.6g s), complementarity gap %.3g J = %.3g of the contact power (step %d), cone violation %.3g (step %d)\n",
		how, verdict, s.worstResidual.Residual, s.worstResidual.Step, s.worstResidual.Time,
		s.worstGap.Complementarity, s.worstGap.ComplementarityRel, s.worstGap.Step, s.worstCone.ConeViolation, s.worstCone.Step)
	if s.dynamic+s.stickAttempts > 0 {
		fmt.Fprintf(w, "friction: %s slid on at mu_dynamic; %s whose slip turned back in its step solved again at mu (static and dynamic friction)\n",
			plural.S(s.dynamic, "unit-step"), plural.S(s.stickAttempts, "unit"))
	}
}

// solveWords say what each reason's solves are, in the summary.
var solveWords = [timestep.NumSolveReasons]string{
	timestep.OwnSolve:       "of the steps' own problems",
	timestep.StartImpact:    "impacts at a step's start",
	timestep.StickAttempt:   "again at mu where a slip turned back",
	timestep.ImpactsAtTheta: "again with the impacts inside the step at the theta-method's time",
	timestep.AboutTheEnd:    "again about the predicted end",
	timestep.NewtonTangent:  "again on a hyperelastic body's Newton tangent",
}

// printSolves says where the sweeps went, reason by reason, when the run
// solved more than its steps' own problems.
func (s *Stats) printSolves(w io.Writer) {
	if s.solves[timestep.OwnSolve].Solves == s.totalSolves() {
		return
	}
	var parts []string
	for r, c := range s.solves {
		if c.Solves > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", c.Solves, solveWords[r], plural.S(c.Sweeps, "sweep")))
		}
	}
	fmt.Fprintf(w, "solves: %s\n", strings.Join(parts, ", "))
}

// totalSolves is the number of contact solves of the run.
func (s *Stats) totalSolves() int {
	n := 0
	for _, c := range s.solves {
		n += c.Solves
	}
	return n
}

// unconvergedAdvice says what to change when the solver stops at its
// limit: Newton's iterations under method "newton", NLGS's sweeps
// otherwise. The default measure's 1e-8 is a relative residual in mixed units,
// out of reach where the tangential impulses of a load-sharing rigid
// assembly are not unique (the pillar: 33 of 3 000 steps unconverged at
// 605 sweeps a step), while a bound on the contacts' velocity change
// converges there (0 of 3 000 at 120 sweeps a step with 1e-4).
func unconvergedAdvice(solver scene.Solver) string {
	if solver.Method == "newton" {
		n := 100
		if solver.NewtonIterations != nil {
			n = *solver.NewtonIterations
		}
		return fmt.Sprintf("raise [solver] newton_iterations (%d), or the tolerance; or method = \"auto\", which hands a problem Newton stalls on to NLGS", n)
	}
	if solver.Measure == "velocity" {
		return "raise [solver] max_sweeps, or the tolerance"
	}
	return `[solver] measure = "velocity" with tolerance = 1e-5 bounds the change of the contacts' velocities (LMGC90's "Quad", dimensionless) and converges where the residual's 1e-8, in mixed units, is out of reach, as on rigid assemblies that share a load (the rigid examples ship with it); or raise max_sweeps`
}

// penetrationRoundOff is the initial penetration that is only round-off
// (blocks stacked on computed coordinates): a tenth of a nanometre.
const penetrationRoundOff = 1e-10

// print writes the summary's figures; wrote names the files of the run
// (its series by their .pvd).
func (s *Stats) print(w io.Writer, sim *timestep.Simulation, solver scene.Solver, e0 float64, steps int, elapsed time.Duration, dir string, wrote []string) {
	e := sim.TotalEnergy()
	fmt.Fprintf(w, "done: %s in %.2f s (%.3g ms per step)\n", plural.S(steps, "step"), elapsed.Seconds(), 1e3*elapsed.Seconds()/float64(steps))
	if s.ContactSteps > 0 {
		fmt.Fprintf(w, "contact: %d steps with contact, %.1f units and %.1f sweeps per such step (max %d), largest residual %.2g, %d unconverged\n",
			s.ContactSteps, float64(s.Units)/float64(s.ContactSteps), float64(s.Sweeps)/float64(s.ContactSteps), s.maxSweeps, s.maxResidual, s.unconverged)
		s.printCertificate(w, solver)
		s.printSolves(w)
	}
	if s.newton > 0 {
		fmt.Fprintf(w, "Newton: %.2f iterations per step (max %d), %.2f factorisations of the hyperelastic bodies' tangents per step\n",
			float64(s.newton)/float64(s.steps), s.maxNewton, float64(s.factors)/float64(s.steps))
	}
	if !math.IsInf(s.minGap, 1) {
		fmt.Fprintf(w, "smallest gap of a candidate node: %.3g m\n", s.minGap)
	}
	if d := s.Deepest; d.Deepest.Depth > 0 {
		fmt.Fprintf(w, "deepest node inside the other body or obstacle: at the start of step %d, %s\n", d.Step, sim.Describe(d.Deepest))
	}
	for _, m := range s.warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
	if s.unconverged > 0 {
		limit := "sweep"
		if solver.Method == "newton" {
			limit = "iteration"
		}
		fmt.Fprintf(w, "warning: %d contact steps reached the %s limit before the tolerance and went on with the solver's last iterate: %s\n", s.unconverged, limit, unconvergedAdvice(solver))
	}
	if sim.InitialPenetration > penetrationRoundOff {
		fmt.Fprintf(w, "warning: the bodies start interpenetrated by up to %.3g m; the contact law pushed them apart (push-out work)\n", sim.InitialPenetration)
	}
	fmt.Fprintf(w, "energy: kinetic %.6g J, elastic %.6g J, friction work %.6g J, contact-law work %.6g J, push-out work %.6g J, numerical %.6g J; %s\n",
		e.Kinetic, e.Elastic, sim.FrictionWork, sim.NormalWork, sim.PushOutWork, e.Numerical, balanceError(e.Balance()-e0, e0, e.External))
	fmt.Fprintf(w, "wrote %s: %s\n", dir, strings.Join(wrote, ", "))
}
