package discrete_test

import (
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/mesh"
)

// BenchmarkDetect: 200 point masses over the top of a 200-cell-wide
// elastic block, all within reach: a detection places the side once for
// all the masses of a contact, not once per mass.
func BenchmarkDetect(b *testing.B) {
	m, err := mesh.Rectangle([2]float64{0, -0.1}, 2, 0.1, 200, 4, mesh.Q4)
	if err != nil {
		b.Fatal(err)
	}
	space, err := assemble.NewSpace(m)
	if err != nil {
		b.Fatal(err)
	}
	top, err := contact.NewSide(0, m, space.DOFs, "top", 1)
	if err != nil {
		b.Fatal(err)
	}
	var masses []*discrete.Mass
	for i := range 200 {
		masses = append(masses, &discrete.Mass{Name: "m", M: 1, X: [2]float64{0.005 + 0.01*float64(i), 1e-4}})
	}
	sys, err := discrete.NewSystem(masses, nil, []discrete.Contact{{Name: "top", Side: top, Alert: 1e-3}})
	if err != nil {
		b.Fatal(err)
	}
	if err := sys.Prepare(1e-4, 0.5); err != nil {
		b.Fatal(err)
	}
	cfg := contact.Config{Disp: [][]float64{make([]float64, 2*len(m.Nodes))}}
	for b.Loop() {
		units, _, err := sys.Detect(1, cfg)
		if err != nil || len(units) != 200 {
			b.Fatalf("%d units, %v", len(units), err)
		}
	}
}
