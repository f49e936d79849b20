package run

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// SummaryJSON is summary.txt's typed twin in a run's folder: every figure
// a number with its unit, for programs (the Python package's Run.summary);
// docs/guide.md, Outputs, gives its schema.
const SummaryJSON = "summary.json"

// Quantity is a figure and its unit ("" for a pure number).
type Quantity struct {
	Value Number `json:"value"`
	Unit  string `json:"unit"`
}

// AtStep is a figure of one step: the step, the time it ended, the value.
type AtStep struct {
	Step  int      `json:"step"`
	Time  Quantity `json:"time"`
	Value Quantity `json:"value"`
}

// Summary is what summary.json holds; a figure summary.txt leaves out is
// absent (nil).
type Summary struct {
	Format      int           `json:"format"` // the outputs' format (results.Format)
	Interrupted bool          `json:"interrupted"`
	MadeBy      string        `json:"made_by"`
	Started     string        `json:"started"` // RFC 3339
	Command     string        `json:"command"`
	Scene       string        `json:"scene"`
	SceneAsRun  string        `json:"scene_as_run"`
	Steps       int           `json:"steps"` // done
	StepsAsked  int           `json:"steps_asked"`
	Time        Quantity      `json:"time"` // reached
	Elapsed     Quantity      `json:"elapsed"`
	PerStep     Quantity      `json:"per_step"`
	Contact     *Contact      `json:"contact,omitempty"`
	Newton      *Newton       `json:"newton,omitempty"`
	MinGap      *Quantity     `json:"min_gap,omitempty"`
	Deepest     *Deepest      `json:"deepest,omitempty"`
	Energy      Energy        `json:"energy"`
	Warnings    []string      `json:"warnings"`
	Files       []string      `json:"files"`
	Cost        Cost          `json:"cost"`
	Granular    *GranularLine `json:"granular,omitempty"` // with [output] granular
}

// GranularLine is the summary's granular line: the grains' means over the
// window's output times, named as granular.csv's columns (Means nil when
// no output time fell in the window).
type GranularLine struct {
	Times int            `json:"times"` // the output times in the window
	From  Quantity       `json:"from"`  // the window's start
	Means *GranularMeans `json:"means,omitempty"`
}

// GranularMeans are the means the granular line prints.
type GranularMeans struct {
	Grains           Number   `json:"grains"`
	Rattlers         Number   `json:"rattlers"`
	Z                Number   `json:"Z"`
	ZNoRattlers      Number   `json:"Z_no_rattlers"`
	Z2NcNg           Number   `json:"Z_2Nc_Ng"`
	Z2NcNgNoRattlers Number   `json:"Z_2Nc_Ng_no_rattlers"`
	SolidFraction    Number   `json:"solid_fraction"`
	Anisotropy       Number   `json:"anisotropy"`
	FabricAngle      Quantity `json:"fabric_angle"`
	Pressure         Quantity `json:"pressure"`
	Deviator         Quantity `json:"deviator"`
	MeanFn           Quantity `json:"mean_fn"`
	Mobilised        Number   `json:"mobilised"`
	Sliding          Number   `json:"sliding"`
	// The free surface's angle and RMS about its line, with [output]
	// granular's surface.
	SurfaceAngle *Quantity `json:"surface_angle,omitempty"`
	SurfaceRMS   *Quantity `json:"surface_rms,omitempty"`
}

// granularOf is a series' granular line as figures (nil without one).
func granularOf(sr *granular.Series) *GranularLine {
	if sr == nil {
		return nil
	}
	m, n := sr.Mean()
	g := &GranularLine{Times: n, From: q(sr.Options.From, "s")}
	if n > 0 {
		g.Means = &GranularMeans{Grains: Number(m.Grains), Rattlers: Number(m.Rattlers), Z: Number(m.Z), ZNoRattlers: Number(m.ZNoRattlers),
			Z2NcNg: Number(m.Z2), Z2NcNgNoRattlers: Number(m.Z2NoRattlers), SolidFraction: Number(m.SolidFraction),
			Anisotropy: Number(m.Anisotropy), FabricAngle: q(m.FabricAngle*180/math.Pi, "deg"), Pressure: q(m.Pressure, "Pa"),
			Deviator: q(m.Deviator, "Pa"), MeanFn: q(m.MeanFn, "N/m"), Mobilised: Number(m.Mobilised), Sliding: Number(m.Sliding)}
		if sr.Options.Surface != [2]float64{} {
			angle, rms := sr.SurfaceMean()
			g.Means.SurfaceAngle, g.Means.SurfaceRMS = qp(angle, "deg"), qp(rms, "m")
		}
	}
	return g
}

// Contact is the contact steps and their certificate.
type Contact struct {
	Steps                   int               `json:"steps"`
	UnitsPerStep            Number            `json:"units_per_step"`
	SweepsPerStep           Number            `json:"sweeps_per_step"`
	MaxSweeps               int               `json:"max_sweeps"`
	LargestResidual         Number            `json:"largest_residual"`
	Unconverged             int               `json:"unconverged"`
	Method                  string            `json:"method"`
	NewtonSteps             int               `json:"newton_steps"`
	NewtonIterationsPerStep Number            `json:"newton_iterations_per_step"`
	WorstResidual           AtStep            `json:"worst_residual"`
	WorstComplementarity    AtStep            `json:"worst_complementarity"`
	WorstComplementarityRel Number            `json:"worst_complementarity_rel"`
	WorstConeViolation      AtStep            `json:"worst_cone_violation"`
	FirstUnconverged        *AtStep           `json:"first_unconverged,omitempty"`
	DynamicUnitSteps        int               `json:"dynamic_unit_steps"` // unit-steps at mu_dynamic (sliding on)
	StickAttempts           int               `json:"stick_attempts"`     // units solved again at mu, their slip having turned back
	Solves                  map[string]Solves `json:"solves"`             // by the reason each was made (timestep.SolveReason's names), every reason listed
	Advice                  string            `json:"advice,omitempty"`   // what to change when some did not converge
}

// Solves is a number of contact solves and their sweeps.
type Solves struct {
	Solves int `json:"solves"`
	Sweeps int `json:"sweeps"`
}

// Newton is the hyperelastic bodies' Newton iterations.
type Newton struct {
	IterationsPerStep     Number `json:"iterations_per_step"`
	MaxIterations         int    `json:"max_iterations"`
	FactorisationsPerStep Number `json:"factorisations_per_step"`
}

// Deepest is the deepest node inside another body or an obstacle.
type Deepest struct {
	Step  int      `json:"step"`
	Depth Quantity `json:"depth"`
	Where string   `json:"where"`
}

// Energy is the ledger at the end and its balance error (the drift of
// the total energy since step 0), absolute and relative to Scale (the
// initial energy or the external work, the larger; absent when both are
// 0).
type Energy struct {
	Kinetic              Quantity  `json:"kinetic"`
	Elastic              Quantity  `json:"elastic"`
	FrictionWork         Quantity  `json:"friction_work"`
	ContactLawWork       Quantity  `json:"contact_law_work"`
	PushOutWork          Quantity  `json:"push_out_work"`
	Numerical            Quantity  `json:"numerical"`
	BalanceError         Quantity  `json:"balance_error"`
	BalanceErrorRelative *Number   `json:"balance_error_relative,omitempty"`
	Scale                *Quantity `json:"scale,omitempty"`
}

// Cost is the run's cost: per step, against one solve of every body with
// the same factors (absent without finite-element bodies), and the peak
// resident memory (absent where the system does not say).
type Cost struct {
	PerStep    Quantity  `json:"per_step"`
	Solve      *Quantity `json:"solve,omitempty"`
	SolveRatio *Number   `json:"solve_ratio,omitempty"`
	PeakMemory *Quantity `json:"peak_memory,omitempty"`
}

// Number is a figure in JSON: a number, or the string "+Inf", "-Inf" or
// "NaN", which JSON has no numbers for (a gap never measured, a ledger
// that overflowed) and Python's float() reads.
type Number float64

// MarshalJSON writes a finite number as a number, the others as strings.
func (n Number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (n *Number) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		f, err := strconv.ParseFloat(s, 64)
		*n = Number(f)
		return err
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = Number(f)
	return err
}

func q(v float64, unit string) Quantity { return Quantity{Number(v), unit} }

func qp(v float64, unit string) *Quantity { return &Quantity{Number(v), unit} }

func atStep(st timestep.StepStats, v float64, unit string) AtStep {
	return AtStep{Step: st.Step, Time: q(st.Time, "s"), Value: q(v, unit)}
}

// summaryOf builds summary.json's figures from what summary.txt prints.
func (s *Stats) summaryOf(sim *timestep.Simulation, solver scene.Solver, e0 float64, steps int, elapsed time.Duration, wrote []string) Summary {
	e := sim.TotalEnergy()
	per := elapsed.Seconds() / float64(max(steps, 1))
	out := Summary{Format: results.Format, Steps: steps, Time: q(sim.Time(), "s"), Elapsed: q(elapsed.Seconds(), "s"),
		PerStep: q(per, "s"), Warnings: append([]string{}, s.warnings...), Files: append([]string{}, wrote...)}
	if s.ContactSteps > 0 {
		out.Contact = s.contactOf(solver)
	}
	if s.newton > 0 {
		out.Newton = &Newton{Number(float64(s.newton) / float64(s.steps)), s.maxNewton, Number(float64(s.factors) / float64(s.steps))}
	}
	if !math.IsInf(s.minGap, 1) {
		out.MinGap = qp(s.minGap, "m")
	}
	if d := s.Deepest; d.Deepest.Depth > 0 {
		out.Deepest = &Deepest{Step: d.Step, Depth: q(d.Deepest.Depth, "m"), Where: sim.Describe(d.Deepest)}
	}
	bal := e.Balance() - e0
	out.Energy = Energy{Kinetic: q(e.Kinetic, "J"), Elastic: q(e.Elastic, "J"), FrictionWork: q(sim.FrictionWork, "J"),
		ContactLawWork: q(sim.NormalWork, "J"), PushOutWork: q(sim.PushOutWork, "J"), Numerical: q(e.Numerical, "J"), BalanceError: q(bal, "J")}
	if scale := math.Max(math.Abs(e0), math.Abs(e.External)); scale > 0 {
		rel := Number(math.Abs(bal) / scale)
		out.Energy.BalanceErrorRelative, out.Energy.Scale = &rel, qp(scale, "J")
	}
	return out
}

func (s *Stats) contactOf(solver scene.Solver) *Contact {
	method := solver.Method
	if method == "" {
		method = "auto"
	}
	c := &Contact{Steps: s.ContactSteps, UnitsPerStep: Number(float64(s.Units) / float64(s.ContactSteps)),
		SweepsPerStep: Number(float64(s.Sweeps) / float64(s.ContactSteps)), MaxSweeps: s.maxSweeps, LargestResidual: Number(s.maxResidual),
		Unconverged: s.unconverged, Method: method, NewtonSteps: s.newtonSteps, DynamicUnitSteps: s.dynamic, StickAttempts: s.stickAttempts,
		WorstResidual:           atStep(s.worstResidual, s.worstResidual.Residual, ""),
		WorstComplementarity:    atStep(s.worstGap, s.worstGap.Complementarity, "J"),
		WorstComplementarityRel: Number(s.worstGap.ComplementarityRel),
		WorstConeViolation:      atStep(s.worstCone, s.worstCone.ConeViolation, "")}
	c.Solves = map[string]Solves{}
	for r, n := range s.solves {
		c.Solves[timestep.SolveReason(r).String()] = Solves{n.Solves, n.Sweeps}
	}
	if s.newtonSteps > 0 {
		c.NewtonIterationsPerStep = Number(float64(s.contactNewton) / float64(s.newtonSteps))
	}
	if s.unconverged > 0 {
		f := atStep(s.firstUnconverged, s.firstUnconverged.Residual, "")
		c.FirstUnconverged, c.Advice = &f, unconvergedAdvice(solver)
	}
	return c
}

// peakKB is PeakMemory as a number of kB, false where it is unknown.
func peakKB(s string) (float64, bool) {
	v, ok := strings.CutSuffix(s, " kB")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return n, err == nil
}

func writeSummaryJSON(w io.Writer, s Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
