package timestep_test

import (
	"fmt"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// The colliding blocks of seeds/000, section 9, built in Go: two meshes,
// their spaces (the lower block clamped along its bottom), two bodies, a
// contact pair of the upper block's bottom against the lower block's top,
// and the simulation; then 750 steps of 1 us.
func ExampleSimulation() {
	steel := element.Elastic{E: 1300e6, Nu: 0.2, Rho: 7800}
	ml, _ := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 30, 10, mesh.Q4)
	mu, _ := mesh.Rectangle([2]float64{0.07, 0.0405}, 0.04, 0.04, 10, 10, mesh.Q4)
	sl, _ := assemble.NewSpace(ml, assemble.Fix{Group: "bottom", Comp: assemble.XY})
	su, _ := assemble.NewSpace(mu)
	lower, _ := timestep.NewBody("lower", sl, steel, timestep.Options{})
	upper, _ := timestep.NewBody("upper", su, steel, timestep.Options{})
	upper.SetVelocity(func([2]float64) [2]float64 { return [2]float64{-75, -50} })

	cand, _ := contact.NewSide(1, mu, su.DOFs, "bottom", 1) // body 1: upper
	ant, _ := contact.NewSide(0, ml, sl.DOFs, "top", 1)
	det, _ := contact.NewDetector(&contact.Pair{Candidate: cand, Antagonist: ant, Mu: 0.1, Alert: 2e-3})
	sim, err := timestep.NewSimulation([]*timestep.Body{lower, upper}, det, timestep.SimOptions{H: 1e-6, Theta: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 750; i++ {
		if _, err := sim.Step(); err != nil {
			fmt.Println(err)
			return
		}
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
