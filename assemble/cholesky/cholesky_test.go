package cholesky

import (
	"math/rand/v2"
	"testing"

	"github.com/james-bowman/sparse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// grid returns the 9-point-stencil matrix of an nx x ny grid with dof
// unknowns per point, made SPD by a dominant diagonal, its point
// coordinates (per row), and whether its rows are coupled in random ways.
func grid(nx, ny, dof int, rng *rand.Rand) (*sparse.CSR, [][2]float64) {
	n := nx * ny * dof
	dok := sparse.NewDOK(n, n)
	coords := make([][2]float64, n)
	id := func(i, j, c int) int { return (j*nx+i)*dof + c }
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			for c := 0; c < dof; c++ {
				r := id(i, j, c)
				coords[r] = [2]float64{float64(i), float64(j)}
				var sum float64
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
				_ = sum
			}
		}
	}
	csr := dok.ToCSR()
	// Diagonal dominance: A_ii = 1 + sum |A_ij|.
	d := make([]float64, n)
	csr.DoNonZero(func(i, j int, v float64) { d[i] += -v })
	for i := 0; i < n; i++ {
		dok.Set(i, i, 1+d[i])
	}
	return dok.ToCSR(), coords
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
				perm, err = NestedDissection(GraphOf(A.RawMatrix().I, A.RawMatrix().Indptr, A.RawMatrix().Ind), coords)
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
