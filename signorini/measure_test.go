package signorini

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoGroups is a problem of two uncoupled groups of n contacts, the second
// on bodies alpha times lighter (its W times alpha): a light grain and a
// heavy block, in one contact problem.
func twoGroups(rng *rand.Rand, n int, alpha float64) *Problem {
	a, b := randomSPD(rng, n), randomSPD(rng, n)
	m := 2 * n
	W := &Dense{N: 2 * n, Data: make([]float64, 4*m*m)}
	for i := range m {
		for j := range m {
			W.Data[i*2*m+j] = a.Data[i*m+j]
			W.Data[(m+i)*2*m+m+j] = alpha * b.Data[i*m+j]
		}
	}
	q, mu := make([]float64, 2*m), make([]float64, m)
	for i := range q {
		q[i] = 2*rng.Float64() - 1
	}
	for k := range mu {
		mu[k] = 0.3
	}
	return &Problem{W: W, Q: q, Mu: mu}
}

// TestVelocityChangeMeansTheSame: the velocity-change measure is in the
// problem's velocity units, so that making one group of contacts a
// million times heavier (its impulses a million times larger, its
// velocities the same) changes nothing of when NLGS stops: the same
// sweeps, the same velocities, the heavy group's impulses scaled (a
// measure on the impulses, which the heavy group dominates, stops
// elsewhere).
func TestVelocityChangeMeansTheSame(t *testing.T) {
	const n = 6
	for seed := range uint64(5) {
		var sweeps [2]int
		var u [2][]float64
		for k, alpha := range []float64{1, 1e-6} {
			p := twoGroups(rand.New(rand.NewPCG(seed, 7)), n, alpha)
			res, err := NLGS(p, Options{Measure: VelocityChange, Tol: 1e-6})
			require.NoError(t, err)
			sweeps[k], u[k] = res.Sweeps, append([]float64(nil), res.U...)
			assert.LessOrEqual(t, res.VelocityChange, 1e-6)
		}
		assert.Equal(t, sweeps[0], sweeps[1], "seed %d: sweeps at either weight", seed)
		assert.InDeltaSlice(t, u[0], u[1], 1e-9, "seed %d: the velocities", seed)
	}
}

// TestVelocityChangeAccuracy: at a tight velocity-change tolerance the
// solution is the natural residual's, and the measure reported is the one
// it stopped on.
func TestVelocityChangeAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 20 {
		p := twoGroups(rng, 1+trial%4, 1)
		ref, err := NLGS(p, Options{Tol: 1e-12})
		require.NoError(t, err)
		res, err := NLGS(p, Options{Measure: VelocityChange, Tol: 1e-12})
		require.NoError(t, err)
		assert.LessOrEqual(t, res.Residual, 1e-9, "trial %d", trial)
		assert.InDeltaSlice(t, ref.U, res.U, 1e-9, "trial %d", trial)
		_, err = NLGS(p, Options{Measure: VelocityChange, Tol: 1e-300, MaxSweeps: 3})
		if err != nil {
			assert.ErrorContains(t, err, "velocity change")
		}
	}
}

// TestOptionsRefused: a tolerance that is not a positive number and a
// negative sweep limit are errors, not a run to the limit or none at all.
func TestOptionsRefused(t *testing.T) {
	p := twoGroups(rand.New(rand.NewPCG(1, 1)), 2, 1)
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Tol: math.NaN()}, "tolerance NaN"},
		{Options{Tol: -1}, "tolerance -1"},
		{Options{Tol: math.Inf(1)}, "tolerance +Inf"},
		{Options{MaxSweeps: -5}, "-5 sweeps at most"},
	} {
		_, err := NLGS(p, tc.opt)
		assert.ErrorContains(t, err, tc.want)
	}
}
