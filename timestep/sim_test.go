package timestep

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/require"
)

// blocks builds seeds/000's colliding blocks with refinement r: a lower
// block 0.12 x 0.04 (30r x 10r cells) fixed along its bottom, an upper block
// 0.04 x 0.04 (10r x 10r) 0.5 mm above it at (-75, -50) m/s, E 1300 MPa,
// nu 0.2, rho 7800, plane strain, mu 0.1.
func blocks(t testing.TB, kind mesh.Kind, r int, basis contact.Basis, law Law, mu float64) (*Simulation, []*Body) {
	mat := element.Elastic{E: 1300e6, Nu: 0.2, Rho: 7800}
	ml, err := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 30*r, 10*r, kind)
	require.NoError(t, err)
	mu2, err := mesh.Rectangle([2]float64{0.07, 0.0405}, 0.04, 0.04, 10*r, 10*r, kind)
	require.NoError(t, err)
	sl, err := assemble.NewSpace(ml, assemble.Fix{Group: "bottom", Comp: assemble.XY})
	require.NoError(t, err)
	su, err := assemble.NewSpace(mu2)
	require.NoError(t, err)
	lower, err := NewBody("lower", sl, mat, Options{})
	require.NoError(t, err)
	upper, err := NewBody("upper", su, mat, Options{})
	require.NoError(t, err)
	upper.SetVelocity(func([2]float64) [2]float64 { return [2]float64{-75, -50} })
	cand, err := contact.NewSide(1, mu2, su.DOFs, "bottom", 1)
	require.NoError(t, err)
	ant, err := contact.NewSide(0, ml, sl.DOFs, "top", 1)
	require.NoError(t, err)
	det, err := contact.NewDetector(&contact.Pair{Name: "blocks", Candidate: cand, Antagonist: ant, Mu: mu, Basis: basis, Alert: 2e-3})
	require.NoError(t, err)
	sim, err := NewSimulation([]*Body{lower, upper}, det, SimOptions{H: 1e-6, Theta: 0.5, Laws: []Law{law}})
	require.NoError(t, err)
	return sim, []*Body{lower, upper}
}

func TestCollidingBlocksQuick(t *testing.T) {
	sim, bodies := blocks(t, mesh.Q4, 1, contact.Nodal, Positional, 0.1)
	e0 := sim.Stepper.TotalEnergy()
	minGap := math.Inf(1)
	slides, maxUnits := 0, 0
	for i := 0; i < 750; i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		minGap = math.Min(minGap, st.MinGap)
		slides += st.Slide
		maxUnits = max(maxUnits, st.Units-st.Open)
		if i%50 == 0 {
			e := sim.Stepper.TotalEnergy()
			t.Logf("step %d: units %d open %d stick %d slide %d sweeps %d res %.2g  K %.4g E %.4g contact %.4g balance %.3g", st.Step, st.Units, st.Open, st.Stick, st.Slide, st.Sweeps, st.Residual, e.Kinetic, e.Elastic, e.Contact, e.Balance()-e0.Balance())
		}
	}
	e := sim.Stepper.TotalEnergy()
	t.Logf("min gap %.3g m, slides %d, final upper velocity mean y", minGap, slides)
	var vy float64
	for e, full := range bodies[1].Space.DOFs.DOF {
		if full%2 == 1 {
			vy += bodies[1].V[e]
		}
	}
	t.Logf("mean vy %.3g; balance error %.3g of %.4g", vy/float64(len(bodies[1].V)/2), e.Balance()-e0.Balance(), e0.Kinetic)
}
