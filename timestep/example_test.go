package timestep_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// The colliding blocks of [JM91] section 9 built in Go: two meshes, their
// spaces (the lower block clamped along its bottom), two bodies, a contact
// pair of the upper block's bottom against the lower block's top (law,
// basis and alert distance left to their defaults), the simulation, and
// the files `fecontact run` writes (bodies.pvd, contacts.pvd, history.csv,
// the plots) over 750 steps of 1 us.
func ExampleSimulation() {
	steel := element.Elastic{E: 1300e6, Nu: 0.2, Rho: 7800}
	ml, _ := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 30, 10, mesh.Q4)
	mu, _ := mesh.Rectangle([2]float64{0.07, 0.0405}, 0.04, 0.04, 10, 10, mesh.Q4)
	sl, _ := assemble.NewSpace(ml, assemble.Fix{Group: "bottom", Comp: assemble.XY})
	su, _ := assemble.NewSpace(mu)
	lower, _ := fe.NewBody("lower", sl, steel, fe.BodyOptions{})
	upper, _ := fe.NewBody("upper", su, steel, fe.BodyOptions{})
	upper.SetVelocity(func([2]float64) [2]float64 { return [2]float64{-75, -50} })

	cand, _ := upper.Side("bottom")
	ant, _ := lower.Side("top")
	det, _ := contact.NewDetector(&contact.Pair{Name: "blocks", Candidate: cand, Antagonist: ant, Mu: 0.1})
	sim, err := timestep.NewSimulation([]*fe.Body{lower, upper}, det, timestep.SimOptions{H: 1e-6})
	if err != nil {
		fmt.Println(err)
		return
	}

	dir, _ := os.MkdirTemp("", "blocks")
	defer os.RemoveAll(dir)
	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer files.Close()
	out, err := results.NewWriter(files, sim, results.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = out.Record(timestep.StepStats{}, true) // the initial state
	for i := 1; i <= 750; i++ {
		st, err := sim.Step()
		if err != nil {
			fmt.Println(out.Abandon(err))
			return
		}
		_ = out.Record(st, i%50 == 0)
	}
	if err := out.Close(); err != nil {
		fmt.Println(err)
		return
	}

	v := upper.Velocity() // 2 per node
	var vx, vy float64
	for n := 0; n < len(v)/2; n++ {
		vx, vy = vx+v[2*n], vy+v[2*n+1]
	}
	n := float64(len(v) / 2)
	fmt.Printf("upper block leaves at (%.1f, %.1f) m/s; friction took %.2f kJ\n", vx/n, vy/n, -sim.FrictionWork/1e3)
	// Output: upper block leaves at (-65.4, 39.9) m/s; friction took 7.26 kJ
}

// A body of a caller's own matrices: here a Q4 block whose mass matrix is
// lumped by the caller's kernel (a quarter of each cell's mass at each
// node) and whose stiffness is the package's, assembled by the same loop
// on a space without fixes, whose equations are all the DOFs 2*node+c (a
// body with supports takes the same full matrices and its own space).
// Gravity is M g: in free fall, the block's velocity after t is g t.
func ExampleNewBodyFromMatrices() {
	rubber := element.Elastic{E: 5e6, Nu: 0.45, Rho: 1100}
	m, _ := mesh.Rectangle([2]float64{0, 0}, 0.1, 0.05, 10, 5, mesh.Q4)
	space, _ := assemble.NewSpace(m)
	K, _ := space.Stiffness(rubber)
	M, _ := space.Assemble(func(c int, X [][2]float64, me []float64) error {
		quarter := rubber.Rho * m.Area(c) / 4 // thickness 1 m
		for i := range me {
			if i%(2*len(X)+1) == 0 { // the diagonal of the 8 x 8 matrix
				me[i] = quarter
			}
		}
		return nil
	})
	body, err := fe.NewBodyFromMatrices("block", space, M, K, fe.BodyOptions{Gravity: [2]float64{0, -9.81}})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, _ := fe.NewStepper(1e-4, 0.5, body)
	for i := 0; i < 100; i++ {
		_ = st.Step()
	}
	fmt.Printf("after %.2f s the block falls at %.4f m/s\n", st.Time(), body.Velocity()[1])
	// Output: after 0.01 s the block falls at -0.0981 m/s
}

// A simulation saved between two steps (SaveState) and loaded into one
// built the same way (LoadState) goes on bit for bit: here a point mass
// bouncing on a spring above a floor, 300 steps, saved, loaded into a
// second simulation, then 300 more in both.
func ExampleSimulation_SaveState() {
	build := func() *timestep.Simulation {
		bob := &discrete.Mass{Name: "bob", M: 1, X: [2]float64{0, 0.1}, Gravity: [2]float64{0, -9.81}}
		floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
		sys, _ := discrete.NewSystem([]*discrete.Mass{bob},
			[]discrete.Spring{{Name: "s", A: 0, B: discrete.Anchored, Anchor: [2]float64{0, 0.5}, K: 20}},
			[]discrete.Contact{{Name: "floor", Obstacle: floor, Mu: 0.3}})
		sim, _ := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Points: sys})
		return sim
	}
	a := build()
	for range 300 {
		a.Step()
	}
	var state bytes.Buffer
	if err := a.SaveState(&state); err != nil {
		fmt.Println(err)
		return
	}
	b := build()
	if err := b.LoadState(&state); err != nil {
		fmt.Println(err)
		return
	}
	for range 300 {
		a.Step()
		b.Step()
	}
	fmt.Println(a.Points.Masses[0].X == b.Points.Masses[0].X, a.TotalEnergy() == b.TotalEnergy())
	// Output: true true
}
