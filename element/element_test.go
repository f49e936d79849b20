package element

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// distorted returns the reference nodes of kind k mapped by a smooth,
// orientation-preserving distortion, so that tests see general geometry.
func distorted(k mesh.Kind) [][2]float64 {
	var X [][2]float64
	for _, p := range RefNodes(k) {
		x, y := p[0], p[1]
		X = append(X, [2]float64{1.3*x + 0.2*y + 0.05*x*y + 2, -0.1*x + 0.9*y + 0.04*x*x - 1})
	}
	return X
}

var samplePoints = [][2]float64{{0.1, 0.2}, {0.3, 0.3}, {0.05, 0.7}, {-0.4, 0.5}}

func TestShapeFunctions(t *testing.T) {
	for _, k := range mesh.Kinds {
		t.Run(k.String(), func(t *testing.T) {
			n := k.NumNodes()
			N, dN := make([]float64, n), make([][2]float64, n)
			// Kronecker delta at the nodes.
			for a, p := range RefNodes(k) {
				Shape(k, p, N, nil)
				for b := range N {
					want := 0.0
					if a == b {
						want = 1
					}
					assert.InDelta(t, want, N[b], 1e-14, "N_%d at node %d", b, a)
				}
			}
			h := 1e-6
			Np, Nm := make([]float64, n), make([]float64, n)
			for _, x := range samplePoints {
				Shape(k, x, N, dN)
				// Partition of unity, and its derivative.
				var sum, dsum [2]float64
				for a := range N {
					sum[0] += N[a]
					dsum[0] += dN[a][0]
					dsum[1] += dN[a][1]
				}
				assert.InDelta(t, 1, sum[0], 1e-14)
				assert.InDelta(t, 0, dsum[0], 1e-13)
				assert.InDelta(t, 0, dsum[1], 1e-13)
				// Derivatives against central differences (error ~ h^2).
				for d := 0; d < 2; d++ {
					xp, xm := x, x
					xp[d] += h
					xm[d] -= h
					Shape(k, xp, Np, nil)
					Shape(k, xm, Nm, nil)
					for a := range N {
						assert.InDelta(t, (Np[a]-Nm[a])/(2*h), dN[a][d], 1e-8, "dN_%d/dx_%d", a, d)
					}
				}
			}
		})
	}
}

func TestEdgeShape(t *testing.T) {
	for _, n := range []int{2, 3} {
		N, dN := make([]float64, n), make([]float64, n)
		nodes := []float64{-1, 1, 0}
		for a := 0; a < n; a++ {
			EdgeShape(n, nodes[a], N, nil)
			for b := 0; b < n; b++ {
				assert.InDelta(t, b2f(a == b), N[b], 1e-15)
			}
		}
		EdgeShape(n, 0.3, N, dN)
		var s, ds float64
		for a := range N {
			s += N[a]
			ds += dN[a]
		}
		assert.InDelta(t, 1, s, 1e-15)
		assert.InDelta(t, 0, ds, 1e-15)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestRuleExactness integrates monomials x^i y^j of total degree up to the
// rule's degree on the reference cells and compares with closed forms:
// triangle: i! j! / (i+j+2)!; square [-1,1]^2: product of 2/(i+1) for even i.
func TestRuleExactness(t *testing.T) {
	fact := func(n int) float64 {
		f := 1.0
		for i := 2; i <= n; i++ {
			f *= float64(i)
		}
		return f
	}
	for _, tc := range []struct {
		kind   mesh.Kind
		degree int
	}{{mesh.T3, 1}, {mesh.T3, 2}, {mesh.T3, 4}, {mesh.T3, 5}, {mesh.Q4, 3}, {mesh.Q4, 5}, {mesh.Q4, 7}} {
		rule := RuleDegree(tc.kind, tc.degree)
		for i := 0; i <= tc.degree; i++ {
			for j := 0; i+j <= tc.degree; j++ {
				var got float64
				for _, p := range rule {
					got += p.W * math.Pow(p.X[0], float64(i)) * math.Pow(p.X[1], float64(j))
				}
				var want float64
				if tc.kind.IsTriangle() {
					want = fact(i) * fact(j) / fact(i+j+2)
				} else if i%2 == 0 && j%2 == 0 {
					want = 2 / float64(i+1) * 2 / float64(j+1)
				}
				assert.InDelta(t, want, got, 1e-14, "%v degree %d: x^%d y^%d", tc.kind, tc.degree, i, j)
			}
		}
	}
}

var steel = Elastic{E: 210e9, Nu: 0.3, Rho: 7800, Thickness: 0.01}

func TestMassTotalsAndLumping(t *testing.T) {
	for _, k := range mesh.Kinds {
		t.Run(k.String(), func(t *testing.T) {
			e := New(k)
			X := distorted(k)
			n := k.NumNodes()
			var area float64
			for q, p := range e.Points {
				area += mapGrad(X, e.DN[q], nil) * p.W
			}
			mass := steel.Rho * steel.T() * area
			me := make([]float64, 4*n*n)
			require.NoError(t, e.Mass(me, X, steel))
			var total float64
			for _, v := range me {
				total += v
			}
			assert.InEpsilon(t, 2*mass, total, 1e-13, "consistent mass sums to the mass per component")
			ml := make([]float64, n)
			require.NoError(t, e.LumpedMass(ml, X, steel))
			var lumped float64
			for a, v := range ml {
				assert.Greater(t, v, 0.0, "HRZ nodal mass %d", a)
				lumped += v
			}
			assert.InEpsilon(t, mass, lumped, 1e-13)
		})
	}
}

// TestStiffnessNullSpace checks that rigid motions produce no forces and
// that K is symmetric.
func TestStiffnessNullSpace(t *testing.T) {
	for _, k := range mesh.Kinds {
		for _, ps := range []bool{false, true} {
			m := steel
			m.PlaneStress = ps
			e := New(k)
			X := distorted(k)
			n := 2 * k.NumNodes()
			ke := make([]float64, n*n)
			var w Workspace
			require.NoError(t, e.Stiffness(ke, X, m, &w))
			scale := 0.0
			for _, v := range ke {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					assert.InDelta(t, ke[i*n+j], ke[j*n+i], 1e-14*scale)
				}
			}
			for _, mode := range [][2]float64{{1, 0}, {0, 1}, {math.NaN(), 0}} {
				u := make([]float64, n)
				for a, x := range X {
					if math.IsNaN(mode[0]) { // rotation: u = (-y, x)
						u[2*a], u[2*a+1] = -x[1], x[0]
					} else {
						u[2*a], u[2*a+1] = mode[0], mode[1]
					}
				}
				for i := 0; i < n; i++ {
					var f float64
					for j := 0; j < n; j++ {
						f += ke[i*n+j] * u[j]
					}
					assert.InDelta(t, 0, f, 1e-12*scale, "%v plane stress %v", k, ps)
				}
			}
		}
	}
}

func TestBadCellsAreNamed(t *testing.T) {
	flat := [][2]float64{{0, 0}, {1, 0}, {2, 0}}
	inverted := [][2]float64{{0, 0}, {0, 1}, {1, 0}}
	e := New(mesh.T3)
	ke := make([]float64, 36)
	var w Workspace
	assert.ErrorContains(t, e.Stiffness(ke, flat, steel, &w), "degenerate")
	assert.ErrorContains(t, e.Stiffness(ke, inverted, steel, &w), "inverted")
	assert.ErrorIs(t, e.CheckCell(inverted), ErrBadJacobian)

	m, err := mesh.Rectangle([2]float64{}, 1, 1, 2, 2, mesh.Q8)
	require.NoError(t, err)
	// Drag the mid-side node of cell 3's first side past its top side: the
	// Jacobian changes sign inside it.
	m.Nodes[m.Cells[3].Nodes[4]][1] += 0.7
	assert.ErrorContains(t, CheckMesh(m), "cell 3: bad Jacobian: inverted")
}

func TestMaterialValidate(t *testing.T) {
	for _, tc := range []struct {
		m    Elastic
		want string
	}{
		{Elastic{E: -1, Nu: 0.3, Rho: 1}, "Young's modulus E = -1"},
		{Elastic{E: 1, Nu: 0.5, Rho: 1}, "Poisson's ratio nu = 0.5"},
		{Elastic{E: 1, Nu: 0.3, Rho: -7800}, "density rho = -7800"},
		{Elastic{E: 1, Nu: 0.3, Rho: math.NaN()}, "density rho = NaN"},
		{Elastic{E: 1, Nu: 0.3, Rho: 1, Thickness: -1}, "thickness = -1"},
	} {
		assert.ErrorContains(t, tc.m.Validate(), tc.want)
	}
	assert.NoError(t, steel.Validate())
}

// TestEdgeLoad checks the consistent nodal forces of a uniform traction:
// 1/2, 1/2 of the edge load on a 2-node edge, 1/6, 1/6, 2/3 on a 3-node one.
func TestEdgeLoad(t *testing.T) {
	p := func(x, n [2]float64) [2]float64 { return [2]float64{0, -3} }
	fe := make([]float64, 6)
	require.NoError(t, EdgeLoad(fe[:4], [][2]float64{{0, 0}, {2, 0}}, 0.5, p))
	// load = 3 Pa * 2 m * 0.5 m = 3 N
	assert.InDeltaSlice(t, []float64{0, -1.5, 0, -1.5}, fe[:4], 1e-14)
	clear(fe)
	require.NoError(t, EdgeLoad(fe, [][2]float64{{0, 0}, {2, 0}, {1, 0}}, 0.5, p))
	assert.InDeltaSlice(t, []float64{0, -0.5, 0, -0.5, 0, -2}, fe, 1e-14)
	assert.ErrorContains(t, EdgeLoad(fe[:4], [][2]float64{{1, 1}, {1, 1}}, 1, p), "zero length")
}

func TestVonMises(t *testing.T) {
	// Uniaxial stress: von Mises equals it; pure shear: sqrt(3) tau.
	assert.InDelta(t, 5.0, Stress{XX: 5}.VonMises(), 1e-15)
	assert.InDelta(t, math.Sqrt(3)*2, Stress{XY: 2}.VonMises(), 1e-15)
}
