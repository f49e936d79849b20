package timestep

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
)

// What a Simulation reports of its contacts between steps: the units and
// their forces, the pairs' and point contacts' resultants, the depth of
// nodes inside other bodies, and the messages that name an overlap.

// Contacts returns the units of the last step with their impulses: none
// after a step that failed, or after LoadState until the next step. The
// slice is the Simulation's; the next step rewrites it.
func (s *Simulation) Contacts() []ContactState {
	if s.pending {
		n := len(s.work.step.units)
		s.contacts = slices.Grow(s.contacts[:0], n)[:n]
		for a := range n {
			s.contacts[a] = s.stateOf(a)
		}
		if s.work.step.res != nil {
			s.rollMoments(s.work.step.res)
		}
		s.pending = false
	}
	return s.contacts
}

// ContactCount is the number of the last step's units, len(Contacts()),
// without making their states.
func (s *Simulation) ContactCount() int {
	if s.pending {
		return len(s.work.step.units)
	}
	return len(s.contacts)
}

// stateOf is the state of unit a of the last step (record leaves it
// pending), read from what the step left in s.work.
func (s *Simulation) stateOf(a int) ContactState {
	k := &s.work.step
	cs := unitState(&k.units[a], s.sourceOf(a))
	if len(s.bonded) > 0 {
		cs.Bonded = s.bonded[s.idOf(a)]
	}
	if res := k.res; res != nil && k.active[a] {
		cs.Impulse, cs.Status = [2]float64{res.R[2*a], res.R[2*a+1]}, res.Status[a]
		cs.Velocity, cs.Mu = [2]float64{res.U[2*a], res.U[2*a+1]}, s.work.prob.Mu[a]
		if sh := s.work.prob.Shift[a]; !math.IsInf(sh, 0) {
			cs.Velocity[0] += sh
		}
	}
	return cs
}

// unitState is unit u's state before any solve: where it is, on which
// body, with no impulse.
func unitState(u *contact.Unit, src kind.Source) ContactState {
	return ContactState{Key: u.Key, X: u.X, N: u.N, T: u.T, Gap: u.Gap / u.Weight, Weight: u.Weight,
		Body: src.Body(u.Key), Reverse: src.Reverse(u.Key), thickness: src.Thickness(u.Key)}
}

// stateAt is unit a's state, made only if the states are pending.
func (s *Simulation) stateAt(a int) ContactState {
	if s.pending {
		return s.stateOf(a)
	}
	return s.contacts[a]
}

// forget drops the last step's states: a step that begins overwrites
// what they are made from, and a loaded state has none.
func (s *Simulation) forget() {
	s.contacts, s.paired, s.pointed, s.pending = s.contacts[:0], 0, [2]int{}, false
}

// StartContacts sets Contacts, before the first step, to the units found
// in the initial configuration, with no impulse: what a first output frame
// shows (the first step starts from the same detection). After the first
// step it does nothing.
func (s *Simulation) StartContacts() error {
	if s.steps > 0 {
		return nil
	}
	s.placeAll()
	cfg := s.at.Config(s.Time())
	s.contacts = s.contacts[:0]
	for _, src := range s.sources {
		units, _, err := src.Detect(cfg)
		if err != nil {
			return fmt.Errorf("the contacts at the start: %w", err)
		}
		for _, u := range units {
			cs := unitState(&u, src)
			cs.Mu = u.Mu
			s.contacts = append(s.contacts, cs)
		}
	}
	return nil
}

// Force returns the force of a unit of the last step on the body of its
// node (impulse / h, in N per m of thickness: the impulse density times the
// unit's weight, over h and over the candidate's thickness; rigid bodies'
// impulses are per m already).
func (s *Simulation) Force(c ContactState) [2]float64 {
	scale := c.Weight / s.opt.H / c.thickness
	return [2]float64{scale * (c.Impulse[0]*c.N[0] + c.Impulse[1]*c.T[0]), scale * (c.Impulse[0]*c.N[1] + c.Impulse[1]*c.T[1])}
}

// PairForces returns, per contact pair of the detector, the resultant
// force of the last step's contact impulses on the pair's candidate body
// (impulse / h, in N per m of the candidate's thickness) and the number of
// its closed units (P_N > 0). A reverse unit (an antagonist node on the
// candidate's edges) acts on the antagonist: it counts with the opposite
// sign. Rigid bodies' contacts belong to no pair.
func (s *Simulation) PairForces() (force [][2]float64, closed []int) {
	pairs := s.Detector.Pairs
	force, closed = make([][2]float64, len(pairs)), make([]int, len(pairs))
	for a := range s.paired {
		c := s.stateAt(a)
		if c.Impulse[0] <= 0 {
			continue
		}
		f, sign := s.Force(c), 1.0
		if c.Key.Reverse {
			sign = -1
		}
		for k := range 2 {
			force[c.Key.Pair][k] += sign * f[k]
		}
		closed[c.Key.Pair]++
	}
	return force, closed
}

// PointForces returns, per point contact of the point masses
// (discrete.System.Contacts), the resultant force of the last step's
// contact impulses on its masses (impulse / h, N per m) and the number of
// its closed units.
func (s *Simulation) PointForces() (force [][2]float64, closed []int) {
	if s.Points == nil {
		return nil, nil
	}
	n := len(s.Points.Contacts())
	force, closed = make([][2]float64, n), make([]int, n)
	for a := s.pointed[0]; a < s.pointed[1]; a++ {
		c := s.stateAt(a)
		if c.Impulse[0] <= 0 {
			continue
		}
		f := s.Force(c)
		force[c.Key.Pair][0] += f[0]
		force[c.Key.Pair][1] += f[1]
		closed[c.Key.Pair]++
	}
	return force, closed
}

// Describe names a node found inside the other body or the obstacle (a
// StepStats.Deepest): its pair, body and position, and its depth.
func (s *Simulation) Describe(o contact.Overlap) string {
	p := s.Detector.Pairs[o.Pair]
	side, other := p.Candidate, p.Antagonist
	if o.Reverse {
		side, other = other, side
	}
	var inside string
	if other != nil {
		inside = fmt.Sprintf("body %q", s.bodyName(other.Body))
	} else {
		inside = fmt.Sprintf("obstacle %q", p.Obstacle.Name)
	}
	pair := fmt.Sprintf("contact pair %d", o.Pair+1)
	if p.Name != "" {
		pair += fmt.Sprintf(" %q", p.Name)
	}
	return fmt.Sprintf("%s: node %d of body %q, at (%.6g, %.6g), is %.3g m inside %s",
		pair, o.Node, s.bodyName(side.Body), o.X[0], o.X[1], o.Depth, inside)
}

// overlapError describes a node found inside the other body deeper than
// the alert distance: at the start, or after step done steps.
func (s *Simulation) overlapError(o contact.Overlap, done int) error {
	p := s.Detector.Pairs[o.Pair]
	what := fmt.Sprintf("%s, deeper than the alert distance %.3g m, where detection cannot see it", s.Describe(o), p.Alert)
	if done == 0 {
		fix := "move the bodies apart"
		if p.Obstacle != nil && p.Obstacle.Radius == 0 {
			fix = "move the body out of the obstacle, or list the polyline's points the other way round (the obstacle is on their right)"
		}
		return fmt.Errorf("at the start: %s: %s", what, fix)
	}
	return fmt.Errorf("after step %d (t = %.6g s): %s: the contact was missed, the body moved farther than the alert distance in a step (tunnelling): use a smaller h or a larger alert", done, s.Time(), what)
}

// sweptError describes a node that went through the other body or the
// obstacle during step done and ended outside it (contact.Detector.Swept).
func (s *Simulation) sweptError(o contact.Overlap, done int) error {
	return fmt.Errorf("during step %d (to t = %.6g s): %s on its way, deeper than the alert distance %.3g m, and ended outside it: the body went through the other in one step (tunnelling): use a smaller h or a larger alert",
		done, s.Time(), s.Describe(o), s.Detector.Pairs[o.Pair].Alert)
}

// NodeDepths returns, per body (by its global index) and node, how deep
// the node lies inside the other body or the obstacle of a contact pair
// whose side it is on, in the current configuration (0 outside, and for
// nodes of no side; no nodes for a body without a mesh): the measure of
// StepStats.Deepest, node by node, for output (fe.Family.SetDepths). dst
// is reused when it has the shape.
func (s *Simulation) NodeDepths(dst [][]float64) [][]float64 {
	s.placeAll() // placed again at the next step's start
	if len(dst) != len(s.at.Disp) {
		dst = make([][]float64, len(s.at.Disp))
	}
	for i := range dst {
		dst[i] = reuse.Zeroed(dst[i], len(s.at.Disp[i])/2)
	}
	s.Detector.DepthsTo(dst, s.at.Config(s.Time()))
	return dst
}
