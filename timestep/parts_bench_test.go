package timestep

import (
	"testing"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/stretchr/testify/require"
)

// BenchmarkStepParts times the per-step parts around the sweeps on a
// 1 000-disk deposit (rigid/deposit_test.go's, shock law, mu 0.3) after 20
// steps: the detection (with the laws), the checks of impacts at the
// step's start, reading the units' laws, building the problem (free
// velocities, shifts, the impact forecast, W), building W alone, and the
// certificate. Each is a part of the 2.0 CPU ms of a step (issue 58,
// 2026-11-28, about 2 000 units: 0.47, 0.064, 0.050, 0.59 of which W 0.35,
// and 0.040 ms; in a 2.7 ms step before, 0.63, 0.15, 0.19, 0.83 of which W
// 0.49, and 0.04; the detection was 1.1 ms before the broad phase kept its
// pairs and the units their slice):
//
//	go test -run '^$' -bench StepParts ./timestep/
func BenchmarkStepParts(b *testing.B) {
	s := depositSim(b, 1000)
	for range 20 {
		_, err := s.Step()
		require.NoError(b, err)
	}
	k := &s.work.step
	b.Run("detect", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, s.detect(k))
		}
	})
	b.Run("impact-checks", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, s.impactNow(k)) // at rest: the checks, no impact
		}
	})
	b.Run("laws", func(b *testing.B) {
		for b.Loop() {
			s.lawsOf(k)
		}
	})
	b.Run("problem", func(b *testing.B) {
		for b.Loop() {
			_, _, _, _, _, err := s.problem(k.units, k.v0, k.vfree, nil, k.t, k.h, k.th)
			require.NoError(b, err)
		}
	})
	b.Run("delassus", func(b *testing.B) {
		for b.Loop() {
			_, err := s.delassus.Build(k.units)
			require.NoError(b, err)
		}
	})
	p, _, _, _, _, err := s.problem(k.units, k.v0, k.vfree, nil, k.t, k.h, k.th)
	require.NoError(b, err)
	res, err := signorini.NLGS(p, signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange})
	require.NoError(b, err)
	b.Run("certificate", func(b *testing.B) {
		for b.Loop() {
			signorini.Certify(p, res.R, res.U)
		}
	})
}

// depositSim is a simulation of n disks deposited in a box
// (piles.DepositBox), shock law, mu 0.3, h 1e-4, the velocity measure
// at 1e-4.
func depositSim(tb testing.TB, n int) *Simulation {
	bodies, err := piles.DepositBox(n, 1)
	require.NoError(tb, err)
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, 0.1*0.005)
	require.NoError(tb, err)
	s, err := NewSimulation(nil, nil, SimOptions{H: 1e-4, Rigid: sys, Solver: signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange}})
	require.NoError(tb, err)
	return s
}
