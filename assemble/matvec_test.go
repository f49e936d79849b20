package assemble

import (
	"math/rand/v2"
	"testing"

	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/mesh"
)

// TestMulVec2To: the fused product of K and M (one pattern) and the two
// passes over matrices of different patterns give sparse's own products,
// and the fused one MulVecTo's to the bit, rows of any lengths and an odd
// count of them included (the fused product walks rows in pairs).
func TestMulVec2To(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{}, 1, 0.5, 6, 3, mesh.Q8)
	require.NoError(t, err)
	s, err := NewSpace(m, Fix{"bottom", XY})
	require.NoError(t, err)
	K, err := s.Stiffness(steel)
	require.NoError(t, err)
	M, err := s.Mass(steel)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, s.N())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	n := s.N()
	dense := csr.NewEntries(n, n) // another pattern: the fallback
	for i := range n {
		dense.Set(i, i, float64(i+1))
		dense.Set(i, (i*7)%n, 0.5)
	}
	other, err := dense.Matrix()
	require.NoError(t, err)
	odd := csr.NewEntries(7, n) // 7 rows of 1 to 7 entries
	for i := range 7 {
		for j := 0; j <= (i*3)%7; j++ {
			odd.Set(i, (i+5*j)%n, rng.NormFloat64())
		}
	}
	A, err := odd.Matrix()
	require.NoError(t, err)
	B := csr.New(7, n, A.Indptr, A.Ind, make([]float64, len(A.Data)))
	for k := range B.Data {
		B.Data[k] = rng.NormFloat64()
	}
	for _, tc := range []struct {
		name string
		A, B *csr.Matrix
	}{{"one pattern", K, M}, {"two patterns", K, other}, {"odd rows", A, B}} {
		r := tc.A.Rows()
		a, b := make([]float64, r), make([]float64, r)
		MulVec2To(a, b, tc.A, tc.B, x)
		wa, wb := make([]float64, r), make([]float64, r)
		MulVecTo(wa, tc.A, x)
		MulVecTo(wb, tc.B, x)
		assert.Equal(t, wa, a, tc.name)
		assert.Equal(t, wb, b, tc.name)
		assert.InDeltaSlice(t, mulVec(tc.B, x), b, 1e-9*float64(n), tc.name)
	}
	assert.True(t, samePattern(K, M))
	assert.True(t, samePattern(A, B))
}
