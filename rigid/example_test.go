package rigid_test

import (
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// A block set on a fixed ground: the system detects the contacts of its
// two bottom corners, each a unit whose rows act on the block's x, y and
// rotation (the ground, driven, has none), and gives the block's
// compliance on them, M^-1.
func ExampleSystem_Detect() {
	groundShape, _ := rigid.Rectangle(2, 0.2)
	ground, _ := rigid.NewBody("ground", groundShape, [2]float64{0, -0.1}, 0)
	ground.Motion = contact.Fixed{}
	boxShape, _ := rigid.Rectangle(0.4, 0.2)
	box, _ := rigid.NewBody("box", boxShape, [2]float64{0, 0.1}, 2500)
	box.Gravity = [2]float64{0, -9.81}
	sys, err := rigid.NewSystem([]*rigid.Body{ground, box}, []rigid.Rule{{Mu: 0.5, Law: contact.Shock}}, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	units, _ := sys.Detect(0)
	for _, u := range units {
		fmt.Printf("at (%.1f, %.1f): gap %.1f m, normal (%.0f, %.0f), %d entries\n", u.X[0], u.X[1], u.Gap, u.N[0], u.N[1], len(u.Entries))
	}
	_, c := sys.Compliance(1)
	fmt.Printf("box: mass %.0f kg per m, 1/m = %.4g\n", box.Mass, c[0])
	// Output:
	// at (-0.2, 0.0): gap 0.0 m, normal (0, 1), 3 entries
	// at (0.2, 0.0): gap 0.0 m, normal (0, 1), 3 entries
	// box: mass 200 kg per m, 1/m = 0.005
}
