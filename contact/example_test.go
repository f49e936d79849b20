package contact_test

import (
	"fmt"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/mesh"
)

// Two blocks, the upper 10 um above the lower: a pair of their facing
// sides gives a unit per node of the upper block's bottom within the
// alert distance, with its gap, its normal towards the candidate, and its
// weight (the node's share of the contact surface, m^2 per m of
// thickness here), and the depth measure finds no node inside.
func ExampleDetector_Detect() {
	lower, _ := mesh.Rectangle([2]float64{0, 0}, 0.3, 0.1, 6, 2, mesh.Q4)
	upper, _ := mesh.Rectangle([2]float64{0.1, 0.1 + 1e-5}, 0.1, 0.1, 2, 2, mesh.Q4)
	dl, _ := assemble.NewDOFMap(lower, nil)
	du, _ := assemble.NewDOFMap(upper, nil)
	cand, _ := contact.NewSide(1, upper, du, "bottom", 1)
	ant, _ := contact.NewSide(0, lower, dl, "top", 1)
	det, err := contact.NewDetector(&contact.Pair{Name: "blocks", Candidate: cand, Antagonist: ant, Mu: 0.3, Alert: 1e-4})
	if err != nil {
		fmt.Println(err)
		return
	}
	units, _, _ := det.Detect(contact.Config{})
	for _, u := range units {
		fmt.Printf("node %d at x = %.2f: gap %.3g m, normal (%.0f, %.0f), weight %.3g m^2\n", u.Key.Node, u.X[0], u.Gap/u.Weight, u.N[0], u.N[1], u.Weight)
	}
	fmt.Printf("deepest: %g m\n", det.Deepest(contact.Config{}, false)[0].Depth)
	// Output:
	// node 0 at x = 0.10: gap 1e-05 m, normal (0, 1), weight 0.025 m^2
	// node 1 at x = 0.15: gap 1e-05 m, normal (0, 1), weight 0.05 m^2
	// node 4 at x = 0.20: gap 1e-05 m, normal (0, 1), weight 0.025 m^2
	// deepest: 0 m
}
