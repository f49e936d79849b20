package assemble

import (
	"github.com/fecontact/fecontact/assemble/csr"
)

// MulVecTo sets dst = A x.
func MulVecTo(dst []float64, A *csr.Matrix, x []float64) { A.MulVecTo(dst, x) }

// MulVec2To sets a = A x and b = B x. For two matrices of one space (the
// index slices shared, see Space.NewMatrix) it makes one pass over the
// pattern and x instead of two, which a step's products K v and M v are;
// each sum is taken in the same order as MulVecTo's, so the results are
// the same to the bit.
func MulVec2To(a, b []float64, A, B *csr.Matrix, x []float64) {
	ra, rb := A, B
	if !samePattern(ra, rb) {
		MulVecTo(a, A, x)
		MulVecTo(b, B, x)
		return
	}
	if len(a) != ra.Rows() || len(b) != ra.Rows() || len(x) != ra.Cols() {
		panic("assemble: MulVec2To dimension mismatch")
	}
	ptr, ind, da, db := ra.Indptr, ra.Ind, ra.Data, rb.Data
	for i := range a {
		var sa, sb float64
		for k := ptr[i]; k < ptr[i+1]; k++ {
			xk := x[ind[k]]
			sa += da[k] * xk
			sb += db[k] * xk
		}
		a[i], b[i] = sa, sb
	}
}

// samePattern reports whether two CSR matrices share their index slices.
func samePattern(a, b *csr.Matrix) bool {
	return a.Rows() == b.Rows() && a.Cols() == b.Cols() && len(a.Ind) == len(b.Ind) && len(a.Ind) > 0 &&
		&a.Ind[0] == &b.Ind[0] && &a.Indptr[0] == &b.Indptr[0]
}
