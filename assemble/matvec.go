package assemble

import (
	"github.com/james-bowman/sparse"
	"github.com/james-bowman/sparse/blas"
)

// MulVecTo sets dst = A x for a CSR matrix. (The sparse package's own
// MulVecTo adds into dst; this one overwrites it.)
func MulVecTo(dst []float64, A *sparse.CSR, x []float64) {
	raw := A.RawMatrix()
	if len(dst) != raw.I || len(x) != raw.J {
		panic("assemble: MulVecTo dimension mismatch")
	}
	ptr, ind, data := raw.Indptr, raw.Ind, raw.Data
	for i := range dst {
		var s float64
		for k := ptr[i]; k < ptr[i+1]; k++ {
			s += data[k] * x[ind[k]]
		}
		dst[i] = s
	}
}

// MulVec2To sets a = A x and b = B x. For two matrices of one space (the
// index slices shared, see Space.NewMatrix) it makes one pass over the
// pattern and x instead of two, which a step's products K v and M v are;
// each sum is taken in the same order as MulVecTo's, so the results are
// the same to the bit.
func MulVec2To(a, b []float64, A, B *sparse.CSR, x []float64) {
	ra, rb := A.RawMatrix(), B.RawMatrix()
	if !samePattern(ra, rb) {
		MulVecTo(a, A, x)
		MulVecTo(b, B, x)
		return
	}
	if len(a) != ra.I || len(b) != ra.I || len(x) != ra.J {
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
func samePattern(a, b *blas.SparseMatrix) bool {
	return a.I == b.I && a.J == b.J && len(a.Ind) == len(b.Ind) && len(a.Ind) > 0 &&
		&a.Ind[0] == &b.Ind[0] && &a.Indptr[0] == &b.Indptr[0]
}
