package fe

import (
	"math"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// block is the upper block of [JM91]'s colliding blocks: 0.04 m square,
// E 1300 MPa, nu 0.2, rho 7800, plane strain.
var blockMat = element.Elastic{E: 1300e6, Nu: 0.2, Rho: 7800}

func newBody(t testing.TB, kind mesh.Kind, w, h float64, nx, ny int, opt BodyOptions, fixes ...assemble.Fix) *Body {
	m, err := mesh.Rectangle([2]float64{0, 0}, w, h, nx, ny, kind)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m, fixes...)
	require.NoError(t, err)
	b, err := NewBody("test", s, blockMat, opt)
	require.NoError(t, err)
	return b
}

// swirl is a non-uniform velocity field: a rotation about the block's
// centre plus a shear, so that both rigid and elastic motion are excited.
func swirl(x [2]float64) [2]float64 {
	cx, cy := x[0]-0.02, x[1]-0.02
	return [2]float64{-200*cy + 3000*cy*cy, 200*cx + 10}
}

// TestEnergyConservedThetaHalf: theta = 1/2, no damping, no contact: the
// discrete energy of a free block stays constant to 1e-10 over 10 000 steps.
func TestEnergyConservedThetaHalf(t *testing.T) {
	for _, kind := range []mesh.Kind{mesh.Q4, mesh.T6} {
		b := newBody(t, kind, 0.04, 0.04, 6, 6, BodyOptions{})
		b.SetVelocity(swirl)
		s, err := NewStepper(1e-6, 0.5, b)
		require.NoError(t, err)
		e0 := s.TotalEnergy()
		require.Greater(t, e0.Kinetic, 0.0)
		maxElastic := 0.0
		for i := 0; i < 10000; i++ {
			require.NoError(t, s.Step())
			e := s.TotalEnergy()
			maxElastic = math.Max(maxElastic, e.Elastic)
			require.InDelta(t, e0.Kinetic, e.Kinetic+e.Elastic, 1e-10*e0.Kinetic, "%v step %d", kind, i)
		}
		assert.Greater(t, maxElastic, 1e-3*e0.Kinetic, "the swirl must deform the block")
		assert.Zero(t, s.TotalEnergy().Numerical)
	}
}

// modal returns the exact solution q(t) of M q” + K q = 0 from q0, v0 by
// the generalised eigen-decomposition of (K, M), dense.
func modal(t testing.TB, b *Body, q0, v0 []float64, time float64) []float64 {
	n := len(q0)
	M := mat.DenseCopyOf(b.M)
	K := mat.DenseCopyOf(b.K)
	var chol mat.Cholesky
	require.True(t, chol.Factorize(mat.NewSymDense(n, M.RawMatrix().Data)))
	var L, Linv mat.TriDense
	chol.LTo(&L)
	require.NoError(t, Linv.InverseTri(&L))
	var A mat.Dense
	A.Product(&Linv, K, Linv.T())
	var eig mat.EigenSym
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sym.SetSym(i, j, (A.At(i, j)+A.At(j, i))/2)
		}
	}
	require.True(t, eig.Factorize(sym, true))
	var Z, Phi mat.Dense
	eig.VectorsTo(&Z)
	Phi.Mul(Linv.T(), &Z) // M-orthonormal modes
	w2 := eig.Values(nil)
	var a, c mat.VecDense
	var Mq, Mv mat.VecDense
	Mq.MulVec(M, mat.NewVecDense(n, q0))
	Mv.MulVec(M, mat.NewVecDense(n, v0))
	a.MulVec(Phi.T(), &Mq)
	c.MulVec(Phi.T(), &Mv)
	coef := make([]float64, n)
	for k := range coef {
		w := math.Sqrt(w2[k])
		coef[k] = a.AtVec(k)*math.Cos(w*time) + c.AtVec(k)/w*math.Sin(w*time)
	}
	var q mat.VecDense
	q.MulVec(&Phi, mat.NewVecDense(n, coef))
	return q.RawVector().Data
}

// TestOrderOfAccuracy: against the exact modal solution of a small
// cantilever, the error at a fixed time falls by 4 when h halves for
// theta = 1/2 (second order), and by 2 for theta = 0.75 (first order).
func TestOrderOfAccuracy(t *testing.T) {
	for _, tc := range []struct {
		theta    float64
		lo, hi   float64
		expected string
	}{{0.5, 3.8, 4.2, "second"}, {0.75, 1.9, 2.1, "first"}} {
		var errs []float64
		var b *Body
		for _, steps := range []int{800, 1600, 3200} {
			b = newBody(t, mesh.Q4, 0.04, 0.01, 4, 1, BodyOptions{}, assemble.Fix{Group: "left", Comp: assemble.XY})
			b.SetVelocity(func(x [2]float64) [2]float64 { return [2]float64{0, 5 * x[0] / 0.04} })
			v0 := append([]float64(nil), b.V...)
			q0 := make([]float64, len(v0))
			T := 2e-4 // a few periods of the lowest modes, one of the highest
			s, err := NewStepper(T/float64(steps), tc.theta, b)
			require.NoError(t, err)
			for i := 0; i < steps; i++ {
				require.NoError(t, s.Step())
			}
			exact := modal(t, b, q0, v0, s.Time())
			diff := make([]float64, len(exact))
			floats.SubTo(diff, b.Q, exact)
			errs = append(errs, floats.Norm(diff, 2)/floats.Norm(exact, 2))
		}
		r1, r2 := errs[0]/errs[1], errs[1]/errs[2]
		t.Logf("theta %.2f: errors %.3g, ratios %.3f %.3f (%s order)", tc.theta, errs, r1, r2, tc.expected)
		assert.True(t, r2 >= tc.lo && r2 <= tc.hi, "theta %.2f: error ratio %.3f outside [%.1f, %.1f]", tc.theta, r2, tc.lo, tc.hi)
	}
}

// TestThetaAboveHalfDissipates: with theta > 1/2 and no loads, T + E never
// grows, and the numerical dissipation accounts for what is lost.
func TestThetaAboveHalfDissipates(t *testing.T) {
	b := newBody(t, mesh.Q8, 0.04, 0.04, 4, 4, BodyOptions{})
	b.SetVelocity(swirl)
	s, err := NewStepper(2e-6, 0.55, b)
	require.NoError(t, err)
	e0 := s.TotalEnergy()
	prev := e0.Kinetic + e0.Elastic
	for i := 0; i < 2000; i++ {
		require.NoError(t, s.Step())
		e := s.TotalEnergy()
		now := e.Kinetic + e.Elastic
		require.LessOrEqual(t, now, prev*(1+1e-14), "step %d", i)
		prev = now
	}
	e := s.TotalEnergy()
	assert.Greater(t, e.Numerical, 1e-4*e0.Kinetic, "theta = 0.55 must dissipate the high modes")
	assert.InDelta(t, e0.Balance(), e.Balance(), 1e-11*e0.Kinetic)
}

// TestEnergyBalanceWithLoadsAndDamping: gravity, a time-dependent traction
// and Rayleigh damping, with theta = 0.6: the balance closes to round-off.
func TestEnergyBalanceWithLoadsAndDamping(t *testing.T) {
	b := newBody(t, mesh.T3, 0.12, 0.04, 12, 4, BodyOptions{
		Damping: Rayleigh{Alpha: 50, Beta: 1e-7},
		Gravity: [2]float64{0, -9.81},
		Traction: []Traction{{Group: "right", Value: func(t float64, x, n [2]float64) [2]float64 {
			return [2]float64{0, -1e6 * math.Sin(2*math.Pi*t/1e-4)}
		}}},
	}, assemble.Fix{Group: "left", Comp: assemble.XY})
	s, err := NewStepper(1e-6, 0.6, b)
	require.NoError(t, err)
	for i := 0; i < 500; i++ {
		require.NoError(t, s.Step())
	}
	e := s.TotalEnergy()
	require.Greater(t, e.External, 0.0)
	require.Greater(t, e.Damping, 0.0)
	assert.InDelta(t, 0, e.Balance(), 1e-10*e.External, "initial balance is zero: the block starts at rest")
}

// TestImpulseHook: an impulse r entering between Begin and Finish
// changes the momentum by exactly sum(r) (x components), and its work is
// booked so that the balance still closes.
func TestImpulseHook(t *testing.T) {
	b := newBody(t, mesh.Q4, 0.04, 0.04, 4, 4, BodyOptions{})
	b.SetVelocity(swirl)
	s, err := NewStepper(1e-6, 0.5, b)
	require.NoError(t, err)
	momentum := func() float64 {
		mv := make([]float64, len(b.V))
		assemble.MulVecTo(mv, b.M, b.V)
		var p float64
		for e, full := range b.Space.DOFs.DOF {
			if full%2 == 0 {
				p += mv[e]
			}
		}
		return p
	}
	p0 := momentum()
	e0 := s.TotalEnergy()
	r := make([]float64, s.Body(0).Space.N())
	node := b.Space.Mesh.NodeGroups["bottom"][2]
	r[b.Space.DOFs.Eq[2*node]] = 0.01 // N s
	r[b.Space.DOFs.Eq[2*node+1]] = 0.03
	require.ErrorContains(t, s.AddImpulse(0, r), "outside a step")
	require.NoError(t, s.Begin())
	require.ErrorContains(t, s.AddImpulse(0, r[1:]), "values for")
	require.ErrorContains(t, s.AddImpulse(1, r), "body 1 of 1")
	require.NoError(t, s.AddImpulse(0, r))
	require.NoError(t, s.Finish())
	assert.InDelta(t, p0+0.01, momentum(), 1e-12)
	e := s.TotalEnergy()
	assert.NotZero(t, e.Contact)
	assert.InDelta(t, e0.Balance(), e.Balance(), 1e-12*e0.Kinetic)
}

func TestStepErrors(t *testing.T) {
	b := newBody(t, mesh.Q4, 0.04, 0.04, 2, 2, BodyOptions{})
	_, err := NewStepper(0, 0.5, b)
	assert.ErrorContains(t, err, "time step h = 0 must be positive")
	_, err = NewStepper(-1e-6, 0.5, b)
	assert.ErrorContains(t, err, "time step h = -1e-06 must be positive")
	_, err = NewStepper(1e-6, 0.4, b)
	assert.ErrorContains(t, err, "theta = 0.4 must lie in [1/2, 1]")
	_, err = NewStepper(math.NaN(), 0.5, b)
	assert.ErrorContains(t, err, "time step h = NaN")
	s, err := NewStepper(1e-6, 0.5, b)
	require.NoError(t, err)
	assert.ErrorContains(t, s.Finish(), "Finish without Begin")
	b.V[0] = math.NaN()
	require.NoError(t, s.Restart())
	assert.ErrorContains(t, s.Step(), "the state is NaN at t = 1e-06 (step 1)")
}

// TestRefactorOnNewStep: changing h refactorises and the energy is still
// conserved with theta = 1/2.
func TestRefactorOnNewStep(t *testing.T) {
	b := newBody(t, mesh.Q4, 0.04, 0.04, 4, 4, BodyOptions{})
	b.SetVelocity(swirl)
	s, err := NewStepper(1e-6, 0.5, b)
	require.NoError(t, err)
	e0 := s.TotalEnergy()
	for i := 0; i < 100; i++ {
		require.NoError(t, s.Step())
	}
	require.NoError(t, s.SetStep(3e-6, 0.5))
	for i := 0; i < 100; i++ {
		require.NoError(t, s.Step())
	}
	assert.InDelta(t, 4e-4, s.Time(), 1e-15)
	e := s.TotalEnergy()
	assert.InDelta(t, e0.Kinetic, e.Kinetic+e.Elastic, 1e-11*e0.Kinetic)
}

// TestContactBoundaryTail: with contact nodes ordered last, the free
// velocity on them, their compliance and an impulse on them agree with
// full solves with the same Mhat.
func TestContactBoundaryTail(t *testing.T) {
	b := newBody(t, mesh.Q8, 0.04, 0.04, 4, 4, BodyOptions{}, assemble.Fix{Group: "left", Comp: assemble.XY})
	b.ContactNodes = b.Space.Mesh.NodeGroups["bottom"]
	b.SetVelocity(swirl)
	ref := newBody(t, mesh.Q8, 0.04, 0.04, 4, 4, BodyOptions{}, assemble.Fix{Group: "left", Comp: assemble.XY})
	ref.SetVelocity(swirl)
	s, err := NewStepper(1e-6, 0.5, b)
	require.NoError(t, err)
	sr, err := NewStepper(1e-6, 0.5, ref)
	require.NoError(t, err)
	require.NoError(t, s.Begin())
	require.NoError(t, sr.Begin())
	comp := s.Compliance(0)
	C, eqs := comp.C, comp.Eqs
	require.Len(t, eqs, 2*9-2, "9 bottom nodes, the corner one fixed")
	// Reference free velocity: a full solve in the unsplit stepper.
	full := make([]float64, b.Space.N())
	sr.Solve(0, full, sr.bodies[0].rhs)
	for _, e := range eqs {
		assert.InDelta(t, ref.V[e]+full[e], s.FreeVelocity(0)[e], 1e-12)
	}
	// Compliance: column k is Mhat^-1 e_k restricted to B, by solves.
	bysolves, err := sr.ComplianceOn(0, eqs)
	require.NoError(t, err)
	for i := range C {
		assert.InDelta(t, bysolves.C[i], C[i], 1e-12*C[0])
	}
	_, err = sr.ComplianceOn(0, []int{b.Space.N()})
	assert.ErrorContains(t, err, "equation")
	// The same impulse through the tail and through full solves.
	r := make([]float64, b.Space.N())
	r[eqs[3]], r[eqs[4]] = 0.02, -0.01
	require.NoError(t, s.AddImpulse(0, r))
	require.NoError(t, sr.AddImpulse(0, r))
	require.NoError(t, s.Finish())
	require.NoError(t, sr.Finish())
	assert.InDeltaSlice(t, ref.V, b.V, 1e-11)
	assert.InDeltaSlice(t, ref.Q, b.Q, 1e-17)
}

// TestLoadRamp: a column clamped at its foot under its own weight. Gravity
// applied at once overshoots to twice the static shortening (the classic
// dynamic amplification of a step load); ramped over ten periods of the
// first mode it reaches the static value without overshoot. The ledger
// closes both ways.
func TestLoadRamp(t *testing.T) {
	const h, L = 1e-5, 0.1
	static := func(b *Body) []float64 {
		n := b.Space.N()
		K := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				K.Set(i, j, b.K.At(i, j))
			}
		}
		f := make([]float64, n)
		require.NoError(t, b.Force(f, 1))
		var u mat.VecDense
		require.NoError(t, u.SolveVec(K, mat.NewVecDense(n, f)))
		return u.RawVector().Data
	}
	top := func(b *Body, u []float64) float64 { // the top right node's y
		full := make([]float64, 2*len(b.Space.Mesh.Nodes))
		b.Space.Expand(full, u, nil)
		return full[2*(len(b.Space.Mesh.Nodes)-1)+1]
	}
	for _, tc := range []struct {
		ramp      float64
		lo, hi    float64 // largest shortening / static
		endWithin float64
	}{
		{0, 1.8, 2.05, 1},
		{10e-3, 0.95, 1.1, 0.1},
	} {
		b := newBody(t, mesh.Q4, 0.02, L, 2, 10, BodyOptions{Gravity: [2]float64{0, -9.81}, Ramp: tc.ramp},
			assemble.Fix{Group: "bottom", Comp: assemble.XY})
		us := top(b, static(b))
		s, err := NewStepper(h, 0.5, b)
		require.NoError(t, err)
		peak := 0.0
		for i := 0; i < 1500; i++ {
			require.NoError(t, s.Step())
			peak = math.Max(peak, top(b, b.Q)/us)
		}
		t.Logf("ramp %g s: peak shortening %.4f x static, end %.4f", tc.ramp, peak, top(b, b.Q)/us)
		assert.GreaterOrEqual(t, peak, tc.lo, "ramp %g", tc.ramp)
		assert.LessOrEqual(t, peak, tc.hi, "ramp %g", tc.ramp)
		if tc.ramp > 0 {
			assert.InDelta(t, 1, top(b, b.Q)/us, tc.endWithin, "settled at the static shortening")
		}
		e := s.TotalEnergy()
		assert.Less(t, math.Abs(e.Balance()), 1e-9*math.Abs(e.External), "ledger")
	}
}

// TestDampingBound: a stepper refuses the mass damping a step cannot take
// (alpha h (1 - theta) > 1 flips velocities every step), as the scene
// decoder does, at construction and when h changes.
func TestDampingBound(t *testing.T) {
	b := freeSquareOf(t, mesh.Q4, rubberMat, BodyOptions{Damping: Rayleigh{Alpha: 3000}}, func([2]float64) [2]float64 { return [2]float64{} })
	_, err := NewStepper(1e-3, 0.5, b)
	require.EqualError(t, err, "body square: alpha h (1 - theta) = 1.5 > 1 makes velocities change sign every step: use alpha < 2e+03, or theta = 1")
	s, err := NewStepper(1e-4, 0.5, b)
	require.NoError(t, err)
	require.ErrorContains(t, s.SetStep(1e-3, 0.5), "alpha h (1 - theta) = 1.5 > 1")
	require.NoError(t, s.SetStep(1e-3, 1), "theta = 1 takes any alpha")
}

// TestContactNodesKept: the stepper keeps the contact nodes it was built
// with: emptying Body.ContactNodes afterwards and refactorising for a new
// step leaves the compliance on the same DOFs (it was computed on the
// field's nodes against a factor ordered by the first ones).
func TestContactNodesKept(t *testing.T) {
	b := newBody(t, mesh.Q4, 0.04, 0.04, 4, 4, BodyOptions{}, assemble.Fix{Group: "left", Comp: assemble.XY})
	b.ContactNodes = b.Space.Mesh.NodeGroups["bottom"]
	s, err := NewStepper(1e-6, 0.5, b)
	require.NoError(t, err)
	before := slices.Clone(s.Compliance(0).Eqs)
	require.Len(t, before, 2*5-2)
	b.ContactNodes = nil
	require.NoError(t, s.SetStep(2e-6, 0.5))
	assert.Equal(t, before, s.Compliance(0).Eqs)
}
