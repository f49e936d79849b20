package fe

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coo hands a matrix over as a caller's code might: every row's columns
// in reverse order.
func coo(A *csr.Matrix) *csr.Matrix {
	n, _ := A.Dims()
	indptr, ind, data := make([]int, n+1), make([]int, 0, A.NNZ()), make([]float64, 0, A.NNZ())
	for i := range n {
		for k := A.Indptr[i+1] - 1; k >= A.Indptr[i]; k-- {
			ind, data = append(ind, A.Ind[k]), append(data, A.Data[k])
		}
		indptr[i+1] = len(ind)
	}
	return csr.New(n, n, indptr, ind, data)
}

// full returns the mass and stiffness of a body's mesh over all its DOFs,
// as a caller's own code would give them.
func full(t *testing.T, b *Body) (M, K *csr.Matrix) {
	all, err := assemble.NewSpace(b.Space.Mesh)
	require.NoError(t, err)
	M, err = all.Mass(b.Material)
	require.NoError(t, err)
	K, err = all.Stiffness(b.Material)
	require.NoError(t, err)
	return coo(M), coo(K)
}

// TestBodyFromMatrices: a cantilever made of the same M and K as NewBody's,
// given over all DOFs as unsorted triplets, follows the same trajectory
// under gravity, a traction and damping, to round-off, and has the same
// nodal masses.
func TestBodyFromMatrices(t *testing.T) {
	opt := BodyOptions{Gravity: [2]float64{0, -9.81}, Damping: Rayleigh{Alpha: 10, Beta: 1e-6},
		Traction: []Traction{{Group: "right", Value: func(t float64, x, n [2]float64) [2]float64 { return [2]float64{0, -1e5 * t} }}}}
	ref := newBody(t, mesh.Q8, 0.04, 0.02, 4, 2, opt, assemble.Fix{Group: "left", Comp: assemble.XY})
	M, K := full(t, ref)
	own, err := NewBodyFromMatrices("own", ref.Space, M, K, opt)
	require.NoError(t, err)
	for _, b := range []*Body{ref, own} {
		assert.Equal(t, opt.Damping, b.Damping())
		assert.Equal(t, opt.Gravity, b.Gravity())
		s, err := NewStepper(1e-5, 0.5, b)
		require.NoError(t, err)
		for i := 0; i < 200; i++ {
			require.NoError(t, s.Step())
		}
		e := s.TotalEnergy()
		assert.InDelta(t, 0, e.Balance(), 1e-10*e.External)
	}
	scale := math.Abs(ref.Q[0]) + math.Abs(ref.Q[len(ref.Q)-1])
	require.Greater(t, scale, 0.0)
	for e := range ref.Q {
		require.InDelta(t, ref.Q[e], own.Q[e], 1e-10*scale, "equation %d", e)
	}
	mr, mo := ref.NodalMasses(), own.NodalMasses()
	for n := range mr {
		assert.InDelta(t, mr[n], mo[n], 1e-12*math.Abs(mr[n]), "node %d", n)
	}
}

func TestBodyFromMatricesErrors(t *testing.T) {
	ref := newBody(t, mesh.Q4, 0.04, 0.02, 2, 1, BodyOptions{})
	M, K := full(t, ref)
	n, _ := K.Dims()
	with := func(i, j int, v float64) *csr.Matrix {
		c := csr.NewEntries(n, n)
		K.DoNonZero(func(r, s int, w float64) { c.Set(r, s, w) })
		c.Set(i, j, v)
		m, err := c.Matrix()
		require.NoError(t, err)
		return m
	}
	for _, tc := range []struct {
		name string
		M, K *csr.Matrix
		opt  BodyOptions
		want string
	}{
		{"size", M, csr.New(3, 3, []int{0, 0, 0, 0}, nil, nil), BodyOptions{}, "stiffness matrix: mesh rect(Q4 0.04x0.02 2x1): a 3x3 matrix for 6 nodes: expected 12x12"},
		{"asymmetric", M, with(0, 1, 5e9), BodyOptions{}, "stiffness matrix: not symmetric: entries (0, 1) and (1, 0)"},
		// Nodes 0 and 5, opposite corners of 2 x 1 cells, share no cell.
		{"outside the pattern", M, with(0, 10, 1), BodyOptions{}, "stiffness matrix: mesh rect(Q4 0.04x0.02 2x1): entry (0, 10) = 1 couples nodes 0 and 5, which share no cell"},
		{"NaN", M, with(3, 3, math.NaN()), BodyOptions{}, "stiffness matrix: mesh rect(Q4 0.04x0.02 2x1): entry (3, 3) is NaN"},
		{"thickness", M, K, BodyOptions{Thickness: -1}, "thickness = -1 m"},
		{"damping", M, K, BodyOptions{Damping: Rayleigh{Alpha: math.NaN()}}, "Rayleigh coefficients alpha NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewBodyFromMatrices("own", ref.Space, tc.M, tc.K, tc.opt)
			assert.ErrorContains(t, err, "body own: "+tc.want)
		})
	}
}

// TestNodalMassesGiveMomentum: sum m_i v_i over the nodes is the momentum
// 1'M v of the body's own mass matrix, consistent or lumped (Q8, whose
// consistent row sums are negative at the corners and whose HRZ masses are
// not), for a swirling velocity field.
func TestNodalMassesGiveMomentum(t *testing.T) {
	for _, lumped := range []bool{false, true} {
		b := newBody(t, mesh.Q8, 0.04, 0.02, 4, 2, BodyOptions{Lumped: lumped})
		b.SetVelocity(swirl)
		mv := make([]float64, len(b.V))
		b.M.MulVecTo(mv, b.V)
		var want, got float64
		for e, full := range b.Space.DOFs.DOF {
			if full%2 == 0 {
				want += mv[e] / b.Thickness
			}
		}
		v := b.Velocity()
		for n, m := range b.NodalMasses() {
			got += m * v[2*n]
		}
		assert.InDelta(t, want, got, 1e-12*math.Abs(want), "lumped %v", lumped)
	}
}
