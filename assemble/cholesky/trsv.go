package cholesky

// The triangular solves with a supernode's diagonal block L11 (row-major,
// lower, nc x nc at the head of its panel). They do gonum's Dtrsv's
// operations in its order, bit for bit, but four rows at a time: the
// forward one's dot products, one accumulator each, run four chains at
// once instead of waiting on one (the root separator of a 150k-row factor
// is 1 300 columns wide), and the backward one loads and stores each x_j
// once per four rows. Neither checks its arguments, as Dtrsv does once per
// call: once per supernode, 51 000 of them in a 150k-row factor.

// lowerSolve solves L11 y = xs in place.
func lowerSolve(p, xs []float64) {
	nc := len(xs)
	i := 0
	for ; i+4 <= nc; i += 4 {
		r0 := p[i*nc : i*nc+i]
		r1 := p[(i+1)*nc : (i+1)*nc+i]
		r2 := p[(i+2)*nc : (i+2)*nc+i]
		r3 := p[(i+3)*nc : (i+3)*nc+i]
		var s0, s1, s2, s3 float64
		for j, v := range xs[:i] {
			s0 += v * r0[j]
			s1 += v * r1[j]
			s2 += v * r2[j]
			s3 += v * r3[j]
		}
		d := p[i*nc+i : (i+3)*nc+i+4]
		x0 := (xs[i] - s0) / d[0]
		s1 += x0 * d[nc]
		x1 := (xs[i+1] - s1) / d[nc+1]
		s2 += x0 * d[2*nc]
		s2 += x1 * d[2*nc+1]
		x2 := (xs[i+2] - s2) / d[2*nc+2]
		s3 += x0 * d[3*nc]
		s3 += x1 * d[3*nc+1]
		s3 += x2 * d[3*nc+2]
		xs[i], xs[i+1], xs[i+2], xs[i+3] = x0, x1, x2, (xs[i+3]-s3)/d[3*nc+3]
	}
	for ; i < nc; i++ {
		var s float64
		for j, v := range p[i*nc : i*nc+i] {
			s += xs[j] * v
		}
		xs[i] = (xs[i] - s) / p[i*nc+i]
	}
}

// lowerSolveT solves L11' x = xs in place.
func lowerSolveT(p, xs []float64) {
	nc := len(xs)
	i := nc - 1
	for ; i >= 3; i -= 4 {
		// Rows i, i-1, i-2, i-3 of L11, descending: first their own
		// triangle, then their columns j < i-3.
		r0, r1, r2, r3 := p[i*nc:i*nc+i], p[(i-1)*nc:(i-1)*nc+i-1], p[(i-2)*nc:(i-2)*nc+i-2], p[(i-3)*nc:(i-3)*nc+i-3]
		x0 := xs[i] / p[i*nc+i]
		x1 := (xs[i-1] - r0[i-1]*x0) / p[(i-1)*nc+i-1]
		x2 := (xs[i-2] - r0[i-2]*x0 - r1[i-2]*x1) / p[(i-2)*nc+i-2]
		x3 := (xs[i-3] - r0[i-3]*x0 - r1[i-3]*x1 - r2[i-3]*x2) / p[(i-3)*nc+i-3]
		xs[i], xs[i-1], xs[i-2], xs[i-3] = x0, x1, x2, x3
		r0, r1, r2 = r0[:len(r3)], r1[:len(r3)], r2[:len(r3)]
		for j, v := range r3 {
			xs[j] = xs[j] - r0[j]*x0 - r1[j]*x1 - r2[j]*x2 - v*x3
		}
	}
	for ; i >= 0; i-- {
		xs[i] /= p[i*nc+i]
		xi := xs[i]
		for j, v := range p[i*nc : i*nc+i] {
			xs[j] -= v * xi
		}
	}
}
