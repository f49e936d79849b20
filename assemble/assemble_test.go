package assemble

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/internal/analytic"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

var steel = element.Elastic{E: 210e9, Nu: 0.3, Rho: 7800, Thickness: 0.02}

var allSides = []Fix{{"bottom", XY}, {"top", XY}, {"left", XY}, {"right", XY}}

// distorted returns a w x h rectangle mesh of kind k whose interior corner
// nodes are moved at random by up to 20% of the cell size and whose interior
// mid-side nodes sit near (not at) the middle of their moved sides.
func distorted(t testing.TB, k mesh.Kind, w, h float64, nx, ny int, seed uint64) *mesh.Mesh {
	m, err := mesh.Rectangle([2]float64{}, w, h, nx, ny, k)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, 7))
	onBoundary := map[int]bool{}
	for _, e := range m.BoundaryEdges() {
		for _, n := range e.Nodes {
			onBoundary[n] = true
		}
	}
	nc := k.NumCorners()
	moved := map[int]bool{}
	for _, c := range m.Cells {
		for _, n := range c.Nodes[:nc] {
			if !onBoundary[n] && !moved[n] {
				moved[n] = true
				m.Nodes[n][0] += 0.2 * w / float64(nx) * (2*rng.Float64() - 1)
				m.Nodes[n][1] += 0.2 * h / float64(ny) * (2*rng.Float64() - 1)
			}
		}
	}
	for _, c := range m.Cells {
		for s := nc; s < len(c.Nodes); s++ {
			n := c.Nodes[s]
			if onBoundary[n] || moved[n] {
				continue
			}
			moved[n] = true
			a, b := m.Nodes[c.Nodes[s-nc]], m.Nodes[c.Nodes[(s-nc+1)%nc]]
			m.Nodes[n] = [2]float64{(a[0]+b[0])/2 + 0.03*(b[1]-a[1]), (a[1]+b[1])/2 - 0.03*(b[0]-a[0])}
		}
	}
	require.NoError(t, element.CheckMesh(m), "the distortion must keep every cell valid")
	return m
}

// linear is an arbitrary linear displacement field.
func linear(x [2]float64) [2]float64 {
	return [2]float64{1e-3 + 2e-3*x[0] - 1e-3*x[1], -2e-3 + 0.5e-3*x[0] + 3e-3*x[1]}
}

func mulVec(A *csr.Matrix, x []float64) []float64 {
	n, _ := A.Dims()
	y := make([]float64, n)
	A.MulVecTo(y, x)
	return y
}

// TestPatch: with a linear field imposed on the boundary of a distorted
// mesh, the solution reproduces it at every node and the strain is the
// field's constant strain at every point, to 1e-10.
func TestPatch(t *testing.T) {
	for _, k := range mesh.Kinds {
		t.Run(k.String(), func(t *testing.T) {
			m := distorted(t, k, 2, 1, 4, 3, 1)
			s, err := NewSpace(m, allSides...)
			require.NoError(t, err)
			require.Greater(t, s.N(), 0)
			K, err := s.Stiffness(steel)
			require.NoError(t, err)
			rhs := s.Vector()
			require.NoError(t, s.Lift(rhs, steel, linear))
			f, err := s.Factor(K)
			require.NoError(t, err)
			u := make([]float64, 2*len(m.Nodes))
			s.Expand(u, f.Solve(rhs), func(n int) [2]float64 { return linear(m.Nodes[n]) })
			for n, x := range m.Nodes {
				want := linear(x)
				assert.InDelta(t, want[0], u[2*n], 1e-10*1e-3, "node %d x", n)
				assert.InDelta(t, want[1], u[2*n+1], 1e-10*1e-3, "node %d y", n)
			}
			// exx = 2e-3, eyy = 3e-3, gxy = -1e-3 + 0.5e-3.
			D := steel.D()
			want := element.Stress{XX: D[0][0]*2e-3 + D[0][1]*3e-3, YY: D[1][0]*2e-3 + D[1][1]*3e-3, XY: D[2][2] * -0.5e-3}
			st, err := s.Stresses(u, steel)
			require.NoError(t, err)
			scale := math.Abs(want.YY)
			for n, got := range st.Node {
				assert.InDelta(t, want.XX, got.XX, 1e-10*scale, "node %d", n)
				assert.InDelta(t, want.YY, got.YY, 1e-10*scale, "node %d", n)
				assert.InDelta(t, want.XY, got.XY, 1e-10*scale, "node %d", n)
			}
			// Zero residual at interior nodes: the unconstrained K times the
			// exact field has no force where no node is fixed.
			free, err := NewSpace(m)
			require.NoError(t, err)
			Kf, err := free.Stiffness(steel)
			require.NoError(t, err)
			exact := make([]float64, 2*len(m.Nodes))
			for n, x := range m.Nodes {
				v := linear(x)
				exact[2*n], exact[2*n+1] = v[0], v[1]
			}
			r := mulVec(Kf, exact)
			boundary := map[int]bool{}
			for _, n := range mesh.EdgeNodes(m.BoundaryEdges()) {
				boundary[n] = true
			}
			norm := floats.Norm(r, math.Inf(1))
			for n := range m.Nodes {
				if !boundary[n] {
					assert.InDelta(t, 0, r[2*n], 1e-10*norm)
					assert.InDelta(t, 0, r[2*n+1], 1e-10*norm)
				}
			}
		})
	}
}

// TestRigidBodyModes: two translations and the infinitesimal rotation are
// in the null space of the unconstrained K, to round-off.
func TestRigidBodyModes(t *testing.T) {
	for _, k := range mesh.Kinds {
		m := distorted(t, k, 1, 0.5, 3, 2, 2)
		s, err := NewSpace(m)
		require.NoError(t, err)
		K, err := s.Stiffness(steel)
		require.NoError(t, err)
		norm := 0.0
		for _, v := range K.Data {
			norm = math.Max(norm, math.Abs(v))
		}
		for name, mode := range map[string]func(x [2]float64) [2]float64{
			"x":        func([2]float64) [2]float64 { return [2]float64{1, 0} },
			"y":        func([2]float64) [2]float64 { return [2]float64{0, 1} },
			"rotation": func(x [2]float64) [2]float64 { return [2]float64{-x[1], x[0]} },
		} {
			u := make([]float64, s.N())
			for e, full := range s.DOFs.DOF {
				u[e] = mode(m.Nodes[full/2])[full%2]
			}
			r := mulVec(K, u)
			assert.Less(t, floats.Norm(r, math.Inf(1)), 1e-12*norm, "%v %s", k, name)
		}
	}
}

func TestTotalMass(t *testing.T) {
	for _, k := range mesh.Kinds {
		m := distorted(t, k, 1.5, 0.5, 3, 2, 3)
		s, err := NewSpace(m)
		require.NoError(t, err)
		M, err := s.Mass(steel)
		require.NoError(t, err)
		want := steel.Rho * m.TotalArea() * steel.T()
		// u = 1 in x: 1' M 1 over the x DOFs is the total mass.
		ones := make([]float64, s.N())
		for e, full := range s.DOFs.DOF {
			ones[e] = float64(1 - full%2)
		}
		assert.InEpsilon(t, want, floats.Dot(ones, mulVec(M, ones)), 1e-12, "%v consistent", k)
		ml, err := s.LumpedMass(steel)
		require.NoError(t, err)
		for n, v := range ml {
			assert.Greater(t, v, 0.0, "%v lumped mass of node %d", k, n)
		}
		assert.InEpsilon(t, want, floats.Sum(ml), 1e-12, "%v lumped", k)
	}
}

// l2Error integrates |u_h - u|^2 over the mesh with a rule of degree 7
// (quadrangles) or 5 (triangles).
func l2Error(s *Space, uh []float64, exact func([2]float64) [2]float64) float64 {
	m := s.Mesh
	var sum float64
	var X [][2]float64
	for c, cell := range m.Cells {
		X = m.CellNodes(X, c)
		deg := 7
		if cell.Kind.IsTriangle() {
			deg = 5
		}
		e := element.NewWithRule(cell.Kind, element.RuleDegree(cell.Kind, deg))
		for q, p := range e.Points {
			det := e.Map(X, q, make([][2]float64, len(X)))
			var x, v [2]float64
			for a, n := range cell.Nodes {
				x[0] += e.N[q][a] * X[a][0]
				x[1] += e.N[q][a] * X[a][1]
				v[0] += e.N[q][a] * uh[2*n]
				v[1] += e.N[q][a] * uh[2*n+1]
			}
			ue := exact(x)
			sum += p.W * det * ((v[0]-ue[0])*(v[0]-ue[0]) + (v[1]-ue[1])*(v[1]-ue[1]))
		}
	}
	return math.Sqrt(sum)
}

// TestConvergence solves the manufactured problem of package analytic on
// three refinements and checks the L2 rate: >= 1.9 for linear kinds, >= 2.8
// for quadratic ones (the asymptotic rates are 2 and 3).
func TestConvergence(t *testing.T) {
	mat := element.Elastic{E: 1, Nu: 0.3, Rho: 1}
	D := mat.D()
	sol := analytic.Manufactured{A: 1.1, B: 2, C: 1.5, D: 1.3, D00: D[0][0], D01: D[0][1], G: D[2][2]}
	for _, k := range mesh.Kinds {
		t.Run(k.String(), func(t *testing.T) {
			sizes := []int{4, 8, 16}
			if k.Order() == 1 {
				sizes = []int{8, 16, 32}
			}
			var errs []float64
			for _, n := range sizes {
				m, err := mesh.Rectangle([2]float64{0, 0}, 1, 1, n, n, k)
				require.NoError(t, err)
				s, err := NewSpace(m, allSides...)
				require.NoError(t, err)
				K, err := s.Stiffness(mat)
				require.NoError(t, err)
				rhs := s.Vector()
				require.NoError(t, s.BodyForce(rhs, mat.T(), sol.F))
				require.NoError(t, s.Lift(rhs, mat, sol.U))
				f, err := s.Factor(K)
				require.NoError(t, err)
				u := make([]float64, 2*len(m.Nodes))
				s.Expand(u, f.Solve(rhs), func(n int) [2]float64 { return sol.U(m.Nodes[n]) })
				errs = append(errs, l2Error(s, u, sol.U))
			}
			var rates []float64
			for i := 1; i < len(errs); i++ {
				rates = append(rates, math.Log2(errs[i-1]/errs[i]))
			}
			t.Logf("%v: L2 errors %.3g, rates %.3f", k, errs, rates)
			min := 1.9
			if k.Order() == 2 {
				min = 2.8
			}
			assert.GreaterOrEqual(t, rates[len(rates)-1], min)
		})
	}
}

// TestFactorMatchesDense solves with the sparse factor and with gonum's
// dense Cholesky on assembled matrices with fixed DOFs.
func TestFactorMatchesDense(t *testing.T) {
	for _, k := range mesh.Kinds {
		m := distorted(t, k, 0.12, 0.04, 9, 3, 4)
		s, err := NewSpace(m, Fix{"bottom", XY}, Fix{"left", X})
		require.NoError(t, err)
		K, err := s.Stiffness(steel)
		require.NoError(t, err)
		M, err := s.Mass(steel)
		require.NoError(t, err)
		h, theta := 1e-6, 0.5
		for name, A := range map[string]*csr.Matrix{"K": K, "Mhat": s.Combine(1, M, h*h*theta*theta, K)} {
			f, err := s.Factor(A)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(5, 6))
			b := make([]float64, s.N())
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			var chol mat.Cholesky
			dense := mat.NewSymDense(s.N(), mat.DenseCopyOf(A).RawMatrix().Data)
			require.True(t, chol.Factorize(dense))
			var want mat.VecDense
			require.NoError(t, chol.SolveVecTo(&want, mat.NewVecDense(s.N(), b)))
			got := f.Solve(b)
			diff := make([]float64, len(got))
			floats.SubTo(diff, got, want.RawVector().Data)
			rel := floats.Norm(diff, 2) / floats.Norm(want.RawVector().Data, 2)
			assert.Less(t, rel, 1e-10, "%v %s", k, name)
		}
	}
}

func TestErrorsNameTheEntity(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{}, 1, 1, 2, 2, mesh.Q4)
	require.NoError(t, err)
	_, err = NewSpace(m, Fix{"bottm", XY})
	assert.ErrorContains(t, err, `no node group "bottm" (node groups: bottom, left, right, top)`)

	s, err := NewSpace(m)
	require.NoError(t, err)
	K, err := s.Stiffness(steel)
	require.NoError(t, err)
	_, err = s.Factor(K)
	assert.ErrorContains(t, err, "vanishes or is negative", "a free body's K is singular")
	assert.ErrorContains(t, err, "mesh rect(Q4 1x1 2x2): node ")

	bad := steel
	bad.Rho = -1
	_, err = s.Mass(bad)
	assert.ErrorContains(t, err, "density rho = -1")

	m.Nodes[4], m.Nodes[5] = m.Nodes[5], m.Nodes[4]
	_, err = NewSpace(m)
	assert.ErrorContains(t, err, "cell 1: bad Jacobian: inverted")
}

func ExampleSpace() {
	m, _ := mesh.Rectangle([2]float64{0, 0}, 1, 0.1, 20, 2, mesh.Q8)
	s, _ := NewSpace(m, Fix{"left", XY})
	mat := element.Elastic{E: 200e9, Nu: 0.3, Rho: 7800, PlaneStress: true, Thickness: 0.1}
	K, _ := s.Stiffness(mat)
	f := s.Vector()
	// 1 kN downwards spread over the right end.
	_ = s.Traction(f, "right", mat.T(), func(x, n [2]float64) [2]float64 { return [2]float64{0, -1e3 / (0.1 * 0.1)} })
	factor, _ := s.Factor(K)
	u := make([]float64, 2*len(m.Nodes))
	s.Expand(u, factor.Solve(f), nil)
	tip := m.NodeGroups["right"][1] // middle of the right edge
	// Euler-Bernoulli: P L^3 / (3 E I) with I = t h^3 / 12; shear adds 0.5% at L/h = 10.
	I := 0.1 * math.Pow(0.1, 3) / 12
	fmt.Printf("tip deflection %.3f mm (beam theory %.3f mm)\n", -u[2*tip+1]*1e3, 1e3*1e3/(3*200e9*I))
	// Output: tip deflection 0.201 mm (beam theory 0.200 mm)
}

// TestAssembleOwnKernel: the public assembly loop with a caller's kernel
// gives what Mass gives when the kernel is the element's; a kernel's error
// and a NaN in an element matrix name the cell.
func TestAssembleOwnKernel(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 0}, 1, 1, 3, 2, mesh.T6)
	require.NoError(t, err)
	s, err := NewSpace(m, Fix{"left", XY})
	require.NoError(t, err)
	want, err := s.Mass(steel)
	require.NoError(t, err)
	e := element.New(mesh.T6)
	got, err := s.Assemble(func(c int, X [][2]float64, me []float64) error { return e.Mass(me, X, steel) })
	require.NoError(t, err)
	assert.Equal(t, want.Data, got.Data)

	_, err = s.Assemble(func(c int, X [][2]float64, ke []float64) error {
		if c == 4 {
			return fmt.Errorf("my element has no rule for %d nodes", len(X))
		}
		return nil
	})
	assert.ErrorContains(t, err, "mesh rect(T6 1x1 3x2): cell 4")
	assert.ErrorContains(t, err, "my element has no rule for 6 nodes")
	_, err = s.Assemble(func(c int, X [][2]float64, ke []float64) error {
		ke[len(ke)-1] = math.NaN()
		return nil
	})
	assert.ErrorContains(t, err, "mesh rect(T6 1x1 3x2): cell 0")
	assert.ErrorContains(t, err, "NaN or infinite")
}

// TestStressesKeepTheirGradients: the recovery with the gradients kept
// from its first call gives, at every call, the stresses of
// element.StressAt at each cell's nodes and centroid to the bit, on a
// distorted mesh of every kind, for displacements that change between
// the calls.
func TestStressesKeepTheirGradients(t *testing.T) {
	for _, k := range mesh.Kinds {
		t.Run(k.String(), func(t *testing.T) {
			m, err := mesh.Rectangle([2]float64{}, 2, 1, 3, 2, k)
			require.NoError(t, err)
			for i := range m.Nodes { // a smooth distortion keeps every Jacobian positive
				x := m.Nodes[i]
				m.Nodes[i] = [2]float64{x[0] + 0.1*x[1]*x[1], x[1] + 0.05*x[0]*x[1]}
			}
			s, err := NewSpace(m)
			require.NoError(t, err)
			for call := range 3 {
				u := make([]float64, 2*len(m.Nodes))
				for i := range u {
					u[i] = 1e-3 * math.Sin(float64(i*(call+2)))
				}
				got, err := s.Stresses(u, steel)
				require.NoError(t, err)
				want, err := s.recover(u, func(_, _ int, k mesh.Kind, X [][2]float64, ue []float64, x [2]float64) (element.Stress, error) {
					return element.StressAt(k, X, ue, x, steel)
				})
				require.NoError(t, err)
				require.Equal(t, want, got, "call %d", call)
			}
		})
	}
}

// TestStressesAtNodesAndCentroids: a displacement u_x = x^2 / 2, whose
// strain eps_xx = x is exact on the quadratic cells, has its stress
// sigma_xx = c x at every node and at every cell's centroid, c the same
// everywhere: the recovery evaluates each point where it says it does
// (a node taken for the centroid, or the centroid misplaced, fails it).
func TestStressesAtNodesAndCentroids(t *testing.T) {
	for _, k := range []mesh.Kind{mesh.T6, mesh.Q8} {
		t.Run(k.String(), func(t *testing.T) {
			m, err := mesh.Rectangle([2]float64{1, 0}, 2, 1, 2, 1, k)
			require.NoError(t, err)
			s, err := NewSpace(m)
			require.NoError(t, err)
			u := make([]float64, 2*len(m.Nodes))
			for i, x := range m.Nodes {
				u[2*i] = x[0] * x[0] / 2
			}
			st, err := s.Stresses(u, steel)
			require.NoError(t, err)
			c := st.Node[0].XX / m.Nodes[0][0]
			require.Greater(t, c, 0.0)
			for i, x := range m.Nodes {
				assert.InDelta(t, c*x[0], st.Node[i].XX, 1e-9*c, "node %d at x = %g", i, x[0])
			}
			corners := 3
			if k == mesh.Q8 {
				corners = 4
			}
			for ci, cell := range m.Cells {
				var xc float64
				for _, n := range cell.Nodes[:corners] {
					xc += m.Nodes[n][0] / float64(corners)
				}
				assert.InDelta(t, c*xc, st.Cell[ci].XX, 1e-9*c, "cell %d, centroid x = %g", ci, xc)
			}
		})
	}
}
