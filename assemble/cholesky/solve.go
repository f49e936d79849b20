package cholesky

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// SolveTo solves A x = b into dst (len n); dst and b may be the same slice.
// It allocates nothing after the first call on a Factor and must not be
// called from several goroutines at once on one Factor.
func (f *Factor) SolveTo(dst, b []float64) {
	n := f.sym.n
	if len(dst) != n || len(b) != n {
		panic(fmt.Sprintf("cholesky: SolveTo with len(dst) = %d, len(b) = %d for n = %d", len(dst), len(b), n))
	}
	if cap(f.work) < n {
		f.work = make([]float64, n)
	}
	x := f.work[:n]
	for k, p := range f.sym.perm {
		x[k] = b[p]
	}
	f.forward(x)
	f.backward(x)
	for k, p := range f.sym.perm {
		dst[p] = x[k]
	}
}

// Solve returns the solution of A x = b.
func (f *Factor) Solve(b []float64) []float64 {
	x := make([]float64, len(b))
	f.SolveTo(x, b)
	return x
}

// forward solves L y = x in place, supernode by supernode.
func (f *Factor) forward(x []float64) {
	if p := f.plan(); p != nil {
		f.forwardParallel(x, p)
		return
	}
	for k := 0; k+1 < len(f.sym.first); k++ {
		f.forwardNode(x, k, nil, nil)
	}
}

// forwardNode solves supernode k's diagonal block and updates the rows
// below it; with inTop set, the updates of top columns are appended to log
// instead (see forwardParallel), and log is returned. Each row below is
// updated once, so their order is free: that of the panel. The top rows
// come first there: the rows below k are columns of its ancestors, in
// descending order, and the ancestors in top are those above the first one
// in it (top is closed upwards). Each row's sum is formed from zero in
// column order, as a plain dot product would.
func (f *Factor) forwardNode(x []float64, k int, inTop []bool, log []update) []update {
	s := f.sym
	fc, nc := s.first[k], s.first[k+1]-s.first[k]
	p := f.panel[k]
	xs := x[fc : fc+nc]
	below := s.belowOf(k)
	if nc == 2 { // the nested dissection's leaves
		return forwardPair(x, xs, p, below, k, inTop, log)
	}
	LowerSolve(p, xs)
	q := p[nc*nc:]
	t := 0
	for ; inTop != nil && t < len(below) && inTop[below[t]]; t++ {
		var d float64
		for c, v := range q[t*nc : (t+1)*nc] {
			d += v * xs[c]
		}
		log = append(log, update{int32(k), below[t], d})
	}
	forwardRows(x, xs, q[t*nc:], below[t:])
	return log
}

// forwardPair is forwardNode for a supernode of two columns, with the two
// unknowns in registers (the diagonal solve is LowerSolve's operations).
func forwardPair(x, xs, p []float64, below []int32, k int, inTop []bool, log []update) []update {
	x0 := xs[0] / p[0]
	var s float64
	s += x0 * p[2]
	x1 := (xs[1] - s) / p[3]
	xs[0], xs[1] = x0, x1
	q := p[4 : 4+2*len(below)]
	j := 0
	for ; inTop != nil && j < len(below) && inTop[below[j]]; j++ {
		var d float64
		d += q[2*j] * x0
		d += q[2*j+1] * x1
		log = append(log, update{int32(k), below[j], d})
	}
	for ; j < len(below); j++ {
		var d float64
		d += q[2*j] * x0
		d += q[2*j+1] * x1
		x[below[j]] -= d
	}
	return log
}

// forwardRows subtracts from x the products of the rows below a
// supernode, q in the panel's order, with its solved part xs, four rows
// at a time: the four sums share each load of xs and do not wait on one
// another.
func forwardRows(x, xs, q []float64, below []int32) {
	nc := len(xs)
	j := 0
	for ; j+4 <= len(below); j += 4 {
		r0 := q[j*nc : (j+1)*nc]
		r1 := q[(j+1)*nc : (j+2)*nc][:len(r0)]
		r2 := q[(j+2)*nc : (j+3)*nc][:len(r0)]
		r3 := q[(j+3)*nc : (j+4)*nc][:len(r0)]
		var d0, d1, d2, d3 float64
		for c, v := range xs[:len(r0)] {
			d0 += r0[c] * v
			d1 += r1[c] * v
			d2 += r2[c] * v
			d3 += r3[c] * v
		}
		x[below[j]] -= d0
		x[below[j+1]] -= d1
		x[below[j+2]] -= d2
		x[below[j+3]] -= d3
	}
	for ; j < len(below); j++ {
		var d float64
		for c, v := range q[j*nc : (j+1)*nc] {
			d += v * xs[c]
		}
		x[below[j]] -= d
	}
}

// backward solves L' x = y in place.
func (f *Factor) backward(x []float64) {
	if p := f.plan(); p != nil {
		f.backwardParallel(x, p)
		return
	}
	for k := len(f.sym.first) - 2; k >= 0; k-- {
		f.backwardNode(x, k)
	}
}

// backwardNode subtracts the known rows below supernode k from its
// columns and solves its diagonal block. The rows are taken in ascending
// order (the last slot of the panel first), four at a time.
func (f *Factor) backwardNode(x []float64, k int) {
	s := f.sym
	fc, nc := s.first[k], s.first[k+1]-s.first[k]
	p := f.panel[k]
	xs := x[fc : fc+nc]
	switch {
	case nc == 2: // the nested dissection's leaves
		a0, a1 := columnPair(x, xs[0], xs[1], p[4:], s.belowOf(k), 2)
		// LowerSolveT's operations, in registers.
		x1 := a1 / p[3]
		a0 -= p[2] * x1
		xs[0], xs[1] = a0/p[0], x1
		return
	case nc <= narrow:
		backwardNarrow(x, xs, p[nc*nc:], s.belowOf(k))
	default:
		backwardWide(x, xs, p[nc*nc:], s.belowOf(k))
	}
	LowerSolveT(p, xs)
}

// narrow is the widest supernode whose columns backwardNarrow sums in
// registers.
const narrow = 8

// backwardNarrow subtracts the rows below a supernode of at most narrow
// columns, q in the panel's order, from xs, two columns per pass over the
// rows. A column's sum is held in a register: through xs in memory, every
// four rows would wait for the previous four's store (the nested
// dissection's leaves, two columns and some 30 rows each, hold a quarter
// of L). The operations and their order are backwardWide's.
func backwardNarrow(x, xs, q []float64, below []int32) {
	nc := len(xs)
	if len(below) == 0 { // a root: q[c:] would be out of range
		return
	}
	for c := 0; c < nc; c += 2 {
		if c+1 == nc {
			xs[c] = narrowColumn(x, xs[c], q[c:], below, nc)
			continue
		}
		xs[c], xs[c+1] = columnPair(x, xs[c], xs[c+1], q[c:], below, nc)
	}
}

// columnPair returns a0 and a1 less the rows below of two adjacent
// columns, q holding them at stride nc, four rows at a time.
func columnPair(x []float64, a0, a1 float64, q []float64, below []int32, nc int) (float64, float64) {
	j := len(below) - 1
	for ; j >= 3; j -= 4 {
		x0, x1, x2, x3 := x[below[j]], x[below[j-1]], x[below[j-2]], x[below[j-3]]
		g := q[(j-3)*nc : j*nc+2]
		a0 -= g[3*nc]*x0 + g[2*nc]*x1 + g[nc]*x2 + g[0]*x3
		a1 -= g[3*nc+1]*x0 + g[2*nc+1]*x1 + g[nc+1]*x2 + g[1]*x3
	}
	for ; j >= 0; j-- {
		xj := x[below[j]]
		a0 -= q[j*nc] * xj
		a1 -= q[j*nc+1] * xj
	}
	return a0, a1
}

// narrowColumn is backwardNarrow for one column a: q holds it at stride
// nc.
func narrowColumn(x []float64, a float64, q []float64, below []int32, nc int) float64 {
	j := len(below) - 1
	for ; j >= 3; j -= 4 {
		a -= q[j*nc]*x[below[j]] + q[(j-1)*nc]*x[below[j-1]] + q[(j-2)*nc]*x[below[j-2]] + q[(j-3)*nc]*x[below[j-3]]
	}
	for ; j >= 0; j-- {
		a -= q[j*nc] * x[below[j]]
	}
	return a
}

// backwardWide subtracts the rows below a supernode, q in the panel's
// order, from xs, four rows at a time: each pass over xs loads and stores
// it once for four rows' products (1.6 times faster than one row at a
// time).
func backwardWide(x, xs, q []float64, below []int32) {
	nc := len(xs)
	j := len(below) - 1
	for ; j >= 3; j -= 4 {
		x0, x1, x2, x3 := x[below[j]], x[below[j-1]], x[below[j-2]], x[below[j-3]]
		r0 := q[j*nc : (j+1)*nc]
		r1 := q[(j-1)*nc : j*nc][:len(r0)]
		r2 := q[(j-2)*nc : (j-1)*nc][:len(r0)]
		r3 := q[(j-3)*nc : (j-2)*nc][:len(r0)]
		xs := xs[:len(r0)]
		for c, v := range r0 {
			xs[c] -= v*x0 + r1[c]*x1 + r2[c]*x2 + r3[c]*x3
		}
	}
	for ; j >= 0; j-- {
		xj := x[below[j]]
		for c, v := range q[j*nc : (j+1)*nc] {
			xs[c] -= v * xj
		}
	}
}

// Forward sets y = L^-1 P b: the first half of a solve, in the factor's
// own row order (y[k] belongs to row Perm()[k]). y and b must not overlap.
func (f *Factor) Forward(y, b []float64) {
	for k, p := range f.sym.perm {
		y[k] = b[p]
	}
	f.forward(y)
}

// Backward sets x = P' L^-T y, the second half of a solve; it overwrites y.
func (f *Factor) Backward(x, y []float64) {
	f.backward(y)
	for k, p := range f.sym.perm {
		x[p] = y[k]
	}
}

// Perm returns the factor's ordering: row k of L is row Perm()[k] of A.
func (f *Factor) Perm() []int { return f.sym.perm }

// Tail returns the last nb rows and columns of L as a dense lower
// triangular nb x nb matrix, row-major. When those rows are a set B of A's
// rows ordered last, L_BB L_BB' is the Schur complement of A on B and
// (A^-1)_BB = L_BB^-T L_BB^-1: the compliance of B. Any nonzero of L
// above the diagonal of the tail belongs to the tail, since the tail's
// columns come last.
func (f *Factor) Tail(nb int) []float64 {
	s := f.sym
	n := s.n
	out := make([]float64, nb*nb)
	start := n - nb
	for k := 0; k+1 < len(s.first); k++ {
		fc, lc := s.first[k], s.first[k+1]
		if lc <= start {
			continue
		}
		rows := s.rows[s.rowPtr[k]:s.rowPtr[k+1]]
		nc, m := lc-fc, len(rows)
		p := f.panel[k]
		for c := max(fc, start); c < lc; c++ {
			for i, r := range rows {
				slot := i
				if i >= nc {
					slot = m - 1 - i + nc // below the diagonal block, descending
				}
				if r >= c {
					out[(r-start)*nb+c-start] = p[slot*nc+c-fc]
				}
			}
		}
	}
	return out
}

// TailCompliance returns (A^-1)_BB for the set B of A's last nb rows in the
// factor's order, dense, symmetric and row-major, with B's rows of A in
// its order: the compliance of B, from L_BB (Tail) without a solve. It is
// what the time stepper keeps of a body's contact DOFs.
func (f *Factor) TailCompliance(nb int) (C []float64, rows []int, err error) {
	C = f.Tail(nb)
	rows = f.sym.perm[len(f.sym.perm)-nb:]
	if nb == 0 {
		return C, rows, nil
	}
	if _, ok := lapack64.Potri(blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nb, Stride: nb, Data: C}); !ok {
		return nil, nil, errors.New("cholesky: the tail of the factor is singular")
	}
	for i := 0; i < nb; i++ { // Potri fills the lower triangle: mirror it
		for j := 0; j < i; j++ {
			C[j*nb+i] = C[i*nb+j]
		}
	}
	return C, rows, nil
}
