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

// randomSPD returns a Dense W = A A'/m + 0.1 I of 2n x 2n.
// randomSmall is a problem of n contacts with a random SPD W, q in
// [-1, 1] and mu = 0.05.
func randomSmall(rng *rand.Rand, n int) *Problem {
	W := randomSPD(rng, n)
	q := make([]float64, 2*n)
	for i := range q {
		q[i] = 2*rng.Float64() - 1
	}
	mu := make([]float64, n)
	for a := range mu {
		mu[a] = 0.05
	}
	return &Problem{W: W, Q: q, Mu: mu}
}

func randomSPD(rng *rand.Rand, n int) *Dense {
	m := 2*n + 3
	A := mat.NewDense(2*n, m, nil)
	for i := 0; i < 2*n; i++ {
		for j := 0; j < m; j++ {
			A.Set(i, j, rng.NormFloat64())
		}
	}
	var W mat.Dense
	W.Mul(A, A.T())
	W.Scale(1/float64(m), &W)
	for i := 0; i < 2*n; i++ {
		W.Set(i, i, W.At(i, i)+0.1)
	}
	return &Dense{N: n, Data: W.RawMatrix().Data}
}

// enumerate finds every solution of a small problem by trying all 4^n
// assignments of statuses and solving the linear system each implies: an
// independent reference, written without the single-contact solve.
func enumerate(p *Problem) [][]float64 {
	d := p.W.(*Dense)
	n := d.N
	var out [][]float64
	code := make([]int, n)
	for {
		A := mat.NewDense(2*n, 2*n, nil)
		b := make([]float64, 2*n)
		for a, c := range code {
			i := 2 * a
			switch c {
			case 0: // open: r = 0
				A.Set(i, i, 1)
				A.Set(i+1, i+1, 1)
			case 1: // stick: u = (-s, 0)
				for j := 0; j < 2*n; j++ {
					A.Set(i, j, d.Data[i*2*n+j])
					A.Set(i+1, j, d.Data[(i+1)*2*n+j])
				}
				b[i], b[i+1] = -p.Q[i]-p.shift(a), -p.Q[i+1]
			default: // slide sg: u_N = -s, r_T + sg mu r_N = 0
				sg := 1.0
				if c == 3 {
					sg = -1
				}
				for j := 0; j < 2*n; j++ {
					A.Set(i, j, d.Data[i*2*n+j])
				}
				b[i] = -p.Q[i] - p.shift(a)
				A.Set(i+1, i+1, 1)
				A.Set(i+1, i, sg*p.Mu[a])
			}
		}
		var r mat.VecDense
		if err := r.SolveVec(A, mat.NewVecDense(2*n, b)); err == nil {
			if ok := valid(p, r.RawVector().Data, code); ok {
				out = append(out, append([]float64(nil), r.RawVector().Data...))
			}
		}
		k := 0
		for ; k < n; k++ {
			code[k]++
			if code[k] < 4 {
				break
			}
			code[k] = 0
		}
		if k == n {
			return out
		}
	}
}

func valid(p *Problem, r []float64, code []int) bool {
	d := p.W.(*Dense)
	n := d.N
	const eps = 1e-10
	for a, c := range code {
		var u [2]float64
		for k := 0; k < 2; k++ {
			u[k] = p.Q[2*a+k]
			for j := 0; j < 2*n; j++ {
				u[k] += d.Data[(2*a+k)*2*n+j] * r[j]
			}
		}
		rn, rt := r[2*a], r[2*a+1]
		switch c {
		case 0:
			if u[0]+p.shift(a) < -eps {
				return false
			}
		case 1:
			if rn < -eps || math.Abs(rt) > p.Mu[a]*rn+eps {
				return false
			}
		case 2:
			if rn < -eps || u[1] < -eps {
				return false
			}
		case 3:
			if rn < -eps || u[1] > eps {
				return false
			}
		}
	}
	return true
}

// TestNLGSRandom: random problems of 1 to 6 contacts with SPD W. Every
// NLGS solution satisfies the laws to 1e-8; for mu = 0.05 (small: a unique
// solution) it matches the enumeration, which finds exactly one.
func TestNLGSRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 60; trial++ {
		p := randomSmall(rng, 1+trial%6)
		for _, order := range []Order{Natural, Alternating, Random} {
			res, err := NLGS(p, Options{Order: order, Seed: uint64(trial), Tol: 1e-10})
			require.NoError(t, err)
			assert.LessOrEqual(t, res.Residual, 1e-8)
			sols := enumerate(p)
			require.Len(t, sols, 1, "trial %d: small mu must give one solution", trial)
			assert.InDeltaSlice(t, sols[0], res.R, 1e-7, "trial %d order %d", trial, order)
		}
		// A larger mu: the laws still hold.
		for a := range p.Mu {
			p.Mu[a] = 0.8
		}
		res, err := NLGS(p, Options{})
		require.NoError(t, err)
		assert.LessOrEqual(t, res.Residual, 1e-8)
	}
}

// klarbring builds [L]'s mass-spring system as a one-step problem:
// K U = F + R with U_n <= 0, R_n <= 0 in the paper's signs; ours are
// u_N = -U_n, r_N = -R_n, u_T = U_t, r_T = R_t: W = S K'^-1 S, q = S K'^-1 F
// with K' = [[Kn, Wc], [Wc, Kt]] (normal first) and S = diag(-1, 1).
func klarbring(kt, kn, wc, ft, fn, mu float64) *Problem {
	det := kn*kt - wc*wc
	inv := [4]float64{kt / det, -wc / det, -wc / det, kn / det}
	W := &Dense{N: 1, Data: []float64{inv[0], -inv[1], -inv[2], inv[3]}}
	q := []float64{-(inv[0]*fn + inv[1]*ft), inv[2]*fn + inv[3]*ft}
	return &Problem{W: W, Q: q, Mu: []float64{mu}}
}

// TestKlarbring: the computed equilibrium reaction lies in the set of
// [L] (Basseville, Leger and Pratt): with A = Kt F_n - W F_t, R = 0
// for A < 0 (no contact), R = 0 at the vertex for A = 0 and mu < Kt/W, and
// for A > 0 a point of the line R_n = (W R_t - A)/Kt inside the cone
// |R_t| <= -mu R_n, whether mu is below or above Kt/W (where that segment
// of equilibria is a whole set and any point of it is right).
func TestKlarbring(t *testing.T) {
	const kt, kn, wc = 1.0, 1.2, 0.5 // Kt/W = 2
	for _, tc := range []struct {
		name   string
		ft, fn float64
		mu     float64
	}{
		{"A < 0", 0.3, -1, 0.5},
		{"A = 0, mu < Kt/W", 1, 0.5, 0.5},
		{"A > 0, mu < Kt/W", 0.8, 1, 0.5},
		{"A > 0, mu < Kt/W, sliding", 3, 1, 0.2},
		{"A > 0, mu > Kt/W", -0.4, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := klarbring(kt, kn, wc, tc.ft, tc.fn, tc.mu)
			res, err := NLGS(p, Options{Tol: 1e-12})
			require.NoError(t, err)
			Rn, Rt := -res.R[0], res.R[1]
			A := kt*tc.fn - wc*tc.ft
			switch {
			case A < 0 || A == 0:
				assert.InDelta(t, 0, Rn, 1e-12)
				assert.InDelta(t, 0, Rt, 1e-12)
			default:
				assert.InDelta(t, (wc*Rt-A)/kt, Rn, 1e-10, "on the line of equilibria")
				assert.Less(t, Rn, 0.0)
				assert.LessOrEqual(t, math.Abs(Rt), -tc.mu*Rn*(1+1e-10), "inside the cone")
			}
		})
	}
}

// bar is a rigid bar (mass 2, inertia 0.5) resting on three supports at
// x = -1, 0.2, 1 under one step of gravity: a hyperstatic problem whose
// normal impulses form a segment and whose tangential ones sum to zero.
func bar() *Problem {
	xs := []float64{-1, 0.2, 1}
	m, I, gh := 2.0, 0.5, 0.01
	n := len(xs)
	// rows of H: normal (0, 1, x), tangent (-1, 0, 0); M^-1 = diag(1/m, 1/m, 1/I).
	H := make([][3]float64, 2*n)
	for k, x := range xs {
		H[2*k] = [3]float64{0, 1, x}
		H[2*k+1] = [3]float64{-1, 0, 0}
	}
	minv := [3]float64{1 / m, 1 / m, 1 / I}
	W := &Dense{N: n, Data: make([]float64, 4*n*n)}
	for i := range H {
		for j := range H {
			var s float64
			for c := 0; c < 3; c++ {
				s += H[i][c] * minv[c] * H[j][c]
			}
			W.Data[i*2*n+j] = s
		}
	}
	q := make([]float64, 2*n)
	for k := range xs {
		q[2*k] = -gh
	}
	return &Problem{W: W, Q: q, Mu: []float64{0.3, 0.3, 0.3}}
}

// TestExplore: random starts on the bar give many distinct solutions, each
// satisfying the laws, spread along the set: the middle support carries
// anything from nothing to a large share of the weight.
func TestExplore(t *testing.T) {
	p := bar()
	sols, err := Explore(p, Options{Start: RandomBox, Box: 0.02, Order: Random, Tol: 1e-10, MaxSweeps: 100000}, 200)
	require.NoError(t, err)
	require.Len(t, sols, 200)
	lo, hi := math.Inf(1), math.Inf(-1)
	tlo, thi := math.Inf(1), math.Inf(-1)
	for _, s := range sols {
		assert.LessOrEqual(t, s.Residual, 1e-10)
		// Vertical momentum: the three normal impulses stop the weight m g h.
		assert.InDelta(t, 2*0.01, s.R[0]+s.R[2]+s.R[4], 1e-9)
		lo, hi = math.Min(lo, s.R[2]), math.Max(hi, s.R[2])
		tlo, thi = math.Min(tlo, s.R[1]), math.Max(thi, s.R[1])
	}
	t.Logf("middle normal impulse over %d runs: [%.4g, %.4g]; first tangential: [%.4g, %.4g]", len(sols), lo, hi, tlo, thi)
	assert.Greater(t, hi-lo, 0.005, "the normal impulses must spread over a good part of the segment")
	assert.Greater(t, thi-tlo, 0.001, "and so must the tangential ones")
}

// TestWarmStart: starting from the solution takes one sweep.
func TestWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	W := randomSPD(rng, 6)
	q := []float64{-1, 0.3, -0.5, 0.2, 0.4, -0.1, -0.8, -0.9, -0.2, 0.5, -0.3, 0.05}
	p := &Problem{W: W, Q: q, Mu: []float64{0.3, 0.3, 0.3, 0.3, 0.3, 0.3}}
	cold, err := NLGS(p, Options{Tol: 1e-10})
	require.NoError(t, err)
	warm, err := NLGS(p, Options{Tol: 1e-10, Start: Warm, Warm: cold.R})
	require.NoError(t, err)
	assert.Greater(t, cold.Sweeps, 2)
	assert.Equal(t, 1, warm.Sweeps)
	// Reusing the result's storage: its own R is a warm start (one sweep),
	// and a zero start begins from scratch in it (as many sweeps as cold).
	coldSweeps := cold.Sweeps
	again, err := NLGS(p, Options{Tol: 1e-10, Start: Warm, Warm: cold.R, Reuse: cold})
	require.NoError(t, err)
	assert.Same(t, cold, again)
	assert.Equal(t, 1, again.Sweeps)
	again, err = NLGS(p, Options{Tol: 1e-10, Reuse: again})
	require.NoError(t, err)
	assert.Equal(t, coldSweeps, again.Sweeps)
	assert.InDeltaSlice(t, warm.R, again.R, 1e-9)
	// Not converged: an error wrapping ErrNotConverged, with the iterate.
	res, err := NLGS(p, Options{Tol: 1e-14, MaxSweeps: 2})
	require.ErrorIs(t, err, ErrNotConverged)
	require.NotNil(t, res)
	assert.Equal(t, 2, res.Sweeps)
	_, err = NLGS(p, Options{Omega: 2.5})
	assert.ErrorContains(t, err, "omega = 2.5")
	_, err = NLGS(&Problem{W: W, Q: q[:4], Mu: p.Mu}, Options{})
	assert.ErrorContains(t, err, "q has 4 entries for 6 contacts")
}

// TestRelaxation: over- and under-relaxed sweeps reach the same solution.
func TestRelaxation(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	p := &Problem{W: randomSPD(rng, 5), Q: []float64{-1, 0.2, -1, -0.2, 0.5, 0, -0.3, 1, -2, 0}, Mu: []float64{0.1, 0.1, 0.1, 0.1, 0.1}}
	ref, err := NLGS(p, Options{Tol: 1e-12})
	require.NoError(t, err)
	for _, w := range []float64{0.7, 1.3} {
		res, err := NLGS(p, Options{Tol: 1e-12, Omega: w})
		require.NoError(t, err)
		assert.InDeltaSlice(t, ref.R, res.R, 1e-9)
	}
}

// TestDissipation: a point mass hitting a frictionless floor at 3 m/s:
// delta = 1 stops it, delta = 0 sends it back at 3 m/s.
func TestDissipation(t *testing.T) {
	p := &Problem{W: &Dense{N: 1, Data: []float64{0.5, 0, 0, 0.5}}, Q: []float64{-3, 1}, Mu: []float64{0}}
	for _, tc := range []struct{ delta, after float64 }{{1, 0}, {0, 3}, {0.5, 1}} {
		res, err := NLGS(p, Options{})
		require.NoError(t, err)
		require.NoError(t, Dissipate(p, res, tc.delta))
		assert.InDelta(t, tc.after, res.U[0], 1e-14, "delta %g", tc.delta)
		assert.InDelta(t, 1, res.U[1], 1e-14)
	}
	res, _ := NLGS(p, Options{})
	assert.ErrorContains(t, Dissipate(p, res, 1.5), "index 1.5")
}

func TestFileRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	dir := t.TempDir()
	for _, n := range []int{3, 120} {
		W := randomSPD(rng, n)
		q := make([]float64, 2*n)
		mu := make([]float64, n)
		for a := range mu {
			q[2*a], q[2*a+1], mu[a] = -rng.Float64(), rng.NormFloat64(), 0.2
		}
		shift := make([]float64, n)
		for a := range shift {
			shift[a] = 0.3 * rng.NormFloat64()
		}
		p := &Problem{W: W, Q: q, Mu: mu, Shift: shift}
		path := filepath.Join(dir, "p.json")
		require.NoError(t, WriteProblem(path, "random", p))
		back, name, err := ReadProblem(path)
		require.NoError(t, err)
		assert.Equal(t, "random", name)
		a, err := NLGS(p, Options{})
		require.NoError(t, err)
		b, err := NLGS(back, Options{})
		require.NoError(t, err)
		// Dense and block storage sum in different orders: round-off only.
		assert.Equal(t, shift, back.Shift, "the shifts as they are")
		assert.Equal(t, q, back.Q)
		assert.InDeltaSlice(t, a.R, b.R, 1e-12, "n = %d: the same problem", n)
		// The same impulses measure the same residual in both: the run's
		// and the exported problem's agree.
		u, uBack := make([]float64, 2*n), make([]float64, 2*n)
		assert.InDelta(t, Residual(p, a.R, u), Residual(back, a.R, uBack), 1e-15, "n = %d: the same residual", n)
	}
	_, _, err := ReadProblem(filepath.Join(dir, "missing.json"))
	assert.Error(t, err)
}

// TestResidualOnly: on the hyperstatic bar from a random start, stopping on
// the residual alone still gives a solution satisfying the laws, and the
// residual is checked where Options says: every 10 sweeps, or once the
// change is below Tol (a negative ChangeTol is no bound on the change).
func TestResidualOnly(t *testing.T) {
	p := bar()
	res, err := NLGS(p, Options{ChangeTol: -1, Tol: 1e-10, Start: RandomBox, Box: 0.02, Seed: 3})
	require.NoError(t, err)
	assert.LessOrEqual(t, res.Residual, 1e-10)
	assert.True(t, res.Sweeps%10 == 0 || res.Change <= 1e-10, "stopped at sweep %d with change %.3g", res.Sweeps, res.Change)
}

// blockSparseOf stores a dense W by blocks, dropping none.
func blockSparseOf(t *testing.T, d *Dense) *BlockSparse {
	var e []Triplet
	for i := range 2 * d.N {
		for j := range 2 * d.N {
			e = append(e, Triplet{I: i, J: j, V: d.Data[i*2*d.N+j]})
		}
	}
	w, err := NewBlockSparse(d.N, e)
	require.NoError(t, err)
	return w
}

// TestRenumbered: block (i, j) of the renumbered W is block (perm i,
// perm j) of W.
func TestRenumbered(t *testing.T) {
	d := randomSPD(rand.New(rand.NewPCG(5, 5)), 7)
	perm := []int{3, 0, 6, 2, 5, 1, 4}
	w := blockSparseOf(t, d).Renumbered(perm)
	for i := range perm {
		for j := range perm {
			b := w.Block(i, j)
			require.NotNil(t, b)
			for k := range 4 {
				assert.Equal(t, d.Data[(2*perm[i]+k/2)*2*d.N+2*perm[j]+k%2], b[k], "block (%d, %d)", i, j)
			}
		}
	}
}

// TestShuffledRenumbers: a sparse W is solved in the shuffled order by
// renumbering it; the solutions of the bar on three supports, which
// depend on the order, are those of the same order over the dense W.
func TestShuffledRenumbers(t *testing.T) {
	dense := bar()
	sparse := *dense
	sparse.W = blockSparseOf(t, dense.W.(*Dense))
	spread := map[float64]bool{}
	for seed := range uint64(20) {
		for _, start := range []Start{Zero, RandomBox} {
			opt := Options{Order: Shuffled, Seed: seed, Start: start, Box: 0.02, Tol: 1e-12, ChangeTol: -1, MaxSweeps: 100000}
			want, err := NLGS(dense, opt)
			require.NoError(t, err)
			got, err := NLGS(&sparse, opt)
			require.NoError(t, err)
			assert.InDeltaSlice(t, want.R, got.R, 1e-14, "seed %d start %d", seed, start)
			assert.Equal(t, want.Status, got.Status)
			spread[math.Round(want.R[2]*1e6)] = true
		}
	}
	assert.Greater(t, len(spread), 5, "the orders must lead to different solutions")
}
