package fe

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// TestGridStress: bodies.pvd's stress_xx of a block stretched by 1.3
// along x (a free body, held there) is the small-strain E' 0.3 for a
// linear body and the true stress 1.3 S_11 for a St Venant-Kirchhoff one
// (S_11 = (lambda + 2 mu) E_11 with E_11 = (1.3^2 - 1)/2, nu = 0: no
// lateral stress), at every node.
func TestGridStress(t *testing.T) {
	mat := element.Elastic{E: 1e6, Nu: 0, Rho: 1000}
	for _, tc := range []struct {
		law  element.Law
		want float64
	}{{0, 1e6 * 0.3}, {element.StVenantKirchhoff, 1.3 * 1e6 * (1.3*1.3 - 1) / 2}} {
		m, err := mesh.Rectangle([2]float64{}, 0.1, 0.05, 4, 2, mesh.Q4)
		require.NoError(t, err)
		s, err := assemble.NewSpace(m)
		require.NoError(t, err)
		b, err := NewBody("block", s, mat, BodyOptions{Law: tc.law})
		require.NoError(t, err)
		for e, full := range s.DOFs.DOF {
			if full%2 == 0 {
				b.Q[e] = 0.3 * m.Nodes[full/2][0]
			}
		}
		g, err := b.Grid()
		require.NoError(t, err)
		var found bool
		for _, f := range g.PointData {
			if f.Name == "stress_xx" {
				found = true
				for n, v := range f.Values {
					assert.InDelta(t, tc.want, v, 1e-9*tc.want, "%v: node %d", tc.law, n)
				}
			}
		}
		assert.True(t, found, "stress_xx")
	}
}
