package explore_test

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/explore"
	"github.com/fecontact/fecontact/rigid"
)

// The forces that may hold a grain on two fixed grains ([M04]'s grain 1):
// equilibrium leaves one degree of freedom, so each contact's admissible
// forces are a segment, which the linear programs give exactly (by hand:
// R_T from -mu m g / (2 (cos b - mu sin b)) to mu m g / (2 (cos b + mu
// sin b)) with sin b = 0.6, m g = 77.05 N/m).
func ExampleSurvey_Admissible() {
	const r, d = 0.05, 0.06
	a, _ := rigid.NewBody("A", rigid.Disk{R: r}, [2]float64{-d, 0}, 0)
	b, _ := rigid.NewBody("B", rigid.Disk{R: r}, [2]float64{d, 0}, 0)
	a.Motion, b.Motion = contact.Fixed{}, contact.Fixed{}
	top, _ := rigid.NewBody("top", rigid.Disk{R: r}, [2]float64{0, math.Sqrt(4*r*r - d*d)}, 1000)
	top.Gravity = [2]float64{0, -9.81}
	sys, _ := rigid.NewSystem([]*rigid.Body{a, b, top}, []rigid.Rule{{Mu: 0.3}}, 0)

	s, err := explore.New(sys, 1e-3)
	if err != nil {
		fmt.Println(err)
		return
	}
	set, _ := s.Admissible(0)
	fmt.Printf("%d contacts; at the first, (R_T, R_N) from (%.2f, %.2f) to (%.2f, %.2f) N/m\n",
		len(s.Units), set[0][0], set[0][1], set[1][0], set[1][1])
	// Output: 2 contacts; at the first, (R_T, R_N) from (-18.64, 62.14) to (11.79, 39.31) N/m
}
