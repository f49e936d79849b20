package contact

import (
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
)

// BenchmarkDetect: 10^5 candidate nodes (the bottom of a strip of 10^5
// cells) against the 10^5 top edges of another strip 0.1 mm below.
func BenchmarkDetect(b *testing.B) {
	const n = 100000
	lower, _ := mesh.Rectangle([2]float64{0, 0}, 10, 0.001, n, 1, mesh.Q4)
	upper, _ := mesh.Rectangle([2]float64{0.00003, 0.0011}, 10, 0.001, n, 1, mesh.Q4)
	dl, _ := assemble.NewDOFMap(lower, nil)
	du, _ := assemble.NewDOFMap(upper, nil)
	cand, err := NewSide(0, upper, du, "bottom", 1)
	if err != nil {
		b.Fatal(err)
	}
	ant, err := NewSide(1, lower, dl, "top", 1)
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewDetector(&Pair{Name: "strip", Candidate: cand, Antagonist: ant, Alert: 2e-4})
	if err != nil {
		b.Fatal(err)
	}
	var units []Unit
	for b.Loop() {
		units, _, err = d.Detect(Config{})
		if err != nil {
			b.Fatal(err)
		}
	}
	if len(units) != n+1 {
		b.Fatalf("%d units, want %d", len(units), n+1)
	}
	b.ReportMetric(float64(n+1)*float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
}
