package timestep

import "github.com/fecontact/fecontact/kind"

// The simulation's clock: it owns the time, the step and theta, and gives
// them to every family at the step's start (kind.Clock); no kind keeps a
// clock the others follow.

// Time is the simulation's time: the end of the last step taken, the step
// count times h (t = 12 s after 12 000 steps of 1 ms, not a sum of steps
// 11.99999999999871: the time of pieces and history rows, and of the
// configuration a step predicts it ends in, which the next one starts in).
func (s *Simulation) Time() float64 { return float64(s.steps) * s.opt.H }

// H is the simulation's time step.
func (s *Simulation) H() float64 { return s.opt.H }

// Theta is the theta-method's parameter.
func (s *Simulation) Theta() float64 { return s.opt.Theta }

// Steps is the number of steps taken.
func (s *Simulation) Steps() int { return s.steps }

// endTime is the time the step under way ends at.
func (s *Simulation) endTime() float64 { return float64(s.steps+1) * s.opt.H }

// iterations puts the iterating families' counts of the step into stats.
func (s *Simulation) iterations(stats *StepStats) {
	for _, f := range s.families {
		if it, ok := f.(kind.Iterated); ok {
			stats.NewtonIterations = max(stats.NewtonIterations, it.Iterations())
			stats.Factorisations += it.Factorisations()
		}
	}
}

// Warnings are the families' warnings (kind.Warner) not given before,
// each once: a linear body turned past small rotations, whose
// small-strain model is then wrong without an error. A run asks on the
// fields' stride (every [output] every steps, and at its last).
func (s *Simulation) Warnings() []string {
	var out []string
	for _, f := range s.families {
		w, ok := f.(kind.Warner)
		if !ok {
			continue
		}
		for _, x := range w.Warnings(s.Time()) {
			if !s.warned[x.Key] {
				s.warned[x.Key] = true
				out = append(out, x.Text)
			}
		}
	}
	return out
}
