package timestep

import (
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
)

// What a Simulation reports of its contacts between steps: the units and
// their forces, the pairs' and point contacts' resultants, the depth of
// nodes inside other bodies, and the messages that name an overlap.

// Contacts returns the units of the last step with their impulses.
func (s *Simulation) Contacts() []ContactState { return s.contacts }

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
			s.contacts = append(s.contacts, ContactState{Key: u.Key, X: u.X, N: u.N, T: u.T, Gap: u.Gap / u.Weight, Weight: u.Weight, Mu: u.Mu,
				Body: src.Body(u.Key), Reverse: src.Reverse(u.Key), thickness: src.Thickness(u.Key)})
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
	for _, c := range s.contacts[:s.paired] {
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
	for _, c := range s.contacts[s.pointed[0]:s.pointed[1]] {
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
