package results

import (
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// Snapshot is the deformed node positions of every finite-element body,
// and the outlines of the rigid ones and of the obstacles, at one time:
// what bodies.png draws (Options.Pictures).
type Snapshot struct {
	T         float64
	Meshes    []*mesh.Mesh
	Pos       [][][2]float64  // per body and node
	Rigid     [][][2]float64  // per rigid body (Outline)
	Driven    []bool          // per rigid body
	Obstacles [][][2]float64  // the obstacles' outlines (contact.Obstacle.Outline)
	Masses    [][2]float64    // the point masses' positions
	Springs   [][2][2]float64 // the springs' ends
}

func takeSnapshot(sim *timestep.Simulation) Snapshot {
	s := Snapshot{T: sim.Stepper.Time()}
	for i := 0; i < sim.Stepper.NumBodies(); i++ {
		b := sim.Stepper.Body(i)
		u := b.Displacement()
		m := b.Space.Mesh
		p := make([][2]float64, len(m.Nodes))
		for n, x := range m.Nodes {
			p[n] = [2]float64{x[0] + u[2*n], x[1] + u[2*n+1]}
		}
		s.Meshes = append(s.Meshes, m)
		s.Pos = append(s.Pos, p)
	}
	if sim.Rigid != nil {
		for _, b := range sim.Rigid.Bodies {
			s.Rigid = append(s.Rigid, Outline(b))
			s.Driven = append(s.Driven, b.Driven())
		}
	}
	for _, o := range obstacles(sim) {
		s.Obstacles = append(s.Obstacles, o.Outline(s.T))
	}
	if p := sim.Points; p != nil {
		for _, m := range p.Masses {
			s.Masses = append(s.Masses, m.X)
		}
		for k := range p.Springs() {
			a, b := p.Ends(k)
			s.Springs = append(s.Springs, [2][2]float64{a, b})
		}
	}
	return s
}
