package cholesky

// The triangular solves with a dense lower triangular L, row-major n x n
// (n = len(x)): a supernode's diagonal block at the head of its panel, or
// the tail L_BB that Tail returns. They do gonum's Dtrsv's operations in
// its order, bit for bit, but four rows at a time: the forward one's dot
// products, one accumulator each, run four chains at once instead of
// waiting on one (the root separator of a 150k-row factor is 1 300
// columns wide), and the backward one loads and stores each x_j once per
// four rows. Neither checks its arguments beyond Go's bounds, as Dtrsv
// does once per call: once per supernode, 51 000 of them in a 150k-row
// factor.

// LowerSolve solves L y = x in place.
func LowerSolve(L, x []float64) {
	n := len(x)
	i := 0
	for ; i+4 <= n; i += 4 {
		r0 := L[i*n : i*n+i]
		r1 := L[(i+1)*n : (i+1)*n+i]
		r2 := L[(i+2)*n : (i+2)*n+i]
		r3 := L[(i+3)*n : (i+3)*n+i]
		var s0, s1, s2, s3 float64
		for j, v := range x[:i] {
			s0 += v * r0[j]
			s1 += v * r1[j]
			s2 += v * r2[j]
			s3 += v * r3[j]
		}
		d := L[i*n+i : (i+3)*n+i+4]
		x0 := (x[i] - s0) / d[0]
		s1 += x0 * d[n]
		x1 := (x[i+1] - s1) / d[n+1]
		s2 += x0 * d[2*n]
		s2 += x1 * d[2*n+1]
		x2 := (x[i+2] - s2) / d[2*n+2]
		s3 += x0 * d[3*n]
		s3 += x1 * d[3*n+1]
		s3 += x2 * d[3*n+2]
		x[i], x[i+1], x[i+2], x[i+3] = x0, x1, x2, (x[i+3]-s3)/d[3*n+3]
	}
	for ; i < n; i++ {
		var s float64
		for j, v := range L[i*n : i*n+i] {
			s += x[j] * v
		}
		x[i] = (x[i] - s) / L[i*n+i]
	}
}

// LowerSolveT solves L' y = x in place.
func LowerSolveT(L, x []float64) {
	n := len(x)
	i := n - 1
	for ; i >= 3; i -= 4 {
		// Rows i, i-1, i-2, i-3 of L, descending: first their own
		// triangle, then their columns j < i-3.
		r0, r1, r2, r3 := L[i*n:i*n+i], L[(i-1)*n:(i-1)*n+i-1], L[(i-2)*n:(i-2)*n+i-2], L[(i-3)*n:(i-3)*n+i-3]
		x0 := x[i] / L[i*n+i]
		x1 := (x[i-1] - r0[i-1]*x0) / L[(i-1)*n+i-1]
		x2 := (x[i-2] - r0[i-2]*x0 - r1[i-2]*x1) / L[(i-2)*n+i-2]
		x3 := (x[i-3] - r0[i-3]*x0 - r1[i-3]*x1 - r2[i-3]*x2) / L[(i-3)*n+i-3]
		x[i], x[i-1], x[i-2], x[i-3] = x0, x1, x2, x3
		r0, r1, r2 = r0[:len(r3)], r1[:len(r3)], r2[:len(r3)]
		for j, v := range r3 {
			x[j] = x[j] - r0[j]*x0 - r1[j]*x1 - r2[j]*x2 - v*x3
		}
	}
	for ; i >= 0; i-- {
		x[i] /= L[i*n+i]
		xi := x[i]
		for j, v := range L[i*n : i*n+i] {
			x[j] -= v * xi
		}
	}
}
