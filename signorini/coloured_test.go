package signorini

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestColours: no two contacts that W couples share a colour, and every
// contact has one.
func TestColours(t *testing.T) {
	p := randomSparse(rand.New(rand.NewPCG(7, 1)), 3000)
	w := p.W.(*BlockSparse)
	perm, bounds := colours(w, nil)
	colour := make([]int, w.Contacts())
	seen := make([]bool, w.Contacts())
	for c := range len(bounds) - 1 {
		for _, a := range perm[bounds[c]:bounds[c+1]] {
			colour[a], seen[a] = c, true
		}
	}
	for a := range w.Contacts() {
		require.True(t, seen[a], "contact %d has no colour", a)
		for _, b := range w.Col[w.Ptr[a]:w.Ptr[a+1]] {
			require.NotEqual(t, colour[a], colour[b], "contacts %d and %d are coupled", a, b)
		}
	}
	assert.Less(t, len(bounds)-1, 20, "colours")
}

// TestColouredOnAnyCores: the Coloured order gives the same iterates on
// one core and on two, to the bit, under either stop measure, and solves
// the problem (the colours of 4 000 contacts span several chunks each, so
// that two cores share them; -race checks they touch nothing in common).
func TestColouredOnAnyCores(t *testing.T) {
	p := randomSparse(rand.New(rand.NewPCG(11, 1)), 4000)
	for _, m := range []Measure{NaturalResidual, VelocityChange} {
		opt := Options{Order: Coloured, Measure: m, Tol: 1e-8}
		var results []*Result
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			res, err := NLGS(p, opt)
			runtime.GOMAXPROCS(old)
			require.NoError(t, err)
			results = append(results, res)
		}
		one, two := results[0], results[1]
		assert.Equal(t, one.R, two.R, "measure %d", m)
		assert.Equal(t, one.Sweeps, two.Sweeps)
		assert.Equal(t, one.VelocityChange, two.VelocityChange)
		assert.LessOrEqual(t, Residual(p, one.R, nil), 1e-6, "measure %d", m)
		natural, err := NLGS(p, Options{Measure: m, Tol: 1e-8})
		require.NoError(t, err)
		assert.InDeltaSlice(t, natural.R, one.R, 1e-6, "the solution, against the natural order's")
	}
}
