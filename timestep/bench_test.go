package timestep

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/mesh"
)

// BenchmarkCollidingBlocks: the 750 steps of the colliding blocks (Q4,
// nodal basis) at refine 1 and 4, per step, with the ratio of a step to
// one solve of both bodies (the best of 50) and the allocations per step,
// over the run and over its second half (steady: 0 once buffers have grown).
func BenchmarkCollidingBlocks(b *testing.B) {
	for _, r := range []int{1, 4} {
		b.Run(fmt.Sprintf("refine=%d", r), func(b *testing.B) {
			var steps int
			var solve float64
			var allocs, steady uint64
			var ms runtime.MemStats
			mallocs := func() uint64 {
				b.StopTimer()
				defer b.StartTimer()
				runtime.ReadMemStats(&ms)
				return ms.Mallocs
			}
			for b.Loop() {
				b.StopTimer()
				sim, bodies := blocks(b, mesh.Q4, r, contact.Nodal, contact.Positional, 0.1)
				solve = solveTime(sim.Stepper, bodies)
				b.StartTimer()
				start := mallocs()
				var half uint64
				for i := 0; i < 750; i++ {
					if i == 375 {
						half = mallocs()
					}
					if _, err := sim.Step(); err != nil {
						b.Fatal(err)
					}
				}
				end := mallocs()
				allocs += end - start
				steady += end - half
				steps += 750
			}
			perStep := b.Elapsed().Seconds() / float64(steps)
			b.ReportMetric(perStep*1e3, "ms/step")
			b.ReportMetric(perStep/solve, "step/solve")
			b.ReportMetric(float64(allocs)/float64(steps), "allocs/step")
			b.ReportMetric(2*float64(steady)/float64(steps), "steady-allocs/step")
		})
	}
}

// solveTime is the time of one solve of every body with its factor, the
// best of 50: a quiet machine's figure, as the steps' mean tends to be.
func solveTime(s *fe.Stepper, bodies []*fe.Body) float64 {
	xs := make([][]float64, len(bodies))
	for i, body := range bodies {
		xs[i] = make([]float64, len(body.V))
	}
	best := math.Inf(1)
	for k := 0; k < 50; k++ {
		t0 := time.Now()
		for i, body := range bodies {
			s.Solve(i, xs[i], body.V)
		}
		best = math.Min(best, time.Since(t0).Seconds())
	}
	return best
}

// TestStepAllocations: once its buffers have grown, a step of the colliding
// blocks allocates nothing (detection, the contact problem, NLGS and the
// prediction reuse their storage). A buffer may still grow now and then;
// an allocation per step would give hundreds.
func TestStepAllocations(t *testing.T) {
	sim, _ := blocks(t, mesh.Q4, 1, contact.Nodal, contact.Positional, 0.1)
	var ms runtime.MemStats
	var before uint64
	for i := 1; i <= 750; i++ {
		if i == 301 {
			runtime.ReadMemStats(&ms)
			before = ms.Mallocs
		}
		if _, err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&ms)
	if n := ms.Mallocs - before; n >= 10 {
		t.Errorf("%d allocations in steps 301 to 750, want fewer than 10", n)
	}
}
