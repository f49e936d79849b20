package fe

import (
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/internal/analytic"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCantileverPeriod: a slender Q8 cantilever (length 0.5 m, depth
// 0.025 m: aspect ratio 20; 40 x 2 cells; plane stress, steel), clamped on
// its left edge and released from the static deflection under a tip load,
// oscillates with the first period of Euler-Bernoulli theory within 2 %
// (shear and the 2D clamp make it slightly longer; theta = 1/2 with 400
// steps per period adds about 2e-5).
func TestCantileverPeriod(t *testing.T) {
	const L, depth, thick = 0.5, 0.025, 0.01
	mat := element.Elastic{E: 210e9, Nu: 0.3, Rho: 7800, Thickness: thick, PlaneStress: true}
	m, err := mesh.Rectangle([2]float64{0, 0}, L, depth, 40, 2, mesh.Q8)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m, assemble.Fix{Group: "left", Comp: assemble.XY})
	require.NoError(t, err)
	b, err := NewBody("cantilever", s, mat, BodyOptions{})
	require.NoError(t, err)

	// Static deflection under 100 N spread over the tip.
	f := s.Vector()
	require.NoError(t, s.Traction(f, "right", thick, func(x, n [2]float64) [2]float64 {
		return [2]float64{0, -100 / (depth * thick)}
	}))
	factor, err := s.Factor(b.K)
	require.NoError(t, err)
	factor.SolveTo(b.Q, f)

	period := analytic.CantileverPeriod(L, mat.E, thick*depth*depth*depth/12, mat.Rho, thick*depth)
	stepper, err := NewStepper(period/400, 0.5, b)
	require.NoError(t, err)
	right := m.NodeGroups["right"]
	tip := s.DOFs.Eq[2*right[len(right)/2]+1]
	require.Less(t, b.Q[tip], 0.0)

	// Upward zero crossings of the tip deflection, linearly interpolated.
	var crossings []float64
	prev := b.Q[tip]
	for i := 0; i < 4*400+50; i++ {
		require.NoError(t, stepper.Step())
		now := b.Q[tip]
		if prev < 0 && now >= 0 {
			crossings = append(crossings, stepper.Time()-stepper.H()*now/(now-prev))
		}
		prev = now
	}
	require.GreaterOrEqual(t, len(crossings), 4)
	measured := (crossings[len(crossings)-1] - crossings[0]) / float64(len(crossings)-1)
	t.Logf("first period: FE %.6g s, Euler-Bernoulli %.6g s, ratio %.4f", measured, period, measured/period)
	assert.InEpsilon(t, period, measured, 0.02)
}
