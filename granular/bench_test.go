package granular_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// BenchmarkMeasures: the measures of LMGC90's 10 000-disk deposit at one
// output time (the grids a run writes anyway, as pieces, measured, the
// distribution added), against a step of the deposit at rest (h 1e-4,
// velocity change 1e-4, after 50 steps of settling): the share a run with
// [output] granular pays at its default output stride of 10 steps.
//
//	go test -run '^$' -bench Measures -benchtime 20x ./granular/
func BenchmarkMeasures(b *testing.B) {
	bodies, err := piles.DepositBox(10000, 1)
	require.NoError(b, err)
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, 0.1*0.005)
	require.NoError(b, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys,
		Solver: signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange}})
	require.NoError(b, err)
	const settle, steps = 50, 10 // the first steps settle the 8-digit positions
	var start time.Time
	for k := range settle + steps {
		if k == settle {
			start = time.Now()
		}
		_, err := sim.Step()
		require.NoError(b, err)
	}
	step := time.Since(start).Seconds() / steps
	sr := granular.NewSeries(granular.Options{})
	b.ResetTimer()
	rg, cg := rigid.Grid(sys), results.ContactGrid(sim) // written anyway
	for b.Loop() {
		s, err := results.SampleOf(sim.Time(), rg.Piece(), cg.Piece())
		require.NoError(b, err)
		sr.Add(s)
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(1e3*step, "step_ms")
	b.ReportMetric(1e3*per, "measure_ms")
	b.ReportMetric(100*per/(10*step), "%_at_every_10")
}
