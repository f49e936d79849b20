package fe

import (
	"testing"
	"time"

	"github.com/fecontact/fecontact/mesh"
)

// BenchmarkStep: one theta-method step of a free Q4 block of about 80k
// DOFs (200 x 200 cells), and its ratio to one solve with the same factor:
// the floor of a step is one forward and one backward substitution.
func BenchmarkStep(b *testing.B) {
	body := newBody(b, mesh.Q4, 0.04, 0.04, 200, 200, BodyOptions{})
	body.SetVelocity(swirl)
	s, err := NewStepper(1e-7, 0.5, body)
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float64, body.Space.N())
	const solves = 20
	t0 := time.Now()
	for i := 0; i < solves; i++ {
		s.Solve(0, x, body.V)
	}
	solve := time.Since(t0).Seconds() / solves
	for b.Loop() {
		if err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
	perStep := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(1/perStep, "steps/s")
	b.ReportMetric(perStep/solve, "step/solve")
	b.ReportMetric(float64(body.Space.N()), "DOFs")
}
