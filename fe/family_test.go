package fe

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
)

// TestFamilyAdvanceAfterItsStep: finite-element bodies end their step in
// their own Advance, so that when another kind asks for the contact
// problem again (kind.Family) they take the new solve only where it gave
// them the impulses they ended on; other impulses are refused by name,
// not left out of the body's step.
func TestFamilyAdvanceAfterItsStep(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 0}, 0.1, 0.1, 2, 2, mesh.Q4)
	require.NoError(t, err)
	sp, err := assemble.NewSpace(m)
	require.NoError(t, err)
	b, err := NewBody("block", sp, element.Elastic{E: 1e9, Nu: 0.3, Rho: 1000}, BodyOptions{})
	require.NoError(t, err)
	side, err := b.Side("bottom")
	require.NoError(t, err)
	f, err := NewFamily(1e-3, 0.5, []*Body{b}, []Touch{{What: "a test", Side: side}})
	require.NoError(t, err)
	require.NoError(t, f.Begin(kind.Clock{H: 1e-3, Theta: 0.5}))
	r := [][]float64{make([]float64, f.DOFs(0))}
	r[0][1] = 1
	done, err := f.Advance(r, true)
	require.NoError(t, err)
	require.True(t, done, "a linear body's step ends at once")
	done, err = f.Advance(r, true)
	require.NoError(t, err)
	assert.True(t, done, "the same impulses again: nothing to redo")
	r[0][1] = 2
	_, err = f.Advance(r, true)
	assert.ErrorContains(t, err, "finite-element bodies: their step has ended, and another kind of body asked for the contact problem to be solved again")
	_, err = f.Advance(r, false)
	assert.ErrorContains(t, err, "their step has ended", "no impulses, where it ended on some")
}
