package signorini_test

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/signorini"
)

// A contact problem solved on its own: two contacts of a block pressed
// onto a table, coupled through W (row-major, normal then tangent per
// contact), u = W r + q, Coulomb friction mu = 0.3 at both.
func ExampleNLGS() {
	W := &signorini.Dense{N: 2, Data: []float64{
		2, 0.5, 1, 0,
		0.5, 1, 0, 0,
		1, 0, 2, -0.5,
		0, 0, -0.5, 1,
	}}
	p := &signorini.Problem{W: W, Q: []float64{-1, 0.3, -1, -0.3}, Mu: []float64{0.3, 0.3}}
	res, err := signorini.NLGS(p, signorini.Options{Tol: 1e-12})
	if err != nil {
		fmt.Println(err)
		return
	}
	for a := 0; a < 2; a++ {
		fmt.Printf("contact %d: %v, r = (%.4f, %.4f), u_T = %.4f, u_N closed: %v\n",
			a, res.Status[a], res.R[2*a], res.R[2*a+1], res.U[2*a+1], math.Abs(res.U[2*a]) < 1e-12)
	}
	// By hand: both slide outwards with r_N (2 + 1 - 0.3 x 0.5) = 1, r_N =
	// 0.3509, r_T = -+0.3 r_N, u_T = 0.3 + (0.5 - 0.3) r_N = 0.3702.
	fmt.Println("residual below 1e-12:", res.Residual < 1e-12)
	// Output:
	// contact 0: slide+, r = (0.3509, -0.1053), u_T = 0.3702, u_N closed: true
	// contact 1: slide-, r = (0.3509, 0.1053), u_T = -0.3702, u_N closed: true
	// residual below 1e-12: true
}
