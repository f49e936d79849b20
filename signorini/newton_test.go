package signorini

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestNewtonRandom: random problems of 1 to 6 contacts: for mu = 0.05 (a
// unique solution) Newton's impulses are the enumeration's to 1e-9; for
// mu = 0.8 the laws hold to 1e-12 (checked independently), from a zero
// start and from a random one.
func TestNewtonRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 60 {
		p := randomSmall(rng, 1+trial%6)
		res, err := Newton(p, Options{Tol: 1e-13})
		require.NoError(t, err, "trial %d", trial)
		sols := enumerate(p)
		require.Len(t, sols, 1)
		assert.InDeltaSlice(t, sols[0], res.R, 1e-9, "trial %d", trial)
		for a := range p.Mu {
			p.Mu[a] = 0.8
		}
		for _, start := range []Start{Zero, RandomBox} {
			res, err := Newton(p, Options{Tol: 1e-13, Start: start, Box: 1, Seed: uint64(trial)})
			require.NoError(t, err, "trial %d", trial)
			assert.LessOrEqual(t, independentResidual(p, res.R), 1e-12, "trial %d", trial)
		}
	}
}

// hyperstatic is a problem of more contacts than degrees of freedom: W =
// H M^-1 H' of rank dofs < 2n (a block on a floor, a pillar), whose
// reduced Newton systems are singular; q pushes the bodies into the
// contacts and along them.
func hyperstatic(rng *rand.Rand, n, dofs int) *Problem {
	H := mat.NewDense(2*n, dofs, nil)
	for i := range 2 * n {
		for j := range dofs {
			H.Set(i, j, rng.NormFloat64())
		}
	}
	var W mat.Dense
	W.Mul(H, H.T())
	v := make([]float64, dofs) // into every contact, and along them
	for j := range v {
		v[j] = 0.3 * rng.NormFloat64()
		for a := range n {
			v[j] -= H.At(2*a, j)
		}
	}
	var q mat.VecDense
	q.MulVec(H, mat.NewVecDense(dofs, v))
	mu := make([]float64, n)
	for a := range mu {
		mu[a] = 0.1 + 0.9*rng.Float64()
	}
	return &Problem{W: &Dense{N: n, Data: W.RawMatrix().Data}, Q: q.RawVector().Data, Mu: mu}
}

// TestNewtonHyperstatic: 40 problems of 4 to 12 contacts on 3 to 6
// degrees of freedom (W singular): Newton reaches 1e-11 where NLGS,
// given the same time in sweeps, often does not; the impulses it returns
// are in the cone.
func TestNewtonHyperstatic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 40 {
		p := hyperstatic(rng, 4+trial%9, 3+trial%4)
		res, err := Newton(p, Options{Tol: 1e-11})
		require.NoError(t, err, "trial %d", trial)
		assert.LessOrEqual(t, independentResidual(p, res.R), 1e-11, "trial %d", trial)
		for a, m := range p.Mu {
			assert.GreaterOrEqual(t, res.R[2*a], 0.0)
			assert.LessOrEqual(t, math.Abs(res.R[2*a+1]), m*res.R[2*a])
		}
	}
}

// TestNewtonFC2D: Newton's method reaches 1e-10 (checked independently)
// on every problem of Siconos' suite, the two granular flows of 2 020
// and 7 002 contacts included, where NLGS stops at 6.5e-7 and 1.3e-8
// after 100 000 sweeps and Newton with a monotone search stalled at 8e-3
// (their sparse factorisation and nonmonotone search: sparselu.go,
// nonmonotoneMemory); Auto, which hands them to Newton when NLGS stalls,
// reaches 1e-8 there.
func TestNewtonFC2D(t *testing.T) {
	for file := range fc2dProblems(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p, _, err := ReadProblem(file)
			require.NoError(t, err)
			res, err := Newton(p, Options{Tol: 1e-10})
			require.NoError(t, err)
			got := independentResidual(p, res.R)
			t.Logf("%d contacts: %d Newton iterations, residual %.2g", p.W.Contacts(), res.NewtonIterations, got)
			assert.LessOrEqual(t, got, 1e-10)
			if p.W.Contacts() > 1000 { // the two flows NLGS stalls on
				res, err := Solve(p, Options{Tol: 1e-8})
				require.NoError(t, err, "auto")
				assert.LessOrEqual(t, independentResidual(p, res.R), 1e-8, "auto")
				assert.Positive(t, res.NewtonIterations, "auto hands a stalled pile to Newton")
			}
		})
	}
}

// TestNewtonSparseAsDense: beyond the dense limit, the sparse
// factorisation (W block-sparse) and GMRES on W's products (W dense)
// reach the same impulses on one problem.
func TestNewtonSparseAsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	p := randomSparse(rng, 600)
	dense, err := Newton(&Problem{W: denseCopy(p.W), Q: p.Q, Mu: p.Mu}, Options{Tol: 1e-12})
	require.NoError(t, err)
	sparse, err := Newton(p, Options{Tol: 1e-12})
	require.NoError(t, err)
	assert.LessOrEqual(t, independentResidual(p, sparse.R), 1e-12)
	assert.InDeltaSlice(t, dense.R, sparse.R, 1e-8*maxAbs(dense.R))
}

func denseCopy(W Delassus) *Dense {
	m := denseOf(W)
	return &Dense{N: W.Contacts(), Data: m.RawMatrix().Data}
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

// stack is the one-step problem of k unit blocks (1 m x 0.5 m, 100 kg,
// inertia 10.4 kg m^2) stacked on a fixed floor, each on the one below
// by its two corners (2k contacts on 3k degrees of freedom): W = H M^-1
// H', q the blocks' free velocities under gravity over h = 1e-3 s, the
// top one pushed sideways at push m/s. NLGS shares the load between
// the corners slowly: the pillar's problem.
func stack(k int, push, mu float64) *Problem {
	const w, hgt, m, I = 1.0, 0.5, 100.0, 100.0 * (1 + 0.25) / 12
	n := 2 * k
	H := mat.NewDense(2*n, 3*k, nil)
	for i := range k { // interface below block i
		for s, x := range []float64{-w / 2, w / 2} {
			a := 2*i + s
			// upper block i: point at (x, -hgt/2) from its centre
			H.Set(2*a, 3*i+1, 1)
			H.Set(2*a, 3*i+2, x)
			H.Set(2*a+1, 3*i, -1)
			H.Set(2*a+1, 3*i+2, -hgt/2)
			if i > 0 { // lower block i-1: point at (x, +hgt/2)
				H.Set(2*a, 3*(i-1)+1, -1)
				H.Set(2*a, 3*(i-1)+2, -x)
				H.Set(2*a+1, 3*(i-1), 1)
				H.Set(2*a+1, 3*(i-1)+2, -hgt/2)
			}
		}
	}
	minv := mat.NewDiagDense(3*k, nil)
	v := make([]float64, 3*k)
	for i := range k {
		minv.SetDiag(3*i, 1/m)
		minv.SetDiag(3*i+1, 1/m)
		minv.SetDiag(3*i+2, 1/I)
		v[3*i+1] = -9.81e-3
	}
	v[3*(k-1)] = push
	var HM, W mat.Dense
	HM.Mul(H, minv)
	W.Mul(&HM, H.T())
	var q mat.VecDense
	q.MulVec(H, mat.NewVecDense(3*k, v))
	mus := make([]float64, n)
	for a := range mus {
		mus[a] = mu
	}
	return &Problem{W: &Dense{N: n, Data: W.RawMatrix().Data}, Q: q.RawVector().Data, Mu: mus}
}

// TestNewtonStack: 18 blocks stacked on a floor and pushed at the top:
// NLGS has not reached 1e-10 in 20 000 sweeps, Newton reaches 1e-12 in
// a few tens of iterations, and Auto hands the problem over once NLGS
// stalls, well before its sweep limit. A lighter push that slides the
// top block, and a 5-block stack NLGS solves alone, too.
func TestNewtonStack(t *testing.T) {
	for _, tc := range []struct {
		k          int
		push, mu   float64
		nlgsStalls bool
	}{{18, 0.05, 0.3, true}, {18, 2, 0.1, true}, {5, 0.05, 0.3, false}} {
		p := stack(tc.k, tc.push, tc.mu)
		nl, err := NLGS(p, Options{Tol: 1e-10, MaxSweeps: 20000})
		if tc.nlgsStalls {
			require.ErrorIs(t, err, ErrNotConverged, "%+v", tc)
		}
		nw, err := Newton(p, Options{Tol: 1e-12})
		require.NoError(t, err, "%+v", tc)
		assert.LessOrEqual(t, independentResidual(p, nw.R), 1e-12)
		assert.Less(t, nw.NewtonIterations, 40)
		auto, err := Solve(p, Options{Tol: 1e-10, MaxSweeps: 20000})
		require.NoError(t, err, "%+v", tc)
		assert.LessOrEqual(t, independentResidual(p, auto.R), 1e-10)
		if tc.nlgsStalls {
			assert.Positive(t, auto.NewtonIterations, "%+v", tc)
			assert.Less(t, auto.Sweeps, 2000, "%+v: handed over when NLGS stalled", tc)
		} else {
			assert.Zero(t, auto.NewtonIterations)
			assert.Equal(t, nl.Sweeps, auto.Sweeps)
		}
		t.Logf("%+v: NLGS %d sweeps, Newton %d iterations, Auto %d sweeps then %d iterations", tc, nl.Sweeps, nw.NewtonIterations, auto.Sweeps, auto.NewtonIterations)
	}
}

// TestOverflowNotConverged: a problem whose free velocities are so large
// that the residual overflows to NaN is "not converged" under every
// method (Newton reported NaN as success: NaN > tol is false).
func TestOverflowNotConverged(t *testing.T) {
	p := randomSmall(rand.New(rand.NewPCG(5, 5)), 3)
	for i := range p.Q {
		p.Q[i] = -1e300 * float64(i+1)
	}
	for _, m := range []Method{NLGSMethod, NewtonMethod, Auto} {
		res, err := Solve(p, Options{Method: m, MaxSweeps: 50})
		require.ErrorIs(t, err, ErrNotConverged, "method %v", m)
		assert.False(t, res.Residual <= 1e-8, "method %v: residual %g", m, res.Residual)
	}
}

// TestAutoCountsNewtonOnce: a pillar step (116, exported by the run) on
// which NLGS stalls, Newton from NLGS's iterate stagnates after 40
// iterations and Newton from zero converges in 19: Auto reports 59 (the
// first run's 40 were counted twice: 99), and the retry has the whole
// budget of iterations (with 45 it had 5 left, and never converged).
func TestAutoCountsNewtonOnce(t *testing.T) {
	p, _, err := ReadProblem(filepath.Join("testdata", "pillar-step116.json"))
	require.NoError(t, err)
	opt := Options{Tol: 1e-5, Measure: VelocityChange}
	stall := opt
	stall.stallAfter = stallAfter
	res, err := NLGS(p, stall)
	require.ErrorIs(t, err, errStalled)
	tol := opt.Tol / 100 // Newton's residual for the velocity measure (Solve)
	first, err := newtonFrom(p, res, tol, 100, true)
	require.ErrorIs(t, err, ErrNotConverged, "Newton from NLGS's iterate stagnates")
	second, err := newtonFrom(p, opt.result(p.W.Contacts()), tol, 100, true)
	require.NoError(t, err, "Newton from zero converges")
	want := first.NewtonIterations + second.NewtonIterations
	assert.Equal(t, 59, want)
	for _, budget := range []int{0, 45} {
		o := opt
		o.NewtonIterations = budget
		auto, err := Solve(p, o)
		require.NoError(t, err, "budget %d", budget)
		assert.Equal(t, want, auto.NewtonIterations, "budget %d", budget)
		assert.LessOrEqual(t, independentResidual(p, auto.R), tol)
	}
}

// TestNewtonHonoursTheVelocityMeasure: Newton alone under the velocity
// measure stops where Auto's Newton does, at the natural-map residual of
// a hundredth of the tolerance (on the pillar's step 116, 1e-5 asks
// 1e-7): it took the tolerance as a residual, its results the residual
// measure's to the bit.
func TestNewtonHonoursTheVelocityMeasure(t *testing.T) {
	p, _, err := ReadProblem(filepath.Join("testdata", "pillar-step116.json"))
	require.NoError(t, err)
	res, err := Newton(p, Options{Tol: 1e-3})
	require.NoError(t, err)
	vel, err := Newton(p, Options{Tol: 1e-3, Measure: VelocityChange})
	require.NoError(t, err)
	assert.Greater(t, res.Residual, 1e-5, "the residual measure stops at its own tolerance")
	assert.LessOrEqual(t, vel.Residual, 1e-5)
	assert.LessOrEqual(t, independentResidual(p, vel.R), 1e-5)
	assert.Greater(t, vel.NewtonIterations, res.NewtonIterations)
}
