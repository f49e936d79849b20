package assemble

import "github.com/james-bowman/sparse"

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
