package cholesky

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
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

// SolveMany solves A X = B column by column into dst (n x r).
func (f *Factor) SolveMany(dst *mat.Dense, B mat.Matrix) {
	n, r := B.Dims()
	b := make([]float64, n)
	x := make([]float64, n)
	for j := 0; j < r; j++ {
		mat.Col(b, j, B)
		f.SolveTo(x, b)
		dst.SetCol(j, x)
	}
}

// forward solves L y = x in place, supernode by supernode.
func (f *Factor) forward(x []float64) {
	s := f.sym
	for k := 0; k+1 < len(s.first); k++ {
		fc, nc := s.first[k], s.first[k+1]-s.first[k]
		rows := s.rows[s.rowPtr[k]:s.rowPtr[k+1]]
		p := f.panel[k]
		xs := x[fc : fc+nc]
		blas64.Trsv(blas.NoTrans, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nc, Stride: nc, Data: p}, blas64.Vector{N: nc, Inc: 1, Data: xs})
		for i := nc; i < len(rows); i++ {
			row := p[i*nc : (i+1)*nc]
			var d float64
			for c, v := range row {
				d += v * xs[c]
			}
			x[rows[i]] -= d
		}
	}
}

// backward solves L' x = y in place.
func (f *Factor) backward(x []float64) {
	s := f.sym
	for k := len(s.first) - 2; k >= 0; k-- {
		fc, nc := s.first[k], s.first[k+1]-s.first[k]
		rows := s.rows[s.rowPtr[k]:s.rowPtr[k+1]]
		p := f.panel[k]
		xs := x[fc : fc+nc]
		for i := nc; i < len(rows); i++ {
			xi := x[rows[i]]
			row := p[i*nc : (i+1)*nc]
			for c, v := range row {
				xs[c] -= v * xi
			}
		}
		blas64.Trsv(blas.Trans, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nc, Stride: nc, Data: p}, blas64.Vector{N: nc, Inc: 1, Data: xs})
	}
}
