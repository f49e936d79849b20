package results

import (
	"math"

	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// Snapshot is the kinds' shapes (kind.Drawn: finite-element bodies'
// meshes, rigid outlines, springs, point masses) and the obstacles'
// outlines, at one time: what bodies.png draws (Options.Pictures).
type Snapshot struct {
	T         float64
	Shapes    []kind.Shape   // kind by kind
	Obstacles [][][2]float64 // the obstacles' outlines (contact.Obstacle.Outline)
	// Arrows are the contact forces on the finite-element bodies' and the
	// point masses' nodes (N per m of thickness), where they act; Chains
	// the normal forces between rigid bodies, from centre to centre (to
	// the contact point on a driven body or across a periodic boundary),
	// summed per pair of bodies: a granular medium's force chains.
	Arrows []Arrow
	Chains []Chain
}

// Arrow is a contact force F at a point.
type Arrow struct{ At, F [2]float64 }

// Chain is a normal contact force of magnitude F between points A and B.
type Chain struct {
	A, B [2]float64
	F    float64
}

func takeSnapshot(sim *timestep.Simulation) Snapshot {
	s := Snapshot{T: sim.Time()}
	for _, d := range sim.Drawn() {
		s.Shapes = d.Shapes(s.Shapes)
	}
	for _, o := range obstacles(sim) {
		s.Obstacles = append(s.Obstacles, o.Outline(s.T))
	}
	s.Arrows, s.Chains = contactForces(sim)
	return s
}

// contactForces returns the last step's closed units as arrows (elastic
// bodies, point masses) and chains (rigid bodies).
func contactForces(sim *timestep.Simulation) ([]Arrow, []Chain) {
	var arrows []Arrow
	type pair struct {
		a, b  int
		image bool
	}
	chains := map[pair]*Chain{}
	var order []pair
	for _, c := range sim.Contacts() {
		if c.Impulse[0] <= 0 {
			continue
		}
		f := sim.Force(c)
		if c.Key.Pair >= 0 || sim.Rigid == nil {
			arrows = append(arrows, Arrow{At: c.X, F: f})
			continue
		}
		k := pair{c.Key.A, c.Key.B, c.Key.Reverse}
		ch, ok := chains[k]
		if !ok {
			ch = chain(sim.Rigid.Bodies[k.a], sim.Rigid.Bodies[k.b], c.X, k.image)
			chains[k] = ch
			order = append(order, k)
		}
		ch.F += math.Hypot(f[0], f[1])
	}
	out := make([]Chain, len(order))
	for i, k := range order {
		out[i] = *chains[k]
	}
	return arrows, out
}

// chain is the line of a force between rigid bodies a and b touching at
// x: from centre to centre, or from the centre of a free body to x where
// the other is driven (a ground's centre is anywhere), where b is met
// across a periodic boundary (image), or where they lie farther apart
// than the two can reach.
func chain(a, b *rigid.Body, x [2]float64, image bool) *Chain {
	ca, cb := [2]float64{a.Q[0], a.Q[1]}, [2]float64{b.Q[0], b.Q[1]}
	far := image || math.Hypot(ca[0]-cb[0], ca[1]-cb[1]) > 1.5*(a.Shape.Radius()+b.Shape.Radius())
	switch {
	case b.Driven() || (far && math.Hypot(ca[0]-x[0], ca[1]-x[1]) <= 1.5*a.Shape.Radius()):
		return &Chain{A: ca, B: x}
	case a.Driven() || far:
		return &Chain{A: x, B: cb}
	}
	return &Chain{A: ca, B: cb}
}
