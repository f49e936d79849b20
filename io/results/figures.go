package results

import (
	"math"

	"github.com/fecontact/fecontact/timestep"
)

// Figures are the figures of a run that a parameter study compares,
// gathered step by step as the Writer records them (Writer.Figures).
type Figures struct {
	// ContactDuration is the time from the first to the last step with a
	// closed unit, of any kind of body (s).
	ContactDuration float64
	// PeakForce is the largest total contact force of the [[contact]]
	// pairs and the [[point_contact]]s over the steps (N per m of
	// thickness); NaN without either: the rigid bodies' contacts among
	// themselves are in no pair.
	PeakForce float64
	// KineticStart is the kinetic energy of the initial state; Kinetic and
	// Elastic are the energies at the end (J).
	KineticStart, Kinetic, Elastic float64
	// The works at the end (J): of the contact law, of friction, and the
	// scheme's numerical dissipation.
	ContactLawWork, FrictionWork, NumericalDissipation float64
	// SurfaceAngle is the free surface's mean angle over the granular
	// window (degrees; [output] granular's surface), NaN without one.
	SurfaceAngle float64

	first, last int // the first and the last step with a closed unit; -1: none
}

// KineticRatio is the kinetic energy at the end over the initial one; NaN
// for a run that starts at rest.
func (f Figures) KineticRatio() float64 {
	if f.KineticStart <= 0 {
		return math.NaN()
	}
	return f.Kinetic / f.KineticStart
}

// newFigures starts the figures of a run with this many contact pairs and
// point contacts (none: no peak force).
func newFigures(pairs int) Figures {
	f := Figures{first: -1, last: -1}
	if pairs == 0 {
		f.PeakForce = math.NaN()
	}
	return f
}

// add takes a recorded step: its statistics, energies and the pairs' and
// point contacts' resultant forces (PairForces, PointForces).
func (f *Figures) add(st timestep.StepStats, h float64, e timestep.Energy, sim *timestep.Simulation, force [][2]float64) {
	if st.Step == 0 {
		f.KineticStart = e.Kinetic
	}
	if st.Stick+st.Slide > 0 {
		if f.first < 0 {
			f.first = st.Step
		}
		f.last = st.Step
		f.ContactDuration = float64(f.last-f.first+1) * h
	}
	if len(force) > 0 {
		var sum [2]float64
		for _, p := range force {
			sum[0], sum[1] = sum[0]+p[0], sum[1]+p[1]
		}
		f.PeakForce = math.Max(f.PeakForce, math.Hypot(sum[0], sum[1]))
	}
	f.Kinetic, f.Elastic = e.Kinetic, e.Elastic
	f.ContactLawWork, f.FrictionWork, f.NumericalDissipation = sim.NormalWork, sim.FrictionWork, e.Numerical
}

// SweepFigure is the figure a parameter study's picture plots: its name
// and unit, and how a variant's Figures give it.
type SweepFigure struct {
	Name, Unit string
	Of         func(Figures) float64
}

// SweepFigures are the figures a study's picture may plot, the first a
// study's every variant has: a heap's surface angle (a study of grains
// with [output] granular's surface), else the contact duration.
var SweepFigures = []SweepFigure{
	{"surface angle", "deg", func(f Figures) float64 { return f.SurfaceAngle }},
	{"contact duration", "s", func(f Figures) float64 { return f.ContactDuration }},
}
