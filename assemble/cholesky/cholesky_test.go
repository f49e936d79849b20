package cholesky

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// matrix is the matrix of the entries set in e.
func matrix(e *csr.Entries) *csr.Matrix {
	m, err := e.Matrix()
	if err != nil {
		panic(err)
	}
	return m
}

// grid returns the 9-point-stencil matrix of an nx x ny grid with dof
// unknowns per point, made SPD by a dominant diagonal, its point
// coordinates (per row), and whether its rows are coupled in random ways.
func grid(nx, ny, dof int, rng *rand.Rand) (*csr.Matrix, [][2]float64) {
	n := nx * ny * dof
	dok := csr.NewEntries(n, n)
	coords := make([][2]float64, n)
	id := func(i, j, c int) int { return (j*nx+i)*dof + c }
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			for c := 0; c < dof; c++ {
				r := id(i, j, c)
				coords[r] = [2]float64{float64(i), float64(j)}
				for dj := -1; dj <= 1; dj++ {
					for di := -1; di <= 1; di++ {
						if i+di < 0 || i+di >= nx || j+dj < 0 || j+dj >= ny {
							continue
						}
						for c2 := 0; c2 < dof; c2++ {
							q := id(i+di, j+dj, c2)
							if q < r {
								v := -rng.Float64()
								dok.Set(r, q, v)
								dok.Set(q, r, v)
							}
						}
					}
				}
			}
		}
	}
	off := matrix(dok)
	// Diagonal dominance: A_ii = 1 + sum |A_ij|.
	d := make([]float64, n)
	off.DoNonZero(func(i, j int, v float64) { d[i] += -v })
	for i := 0; i < n; i++ {
		dok.Set(i, i, 1+d[i])
	}
	return matrix(dok), coords
}

func TestFactorMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		nx, ny int
		dof    int
		coords bool
	}{
		{"tiny", 2, 1, 1, false},
		{"line", 40, 1, 2, true},
		{"grid-bfs", 17, 13, 2, false},
		{"grid-geom", 23, 19, 2, true},
		{"square-geom", 30, 30, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			A, coords := grid(tc.nx, tc.ny, tc.dof, rng)
			var perm []int
			if tc.coords {
				var err error
				perm, err = NestedDissection(GraphOf(A.Rows(), A.Indptr, A.Ind), coords)
				require.NoError(t, err)
			}
			f, err := New(A, perm)
			require.NoError(t, err)
			n, _ := A.Dims()
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			x := f.Solve(b)
			var want mat.VecDense
			require.NoError(t, want.SolveVec(mat.DenseCopyOf(A), mat.NewVecDense(n, b)))
			diff := make([]float64, n)
			floats.SubTo(diff, x, want.RawVector().Data)
			rel := floats.Norm(diff, 2) / floats.Norm(want.RawVector().Data, 2)
			assert.Less(t, rel, 1e-12, "relative difference from the dense solve")
		})
	}
}

// TestParallelIsDeterministic: the factor does not depend on how many
// cores factorise it, bit for bit.
func TestParallelIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	A, coords := grid(40, 30, 2, rng)
	raw := A
	perm, err := NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), coords)
	require.NoError(t, err)
	b := make([]float64, raw.Rows())
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	var x [2][]float64
	for i, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		f, err := New(A, perm)
		runtime.GOMAXPROCS(old)
		require.NoError(t, err)
		x[i] = f.Solve(b)
	}
	assert.Equal(t, x[0], x[1])
}

// TestRefactor: new values on the same pattern give the new solution;
// refactorised again and again (from the second time on with the update
// matrices it keeps), on either number of cores, the factor of A is the
// same to the bit as a new one's.
func TestRefactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	A, _ := grid(12, 9, 2, rng)
	n, _ := A.Dims()
	b := make([]float64, n)
	for i := range b {
		b[i] = float64(i%7) - 3
	}
	fresh, err := New(A, nil)
	require.NoError(t, err)
	want := fresh.Solve(b)
	f, err := New(A, nil)
	require.NoError(t, err)
	data := A.Data
	for k, procs := range []int{2, 1, 2, 1} {
		old := runtime.GOMAXPROCS(procs)
		for i := range data {
			data[i] *= 2
		}
		require.NoError(t, f.Refactor(A)) // another matrix first
		for i := range data {
			data[i] /= 2
		}
		require.NoError(t, f.Refactor(A))
		runtime.GOMAXPROCS(old)
		assert.Equal(t, want, f.Solve(b), "refactorisation %d", k)
	}
}

// TestRefactorValues: new values on the same pattern give the new
// solution.
func TestRefactorValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	A, _ := grid(12, 9, 2, rng)
	f, err := New(A, nil)
	require.NoError(t, err)
	data := A.Data
	for i := range data {
		data[i] *= 3
	}
	require.NoError(t, f.Refactor(A))
	n, _ := A.Dims()
	b := make([]float64, n)
	for i := range b {
		b[i] = 1
	}
	x := f.Solve(b)
	r := make([]float64, n)
	A.MulVecTo(r, x)
	floats.Sub(r, b)
	assert.Less(t, floats.Norm(r, 2), 1e-12*floats.Norm(b, 2))
}

func TestErrors(t *testing.T) {
	// A singular matrix: the 1D Laplacian without a Dirichlet condition.
	n := 6
	dok := csr.NewEntries(n, n)
	for i := 0; i < n; i++ {
		d := 2.0
		if i == 0 || i == n-1 {
			d = 1
		}
		dok.Set(i, i, d)
		if i > 0 {
			dok.Set(i, i-1, -1)
			dok.Set(i-1, i, -1)
		}
	}
	_, err := New(matrix(dok), nil)
	var pe *PivotError
	require.ErrorAs(t, err, &pe)
	assert.ErrorIs(t, err, ErrNotPositiveDefinite)
	assert.GreaterOrEqual(t, pe.Row, 0)

	_, err = New(matrix(dok), []int{0, 1, 2, 3, 4, 4})
	assert.ErrorContains(t, err, "ordering is not a permutation")
	_, err = New(csr.New(2, 3, []int{0, 0, 0}, nil, nil), nil)
	assert.ErrorContains(t, err, "2x3, not square")
}

// TestOrderingReducesFill: nested dissection with coordinates on a 60 x 60
// grid must fill far less than the natural (banded) order.
func TestOrderingReducesFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	A, coords := grid(60, 60, 1, rng)
	raw := A
	natural := make([]int, raw.Rows())
	for i := range natural {
		natural[i] = i
	}
	nd, err := NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), coords)
	require.NoError(t, err)
	fn, err := New(A, natural)
	require.NoError(t, err)
	fd, err := New(A, nd)
	require.NoError(t, err)
	t.Logf("nnz(L): natural %d, nested dissection %d", fn.Stats().NNZL, fd.Stats().NNZL)
	// The natural order of an m x m grid fills the band, about m^3 = 216k
	// entries; nested dissection fills O(m^2 log m).
	assert.Less(t, float64(fd.Stats().NNZL), 0.6*float64(fn.Stats().NNZL))
}

// TestSplitSolveAndTail: Forward then Backward is a solve, and with a set
// B ordered last, the tail of L gives (A^-1)_BB.
func TestSplitSolveAndTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	A, coords := grid(9, 7, 2, rng)
	raw := A
	n := raw.Rows()
	nd, err := NestedDissection(GraphOf(n, raw.Indptr, raw.Ind), coords)
	require.NoError(t, err)
	// B: the rows of the grid's top line, ordered last.
	inB := map[int]bool{}
	var B []int
	for i := 0; i < 9*2; i++ {
		B = append(B, n-18+i)
		inB[n-18+i] = true
	}
	var perm []int
	for _, p := range nd {
		if !inB[p] {
			perm = append(perm, p)
		}
	}
	perm = append(perm, B...)
	f, err := New(A, perm)
	require.NoError(t, err)
	tailRows := f.Perm()[n-len(B):]
	assert.ElementsMatch(t, B, tailRows, "B stays last after the postorder")

	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	y, x := make([]float64, n), make([]float64, n)
	f.Forward(y, b)
	f.Backward(x, y)
	assert.InDeltaSlice(t, f.Solve(b), x, 1e-13)

	nb := len(B)
	L := mat.NewTriDense(nb, mat.Lower, f.Tail(nb))
	var Linv mat.TriDense
	require.NoError(t, Linv.InverseTri(L))
	var C mat.Dense
	C.Mul(Linv.T(), &Linv)
	var Ainv mat.Dense
	require.NoError(t, Ainv.Inverse(mat.DenseCopyOf(A)))
	for i, ri := range tailRows {
		for j, rj := range tailRows {
			assert.InDelta(t, Ainv.At(ri, rj), C.At(i, j), 1e-12)
		}
	}
}

// TestParallelSolveIsSequential: above parallelNNZ the substitutions run on
// two cores, and give the one-core result bit for bit (the same operations
// in the same order on every entry), for one right-hand side after
// another on the same factor.
func TestParallelSolveIsSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	A, coords := grid(260, 260, 2, rng)
	raw := A
	perm, err := NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), coords)
	require.NoError(t, err)
	f, err := New(A, perm)
	require.NoError(t, err)
	require.GreaterOrEqual(t, f.Stats().NNZL, parallelNNZ)
	for trial := 0; trial < 2; trial++ {
		b := make([]float64, raw.Rows())
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var x [2][]float64
		for i, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			x[i] = f.Solve(b)
			runtime.GOMAXPROCS(old)
		}
		require.NotNil(t, f.splan, "the two-core plan was used")
		require.NotEmpty(t, f.splan.parts[0])
		require.NotEmpty(t, f.splan.parts[1])
		// forwardNode logs a part supernode's top rows as a prefix of
		// its rows below: no top row may follow a row of a part.
		for _, part := range f.splan.parts {
			for _, k := range part {
				below := f.sym.belowOf(k)
				t0 := 0
				for t0 < len(below) && f.splan.inTop[below[t0]] {
					t0++
				}
				for _, r := range below[t0:] {
					require.False(t, f.splan.inTop[r], "supernode %d: top row %d after a part's row", k, r)
				}
			}
		}
		assert.Equal(t, x[0], x[1])
		// And it solves: the residual of A x = b.
		r := make([]float64, raw.Rows())
		A.MulVecTo(r, x[1])
		floats.Sub(r, b)
		assert.Less(t, floats.Norm(r, math.Inf(1)), 1e-8*floats.Norm(b, math.Inf(1)))
	}
}

// TestTriangularSolves: the diagonal blocks' solves give gonum's Dtrsv's
// results bit for bit (the same operations in the same order, four rows at
// a time), at every size around the blocking of four.
func TestTriangularSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 13; n++ {
		p := make([]float64, n*n)
		for i := range n {
			for j := 0; j < i; j++ {
				p[i*n+j] = rng.NormFloat64()
			}
			p[i*n+i] = 1 + rng.Float64()
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		L := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: p}
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			want, got := slices.Clone(b), slices.Clone(b)
			blas64.Trsv(tr, L, blas64.Vector{N: n, Inc: 1, Data: want})
			if tr == blas.NoTrans {
				LowerSolve(p, got)
			} else {
				LowerSolveT(p, got)
			}
			assert.Equal(t, want, got, "n = %d, %c", n, tr)
		}
	}
}

// TestSolveOrder: a solve gives, to the bit, the straightforward
// supernodal substitutions on L read back densely (Tail): per supernode,
// gonum's Dtrsv on the diagonal block, then in the forward pass one
// sequential dot product per row below it, in the backward pass those
// rows in ascending order, four per subtraction. The panels' layout, the
// narrow supernodes' register sums and the four-row triangular solves
// change where the entries are read from, never the arithmetic. Two and
// three unknowns per point give supernodes of even and odd widths: two
// columns (the leaves, whose substitutions keep both unknowns in
// registers) and wider ones, odd among them; grids of one point or two
// give a single narrow supernode, a root with no rows below.
func TestSolveOrder(t *testing.T) {
	widths := map[int]bool{}
	for _, g := range []struct{ nx, ny, dof int }{{23, 17, 2}, {23, 17, 3}, {2, 2, 1}, {2, 1, 3}} {
		t.Run(fmt.Sprintf("%dx%d,dof=%d", g.nx, g.ny, g.dof), func(t *testing.T) {
			maps.Copy(widths, solveOrder(t, g.nx, g.ny, g.dof))
		})
	}
	ws := slices.Sorted(maps.Keys(widths))
	assert.Contains(t, ws, 2, "two-column supernodes")
	assert.True(t, slices.ContainsFunc(ws, func(w int) bool { return w > 8 && w%2 == 1 }), "wide, odd supernodes: %v", ws)
}

// solveOrder checks one grid's solve and returns its supernodes' widths.
func solveOrder(t *testing.T, nx, ny, dof int) map[int]bool {
	rng := rand.New(rand.NewPCG(9, 10))
	A, coords := grid(nx, ny, dof, rng)
	raw := A
	perm, err := NestedDissection(GraphOf(raw.Rows(), raw.Indptr, raw.Ind), coords)
	require.NoError(t, err)
	f, err := New(A, perm)
	require.NoError(t, err)
	n, s := raw.Rows(), f.sym
	L := f.Tail(n)
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	want := make([]float64, n)
	for k, p := range s.perm {
		want[k] = b[p]
	}
	block := func(k int) (fc, nc int, rows []int, diag blas64.Triangular, xs blas64.Vector) {
		fc, nc = s.first[k], s.first[k+1]-s.first[k]
		return fc, nc, s.rows[s.rowPtr[k]+nc : s.rowPtr[k+1]],
			blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: nc, Stride: n, Data: L[fc*n+fc:]},
			blas64.Vector{N: nc, Inc: 1, Data: want[fc : fc+nc]}
	}
	widths := map[int]bool{}
	for k := 0; k+1 < len(s.first); k++ {
		fc, nc, rows, diag, xs := block(k)
		widths[nc] = true
		blas64.Trsv(blas.NoTrans, diag, xs)
		for _, r := range rows {
			var d float64
			for c := range nc {
				d += L[r*n+fc+c] * want[fc+c]
			}
			want[r] -= d
		}
	}
	for k := len(s.first) - 2; k >= 0; k-- {
		fc, nc, rows, diag, xs := block(k)
		i := 0
		for ; i+4 <= len(rows); i += 4 {
			r0, r1, r2, r3 := rows[i], rows[i+1], rows[i+2], rows[i+3]
			for c := fc; c < fc+nc; c++ {
				want[c] -= L[r0*n+c]*want[r0] + L[r1*n+c]*want[r1] + L[r2*n+c]*want[r2] + L[r3*n+c]*want[r3]
			}
		}
		for ; i < len(rows); i++ {
			for c := fc; c < fc+nc; c++ {
				want[c] -= L[rows[i]*n+c] * want[rows[i]]
			}
		}
		blas64.Trsv(blas.Trans, diag, xs)
	}
	got := make([]float64, n)
	f.Forward(got, b)
	x := make([]float64, n)
	f.Backward(x, got)
	for k, p := range s.perm {
		require.Equal(t, math.Float64bits(want[k]), math.Float64bits(x[p]), "row %d", p)
	}
	return widths
}
