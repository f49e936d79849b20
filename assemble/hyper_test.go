package assemble

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"

	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// stripStress is the second Piola-Kirchhoff stress (S_11, S_22) of a
// plane strain stretch F = diag(l1, l2), written out for each law.
func stripStress(law element.Law, lambda, mu, l1, l2 float64) (s11, s22 float64) {
	if law == element.StVenantKirchhoff {
		e1, e2 := (l1*l1-1)/2, (l2*l2-1)/2
		return lambda*(e1+e2) + 2*mu*e1, lambda*(e1+e2) + 2*mu*e2
	}
	lnJ := math.Log(l1 * l2)
	return mu*(1-1/(l1*l1)) + lambda*lnJ/(l1*l1), mu*(1-1/(l2*l2)) + lambda*lnJ/(l2*l2)
}

// bisect finds a root of f in [a, b], where f changes sign.
func bisect(f func(float64) float64, a, b float64) float64 {
	fa := f(a)
	for range 200 {
		m := (a + b) / 2
		if fm := f(m); (fm > 0) == (fa > 0) {
			a, fa = m, fm
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

// TestHyperStrip: a strip stretched to 1.3 times its length by a dead
// nominal traction on its right end (rollers on the left and the bottom)
// in plane strain: the exact solution is the homogeneous stretch
// diag(1.3, l2) with S_22 = 0 (l2 from that scalar equation), which every
// kind reproduces at every node; Newton on the assembled tangent converges
// quadratically (each residual at most 10 times the square of the one
// before once below 1e-2, down to round-off), in a few iterations from
// rest.
func TestHyperStrip(t *testing.T) {
	const L, H, l1 = 0.1, 0.02, 1.3
	for _, law := range []element.Law{element.StVenantKirchhoff, element.NeoHookean} {
		m := element.Hyperelastic{Law: law, E: 7e6, Nu: 0.45, Rho: 1722}
		lambda, mu := m.Lame()
		l2 := bisect(func(l2 float64) float64 { _, s := stripStress(law, lambda, mu, l1, l2); return s }, 0.3, 1.5)
		s11, _ := stripStress(law, lambda, mu, l1, l2)
		traction := l1 * s11 // P_11 on the reference end
		for _, k := range mesh.Kinds {
			t.Run(fmt.Sprintf("%v/%v", law, k), func(t *testing.T) {
				msh, err := mesh.Rectangle([2]float64{}, L, H, 5, 2, k)
				require.NoError(t, err)
				s, err := NewSpace(msh, Fix{"left", X}, Fix{"bottom", Y})
				require.NoError(t, err)
				fext := s.Vector()
				require.NoError(t, s.Traction(fext, "right", 1, func(_, _ [2]float64) [2]float64 { return [2]float64{traction, 0} }))
				u, full, fint := s.Vector(), make([]float64, 2*len(msh.Nodes)), s.Vector()
				K := s.NewMatrix()
				var f *cholesky.Factor
				var res []float64
				for it := 0; it < 20; it++ {
					s.Expand(full, u, nil)
					_, err := s.Hyper(m, full, fint, K)
					require.NoError(t, err)
					floats.SubTo(fint, fext, fint) // the residual
					res = append(res, floats.Norm(fint, 2)/floats.Norm(fext, 2))
					if res[len(res)-1] < 1e-12 {
						break
					}
					if f == nil {
						f, err = s.Factor(K)
					} else {
						err = f.Refactor(K) // the same pattern: the same analysis
					}
					require.NoError(t, err, "iteration %d", it)
					f.SolveTo(fint, fint)
					floats.Add(u, fint)
				}
				require.Less(t, res[len(res)-1], 1e-12, "residuals %.2g", res)
				assert.LessOrEqual(t, len(res), 9, "iterations: residuals %.2g", res)
				for i := 1; i < len(res); i++ {
					if res[i-1] < 1e-2 && res[i] > 1e-12 { // above round-off
						assert.LessOrEqual(t, res[i], 10*res[i-1]*res[i-1], "quadratic: residuals %.2g", res)
					}
				}
				for n, x := range msh.Nodes {
					assert.InDelta(t, (l1-1)*x[0], full[2*n], 1e-9*L, "node %d: u_x", n)
					assert.InDelta(t, (l2-1)*x[1], full[2*n+1], 1e-9*L, "node %d: u_y", n)
				}
			})
		}
	}
}

// TestHyperErrorsNameTheCell: a displacement that inverts a cell is an
// error naming the mesh and the cell.
func TestHyperErrorsNameTheCell(t *testing.T) {
	msh, err := mesh.Rectangle([2]float64{}, 1, 1, 2, 1, mesh.Q4)
	require.NoError(t, err)
	s, err := NewSpace(msh)
	require.NoError(t, err)
	u := make([]float64, 2*len(msh.Nodes))
	for n, x := range msh.Nodes {
		if x[0] > 0.75 {
			u[2*n] = -1.5 // the right column of nodes moves left of the middle one
		}
	}
	m := element.Hyperelastic{Law: element.NeoHookean, E: 1e6, Nu: 0.3, Rho: 1000}
	_, err = s.Hyper(m, u, s.Vector(), nil)
	require.ErrorIs(t, err, element.ErrInverted)
	assert.Contains(t, err.Error(), "cell 1")
}
