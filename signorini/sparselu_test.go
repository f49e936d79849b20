package signorini

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSparseLUSolvesTheReducedSystem: the sparse factorisation of K^ +
// lambda I, on a problem beyond the dense limit with open, sticking and
// sliding contacts of either sign, solves the system that applyReduced
// (matrix-free, from W's products) applies, to round-off.
func TestSparseLUSolvesTheReducedSystem(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   uint64
		lambda float64
	}{
		{"regularised", 1, 1e-3},
		{"barely regularised", 2, 1e-9},
		{"strongly regularised", 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 9))
			p := randomSparse(rng, 700)
			nw := newNewton(p, make([]float64, 2*700))
			require.NotNil(t, nw.sparse, "a block-sparse W beyond the dense limit is factorised sparse")
			for a := range nw.class {
				switch rng.IntN(4) {
				case 0: // open
				case 1:
					nw.class[a] = classOf{closed: true, slide: true, sign: []float64{-1, 1}[rng.IntN(2)]}
				default:
					nw.class[a] = classOf{closed: true}
				}
			}
			nw.reduce()
			nw.lambda = tc.lambda
			require.Equal(t, factored, nw.factorSparse())
			m := len(nw.idx)
			b, x, y := make([]float64, m), make([]float64, m), make([]float64, m)
			for j := range b {
				b[j] = rng.NormFloat64()
			}
			nw.solveSparse(b, x)
			nw.applyReduced(x, y)
			for j := range b {
				assert.InDelta(t, b[j], y[j], 1e-10*maxAbs(b), "unknown %d of %d", j, m)
			}
		})
	}
}

// TestSparseLURefusesASingularPivot: a sliding contact whose block, its
// tangential column folded along the cone's edge, has no normal
// stiffness (W_NN - mu W_NT = 0) is a singular pivot without
// regularisation, and the factorisation says so instead of dividing by 0.
func TestSparseLURefusesASingularPivot(t *testing.T) {
	n := denseLimit + 1
	var es []Triplet
	for a := range n {
		es = append(es, Triplet{2 * a, 2 * a, 1}, Triplet{2 * a, 2*a + 1, 1}, Triplet{2*a + 1, 2 * a, 1}, Triplet{2*a + 1, 2*a + 1, 2})
	}
	W, err := NewBlockSparse(n, es)
	require.NoError(t, err)
	mu := make([]float64, n)
	for a := range mu {
		mu[a] = 1
	}
	nw := newNewton(&Problem{W: W, Q: make([]float64, 2*n), Mu: mu}, make([]float64, 2*n))
	nw.class[7] = classOf{closed: true, slide: true, sign: -1}
	nw.reduce()
	assert.Equal(t, singular, nw.factorSparse())
	nw.lambda = 1e-6
	assert.Equal(t, factored, nw.factorSparse(), "lambda makes it definite")
	x, y := []float64{1}, []float64{0}
	nw.solveSparse(x, y)
	assert.InDelta(t, 1e6, y[0], 1e-3, "1/lambda")
}

// TestSparseLUStopsBeforeItsFillIsTooLarge: contacts coupled at random
// (no small separators) would fill the factor to all n^2 blocks; the
// factorisation stops before passing fillLimit, and Newton goes on by
// GMRES to the solution.
func TestSparseLUStopsBeforeItsFillIsTooLarge(t *testing.T) {
	const n = 2000 // 4 million blocks filled
	p := randomSparse(rand.New(rand.NewPCG(4, 4)), n)
	nw := newNewton(p, make([]float64, 2*n))
	for a := range nw.class {
		nw.class[a] = classOf{closed: true}
	}
	nw.reduce()
	nw.lambda = 1e-3
	require.Equal(t, tooDense, nw.factorSparse())
	assert.LessOrEqual(t, len(nw.slu.block), fillLimit(n))
	res, err := Newton(p, Options{Tol: 1e-10})
	require.NoError(t, err)
	assert.LessOrEqual(t, independentResidual(p, res.R), 1e-10)
}
