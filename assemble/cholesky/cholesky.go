package cholesky

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/fecontact/fecontact/assemble/csr"
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
	// panel[s] is supernode s's block of L, row-major: L11 (its columns'
	// rows), then the rows below in descending order, as symbolic.below
	// lists them. A forward substitution, which may take the rows below in
	// any order, and a backward one, which sums them in ascending order from
	// the last supernode to the first, both stream the panels in memory
	// order then, one upwards and one downwards: with the rows ascending the
	// backward one read each small panel against the direction of the walk,
	// at a third of the speed (measured on 150k rows).
	panel [][]float64
	work  []float64
	splan *solvePlan // for two-core substitutions, made at the first
	// A factor refactorised again (a Newton tangent at every iteration)
	// keeps its update matrices and position maps from one Refactor to the
	// next: allocating them each time cost as much as the arithmetic, in
	// the runtime's clearing and returning of memory. A factor made once
	// holds them only while it is computed.
	refactors int
	upd       [][]float64 // upd[s]: supernode s's update matrix, kept
	pos       [][]int     // a position map per worker, and one for the top
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
func New(A *csr.Matrix, perm []int) (*Factor, error) {
	if err := A.Check(); err != nil {
		return nil, fmt.Errorf("cholesky: %w", err)
	}
	raw := A
	if raw.Rows() != raw.Cols() {
		return nil, fmt.Errorf("cholesky: matrix is %dx%d, not square", raw.Rows(), raw.Cols())
	}
	if perm == nil {
		var err error
		if perm, err = NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), nil); err != nil {
			return nil, err
		}
	}
	sym, err := analyse(raw.Rows(), raw.Indptr, raw.Ind, perm)
	if err != nil {
		return nil, err
	}
	f := &Factor{sym: sym, indptr: raw.Indptr, ind: raw.Ind, panel: sym.panels()}
	return f, f.Refactor(A)
}

// panels carves the supernodes' panels out of one slab, in the order of
// the supernodes, so that a substitution streams L through memory in
// order. Allocated one by one, among the factorisation's update matrices,
// they lay scattered, and the tens of thousands of two-column leaves of
// nested dissection cost three times as much per entry as the rest.
func (s *symbolic) panels() [][]float64 {
	p := make([][]float64, len(s.first)-1)
	size := func(k int) int { return (s.rowPtr[k+1] - s.rowPtr[k]) * (s.first[k+1] - s.first[k]) }
	total := 0
	for k := range p {
		total += size(k)
	}
	slab := make([]float64, total)
	for k := range p {
		p[k], slab = slab[:size(k):size(k)], slab[size(k):]
	}
	return p
}

// Refactor computes the numeric factor of a matrix with the same pattern as
// the one given to New, reusing the analysis. Independent subtrees of the
// elimination tree are factorised in parallel, one per core (at most
// GOMAXPROCS); the result does not depend on the number of cores.
func (f *Factor) Refactor(A *csr.Matrix) error {
	raw := A
	if raw.Rows() != f.sym.n || len(raw.Ind) != len(f.ind) {
		return fmt.Errorf("cholesky: Refactor needs the pattern of the analysed matrix (%d rows, %d entries), got %d rows, %d entries", f.sym.n, len(f.ind), raw.Rows(), len(raw.Ind))
	}
	f.refactors++
	if f.refactors == 2 {
		f.upd = make([][]float64, len(f.sym.first)-1)
	}
	update := make([][]float64, len(f.sym.first)-1)
	parts, top := f.sym.schedule(runtime.GOMAXPROCS(0))
	f.posMaps(len(parts) + 1)
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for w, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pos := f.pos[w]
			for _, k := range part {
				if errs[w] = f.front(k, raw, pos, update); errs[w] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	pos := f.pos[len(parts)]
	for _, k := range top {
		if err := f.front(k, raw, pos, update); err != nil {
			return err
		}
	}
	if f.upd == nil {
		f.pos = nil
	}
	return nil
}

// posMaps makes sure of k position maps of n entries (front writes every
// entry it reads).
func (f *Factor) posMaps(k int) {
	for len(f.pos) < k {
		f.pos = append(f.pos, make([]int, f.sym.n))
	}
}

// updateMatrix returns a cleared update matrix of n entries for supernode
// k, the kept one when the factor keeps them.
func (f *Factor) updateMatrix(k, n int) []float64 {
	if f.upd == nil {
		return make([]float64, n)
	}
	if len(f.upd[k]) != n {
		f.upd[k] = make([]float64, n)
	} else {
		clear(f.upd[k])
	}
	return f.upd[k]
}

// front assembles and partially factorises supernode k's frontal matrix.
// The front is kept in two pieces: the panel [F11; F21] (rows x columns of
// the supernode), which becomes [L11; L21] in place, and the update matrix
// F22 - L21 L21', handed to the parent through update[k].
func (f *Factor) front(k int, A *csr.Matrix, pos []int, update [][]float64) error {
	s := f.sym
	rows := s.rows[s.rowPtr[k]:s.rowPtr[k+1]]
	m, nc := len(rows), s.first[k+1]-s.first[k]
	L := f.panel[k]
	clear(L)
	var U []float64
	if m > nc {
		U = f.updateMatrix(k, (m-nc)*(m-nc))
	}
	for i, r := range rows {
		pos[r] = i
	}
	f.assembleA(L, nc, k, A, pos)
	for _, c := range s.children[s.childPtr[k]:s.childPtr[k+1]] {
		crows := s.rows[s.rowPtr[c]+s.first[c+1]-s.first[c] : s.rowPtr[c+1]]
		extendAdd(L, U, nc, m, update[c], crows, pos)
		update[c] = nil
	}
	update[k] = U
	if err := f.partial(L, U, m, nc, k); err != nil {
		return err
	}
	reverseRows(L[nc*nc:], nc)
	return nil
}

// reverseRows reverses the order of the rows of a row-major matrix of
// width nc.
func reverseRows(a []float64, nc int) {
	for i, j := 0, len(a)-nc; i < j; i, j = i+nc, j-nc {
		for c := range nc {
			a[i+c], a[j+c] = a[j+c], a[i+c]
		}
	}
}

// assembleA adds the lower part of A's columns of supernode k to the panel.
func (f *Factor) assembleA(L []float64, nc, k int, A *csr.Matrix, pos []int) {
	s := f.sym
	fc := s.first[k]
	for j := fc; j < s.first[k+1]; j++ {
		p := s.perm[j]
		for e := A.Indptr[p]; e < A.Indptr[p+1]; e++ {
			if i := s.iperm[A.Ind[e]]; i >= j {
				L[pos[i]*nc+j-fc] += A.Data[e]
			}
		}
	}
}

// extendAdd adds a child's update matrix u (its rows given, sorted; lower
// triangle) to the parent's panel L and update matrix U.
func extendAdd(L, U []float64, nc, m int, u []float64, rows []int, pos []int) {
	r, mu := len(rows), m-nc
	for a, ra := range rows {
		pa := pos[ra]
		ua := u[a*r : a*r+a+1]
		for b, v := range ua {
			if pb := pos[rows[b]]; pb < nc {
				L[pa*nc+pb] += v
			} else {
				U[(pa-nc)*mu+pb-nc] += v
			}
		}
	}
}

// partial factorises the supernode's columns: F11 = L11 L11',
// L21 = F21 L11^-T, and U = F22 - L21 L21'.
func (f *Factor) partial(L, U []float64, m, nc, k int) error {
	diag := make([]float64, nc)
	for j := range diag {
		diag[j] = L[j*nc+j]
	}
	if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: nc, Stride: nc, Data: L}); !ok {
		return f.pivotError(L, nc, k, diag)
	}
	for j := range diag {
		if l := L[j*nc+j]; l*l < pivotTol*diag[j] {
			return f.pivotError(L, nc, k, diag)
		}
	}
	if m > nc {
		L11 := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nc, Stride: nc, Data: L}
		L21 := blas64.General{Rows: m - nc, Cols: nc, Stride: nc, Data: L[nc*nc:]}
		blas64.Trsm(blas.Right, blas.Trans, 1, L11, L21)
		blas64.Syrk(blas.NoTrans, -1, L21, 1, blas64.Symmetric{Uplo: blas.Lower, N: m - nc, Stride: m - nc, Data: U})
	}
	return nil
}

// pivotError names the first failing row in the matrix's own numbering.
func (f *Factor) pivotError(L []float64, nc, k int, diag []float64) error {
	j := 0
	for ; j < nc; j++ {
		if l := L[j*nc+j]; !(l*l >= pivotTol*diag[j]) || math.IsNaN(l) {
			break
		}
	}
	j = min(j, nc-1)
	return &PivotError{Row: f.sym.perm[f.sym.first[k]+j], Diag: diag[j]}
}

// Analyse runs the ordering and symbolic analysis only and returns the
// sizes the factor would have: a cheap way to know its memory in advance.
func Analyse(A *csr.Matrix, perm []int) (Stats, error) {
	if err := A.Check(); err != nil {
		return Stats{}, fmt.Errorf("cholesky: %w", err)
	}
	raw := A
	if raw.Rows() != raw.Cols() {
		return Stats{}, fmt.Errorf("cholesky: matrix is %dx%d, not square", raw.Rows(), raw.Cols())
	}
	if perm == nil {
		var err error
		if perm, err = NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), nil); err != nil {
			return Stats{}, err
		}
	}
	sym, err := analyse(raw.Rows(), raw.Indptr, raw.Ind, perm)
	if err != nil {
		return Stats{}, err
	}
	f := &Factor{sym: sym, indptr: raw.Indptr, ind: raw.Ind}
	return f.Stats(), nil
}
