package contact

import (
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
)

// BenchmarkDetect: 10^5 candidate nodes (the bottom of a strip of 10^5
// cells) against the 10^5 top edges of another strip 0.1 mm below,
// shifted 0.03 mm: a unit per candidate node (the last one against the
// lower strip's corner) and one of the reverse pass (the lower strip's
// last node, under the upper strip's last edge).
func BenchmarkDetect(b *testing.B) {
	const n = 100000
	lower, _ := mesh.Rectangle([2]float64{0, 0}, 10, 0.001, n, 1, mesh.Q4)
	upper, _ := mesh.Rectangle([2]float64{0.00003, 0.0011}, 10, 0.001, n, 1, mesh.Q4)
	d := upperOnLower(b, upper, lower, 2e-4)
	var units []Unit
	var err error
	for b.Loop() {
		units, _, err = d.Detect(Config{})
		if err != nil {
			b.Fatal(err)
		}
	}
	if len(units) != n+2 {
		b.Fatalf("%d units, want %d", len(units), n+2)
	}
	b.ReportMetric(float64(n+1)*float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
}

// BenchmarkDeepest: the depth measure of the colliding blocks at refine 16
// (a 160 x 160 cell block resting on a 480 x 160 one, its bottom 1 nm
// into the other's top), both ways, against detection on the same pair.
func BenchmarkDeepest(b *testing.B) {
	lower, _ := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 480, 160, mesh.Q4)
	upper, _ := mesh.Rectangle([2]float64{0.02, 0.04 - 1e-9}, 0.04, 0.04, 160, 160, mesh.Q4)
	d := upperOnLower(b, upper, lower, 1e-5)
	b.Run("deepest", func(b *testing.B) {
		for b.Loop() {
			if deep := d.Deepest(Config{}, false); deep[0].Depth < 0.9e-9 {
				b.Fatalf("depth %g, want 1e-9", deep[0].Depth)
			}
		}
	})
	b.Run("detect", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := d.Detect(Config{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// upperOnLower is the detector of a pair of the upper mesh's bottom on the
// lower one's top.
func upperOnLower(b *testing.B, upper, lower *mesh.Mesh, alert float64) *Detector {
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
	d, err := NewDetector(&Pair{Name: "blocks", Candidate: cand, Antagonist: ant, Alert: alert})
	if err != nil {
		b.Fatal(err)
	}
	return d
}
