package timestep

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
)

// TestBarStartsOnWall starts the bar of TestBarOnWall touching the wall
// (gap 0) while moving into it at 1 m/s, with the consistent and the
// lumped mass under the positional law, and under the shock law: its end stays on the wall (below 1e-6 of the speed) from
// the second step on, as from a gap, and it leaves at the velocity of runs
// from a gap (within 5e-5 of it: two such runs, 10 and 10.3 um away,
// differ by 1e-5 with the phase of their arrival within a step). Before
// the impact at the start (timestep/impact.go) the end bounced off at
// 0.36 m/s and the bar left 1.0e-4 (consistent) and 6.1e-4 (lumped) slower.
func TestBarStartsOnWall(t *testing.T) {
	E, rho, L, A, h := 1e8, 1000.0, 0.1, 0.01, 1e-6
	mat := element.Elastic{E: E, Nu: 0, Rho: rho, PlaneStress: true, Thickness: 1}
	for _, tc := range []struct {
		lumped bool
		law    contact.Law
	}{{false, contact.Positional}, {true, contact.Positional}, {false, contact.Shock}} {
		lumped := tc.lumped
		var after [2]float64
		for k, gap := range []float64{0, 1e-5} {
			sim, bar := barOnWall(t, mat, fe.BodyOptions{Lumped: lumped}, L, A, h)
			sim.Detector.Pairs[0].Law = tc.law
			shiftX(bar, gap-1e-5)
			side := sim.Detector.Pairs[0].Candidate
			e0 := sim.TotalEnergy().Balance()
			arrived := 0
			for i := 1; i <= 1200; i++ {
				st, err := sim.Step()
				require.NoError(t, err)
				require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-12, "step %d: energy", i)
				if arrived == 0 && st.Stick+st.Slide > 0 {
					arrived = i
				}
				if arrived > 0 && i > arrived && i < arrived+400 {
					for _, n := range side.Nodes() {
						require.InDelta(t, 0, bar.V[bar.Space.DOFs.Eq[2*n]], 1e-6, "lumped %v, gap %g, step %d: node %d on the wall", lumped, gap, i, n)
					}
				}
			}
			after[k] = meanVelocityX(bar)
		}
		t.Logf("lumped %v, %v: leaves at %.8f m/s from gap 0, %.8f from 10 um", lumped, tc.law, after[0], after[1])
		require.InDelta(t, after[1], after[0], 5e-5, "lumped %v, %v: velocity after the contact", lumped, tc.law)
	}
}

// shiftX moves a body's mesh by dx along x.
func shiftX(b *fe.Body, dx float64) {
	for i := range b.Space.Mesh.Nodes {
		b.Space.Mesh.Nodes[i][0] += dx
	}
}

// meanVelocityX is the x velocity of a body's centre of mass.
func meanVelocityX(b *fe.Body) float64 {
	ones := make([]float64, len(b.V))
	for e, full := range b.Space.DOFs.DOF {
		if full%2 == 0 {
			ones[e] = 1
		}
	}
	mv := make([]float64, len(b.V))
	assemble.MulVecTo(mv, b.M, b.V)
	var p, m float64
	for e := range mv {
		p += mv[e] * ones[e]
	}
	assemble.MulVecTo(mv, b.M, ones)
	for e := range mv {
		m += mv[e] * ones[e]
	}
	return p / m
}
