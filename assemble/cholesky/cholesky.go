package cholesky

import (
	"errors"
	"fmt"
	"math"

	"github.com/james-bowman/sparse"
	sblas "github.com/james-bowman/sparse/blas"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrNotPositiveDefinite is wrapped by PivotError: the factorisation met a
// non-positive or vanishing pivot, the sign of a singular matrix (a body
// with a rigid-body mode left free) or an indefinite one.
var ErrNotPositiveDefinite = errors.New("matrix is not positive definite")

// PivotError reports the row (in the matrix's own numbering) whose pivot
// failed and that row's diagonal entry.
type PivotError struct {
	Row  int
	Diag float64
}

func (e *PivotError) Error() string {
	return fmt.Sprintf("cholesky: pivot of row %d (A_jj = %.3g) vanishes or is negative: %v (singular, e.g. an unconstrained rigid-body mode, or indefinite)", e.Row, e.Diag, ErrNotPositiveDefinite)
}

func (e *PivotError) Unwrap() error { return ErrNotPositiveDefinite }

// pivotTol is the smallest accepted pivot L_jj^2 relative to A_jj: a pivot
// that small is round-off, the sign of a singular matrix.
const pivotTol = 1e-12

// Factor is a Cholesky factor P A P' = L L' of a sparse SPD matrix.
type Factor struct {
	sym    *symbolic
	indptr []int // pattern the analysis was made for
	ind    []int
	// panel[s] is supernode s's block of L: rows x columns, row-major.
	panel [][]float64
	work  []float64
}

// Stats describes a factor.
type Stats struct {
	N          int // rows
	NNZA       int // entries of A (both triangles)
	NNZL       int // entries of L (one triangle, diagonal included)
	Supernodes int
	MaxFront   int // largest frontal matrix order
}

// Stats returns the factor's sizes.
func (f *Factor) Stats() Stats {
	st := Stats{N: f.sym.n, NNZA: len(f.ind), NNZL: f.sym.nnzL, Supernodes: len(f.sym.first) - 1}
	for s := 0; s+1 < len(f.sym.rowPtr); s++ {
		st.MaxFront = max(st.MaxFront, f.sym.rowPtr[s+1]-f.sym.rowPtr[s])
	}
	return st
}

// New analyses and factorises A (square, symmetric, both triangles stored)
// under the ordering perm (perm[new] = old). A nil perm orders A by nested
// dissection on its graph, without coordinates.
func New(A *sparse.CSR, perm []int) (*Factor, error) {
	raw := A.RawMatrix()
	if raw.I != raw.J {
		return nil, fmt.Errorf("cholesky: matrix is %dx%d, not square", raw.I, raw.J)
	}
	if perm == nil {
		var err error
		if perm, err = NestedDissection(GraphOf(raw.I, raw.Indptr, raw.Ind), nil); err != nil {
			return nil, err
		}
	}
	sym, err := analyse(raw.I, raw.Indptr, raw.Ind, perm)
	if err != nil {
		return nil, err
	}
	f := &Factor{sym: sym, indptr: raw.Indptr, ind: raw.Ind, panel: make([][]float64, len(sym.first)-1)}
	return f, f.Refactor(A)
}

// Refactor computes the numeric factor of a matrix with the same pattern as
// the one given to New, reusing the analysis.
func (f *Factor) Refactor(A *sparse.CSR) error {
	raw := A.RawMatrix()
	if raw.I != f.sym.n || len(raw.Ind) != len(f.ind) {
		return fmt.Errorf("cholesky: Refactor needs the pattern of the analysed matrix (%d rows, %d entries), got %d rows, %d entries", f.sym.n, len(f.ind), raw.I, len(raw.Ind))
	}
	s := f.sym
	ns := len(s.first) - 1
	update := make([][]float64, ns)
	pos := make([]int, s.n)
	var front []float64
	for k := 0; k < ns; k++ {
		rows := s.rows[s.rowPtr[k]:s.rowPtr[k+1]]
		m, nc := len(rows), s.first[k+1]-s.first[k]
		if cap(front) < m*m {
			front = make([]float64, m*m)
		}
		F := front[:m*m]
		clear(F)
		for i, r := range rows {
			pos[r] = i
		}
		f.assembleA(F, m, k, raw, pos)
		for _, c := range s.children[s.childPtr[k]:s.childPtr[k+1]] {
			extendAdd(F, m, update[c], s.rows[s.rowPtr[c]+s.first[c+1]-s.first[c]:s.rowPtr[c+1]], pos)
			update[c] = nil
		}
		if err := f.partial(F, m, nc, k); err != nil {
			return err
		}
		if m > nc {
			u := make([]float64, (m-nc)*(m-nc))
			for i := nc; i < m; i++ {
				copy(u[(i-nc)*(m-nc):(i-nc+1)*(m-nc)], F[i*m+nc:i*m+m])
			}
			update[k] = u
		}
	}
	return nil
}

// assembleA adds the lower part of A's columns of supernode k to the front
// F (m x m, row-major, lower triangle used).
func (f *Factor) assembleA(F []float64, m, k int, A *sblas.SparseMatrix, pos []int) {
	s := f.sym
	fc := s.first[k]
	for j := fc; j < s.first[k+1]; j++ {
		p := s.perm[j]
		for e := A.Indptr[p]; e < A.Indptr[p+1]; e++ {
			if i := s.iperm[A.Ind[e]]; i >= j {
				F[pos[i]*m+j-fc] += A.Data[e]
			}
		}
	}
}

// extendAdd adds a child's update matrix (its rows given, sorted) to the
// lower triangle of the parent's front.
func extendAdd(F []float64, m int, u []float64, rows []int, pos []int) {
	r := len(rows)
	for a, ra := range rows {
		pa := pos[ra] * m
		ua := u[a*r:]
		for b := 0; b <= a; b++ {
			F[pa+pos[rows[b]]] += ua[b]
		}
	}
}

// partial factorises the first nc columns of the front: F11 = L11 L11',
// L21 = F21 L11^-T, F22 -= L21 L21', and keeps [L11; L21] as the panel.
func (f *Factor) partial(F []float64, m, nc, k int) error {
	diag := make([]float64, nc)
	for j := range diag {
		diag[j] = F[j*m+j]
	}
	if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: nc, Stride: m, Data: F}); !ok {
		return f.pivotError(F, m, nc, k, diag)
	}
	for j := range diag {
		if l := F[j*m+j]; l*l < pivotTol*diag[j] {
			return f.pivotError(F, m, nc, k, diag)
		}
	}
	if m > nc {
		L11 := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nc, Stride: m, Data: F}
		L21 := blas64.General{Rows: m - nc, Cols: nc, Stride: m, Data: F[nc*m:]}
		blas64.Trsm(blas.Right, blas.Trans, 1, L11, L21)
		F22 := blas64.Symmetric{Uplo: blas.Lower, N: m - nc, Stride: m, Data: F[nc*m+nc:]}
		blas64.Syrk(blas.NoTrans, -1, L21, 1, F22)
	}
	p := f.panel[k]
	if len(p) != m*nc {
		p = make([]float64, m*nc)
		f.panel[k] = p
	}
	for i := 0; i < m; i++ {
		copy(p[i*nc:(i+1)*nc], F[i*m:i*m+nc])
	}
	return nil
}

// pivotError names the first failing row in the matrix's own numbering.
func (f *Factor) pivotError(F []float64, m, nc, k int, diag []float64) error {
	j := 0
	for ; j < nc; j++ {
		if l := F[j*m+j]; !(l*l >= pivotTol*diag[j]) || math.IsNaN(l) {
			break
		}
	}
	j = min(j, nc-1)
	return &PivotError{Row: f.sym.perm[f.sym.first[k]+j], Diag: diag[j]}
}
