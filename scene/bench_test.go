package scene

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fecontact/fecontact/examples"
)

// BenchmarkSlopeFlow runs the slope-flow example widened to 2 000 grains
// (a cell 2.6 m long, 206 glued grains) for 0.3 s and reports, over its
// last 500 steps (the flow), the time per step, contacts and sweeps.
// SLOPE_SOLVER, when set, takes the place of the example's "tolerance =
// 1e-5" line in its [solver] table (lines of TOML: another tolerance, a
// measure, an order):
//
//	go test -run XXX -bench SlopeFlow -benchtime 1x ./scene/
//	SLOPE_SOLVER=$'tolerance = 1e-4\nmeasure = "velocity"\norder = "coloured"' go test -run XXX -bench SlopeFlow -benchtime 1x ./scene/
func BenchmarkSlopeFlow(b *testing.B) {
	data, err := examples.Scene("slope-flow")
	if err != nil {
		b.Fatal(err)
	}
	// A string before any it is a prefix of: at one place the first match
	// in the list wins ("count = 15" once turned "count = 150" into 2060).
	pairs := []string{"x = [0.0, 0.2]", "x = [0.0, 2.6]", "rectangle = [0.2, 0.02]", "rectangle = [2.6, 0.02]",
		"position = [0.1, -0.01]", "position = [1.3, -0.01]", "count = 450", "count = 2000", "count = 15", "count = 206",
		"[[0.0, 0.0], [0.2, 0.013]]", "[[0.0, 0.0], [2.6, 0.013]]", "[[0.0, 0.016], [0.2, 0.42]]", "[[0.0, 0.016], [2.6, 0.2]]",
		"duration = 0.2", "duration = 0.3", "from = 0.1, window = 0.05", "from = 0.2, window = 0.05", "pictures = [0.0, 0.2]", "pictures = []"}
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(string(data), pairs[i]) {
			b.Fatalf("the slope-flow example no longer says %q", pairs[i])
		}
	}
	if solver := os.Getenv("SLOPE_SOLVER"); solver != "" {
		pairs = append(pairs, "tolerance = 1e-5", solver)
	}
	wide := strings.NewReplacer(pairs...).Replace(string(data))
	for b.Loop() {
		sc, err := Decode(strings.NewReader(wide), "slope-flow-2000.toml")
		if err != nil {
			b.Fatal(err)
		}
		m, err := sc.Model(Variant{})
		if err != nil {
			b.Fatal(err)
		}
		sim, err := m.Simulation()
		if err != nil {
			b.Fatal(err)
		}
		var units, sweeps int
		var flow time.Duration
		for i := range sc.Steps() {
			start := time.Now()
			st, err := sim.Step()
			if err != nil {
				b.Fatal(err)
			}
			if i >= sc.Steps()-500 {
				flow += time.Since(start)
				units += st.Units
				sweeps += st.Sweeps
			}
		}
		b.ReportMetric(1e3*flow.Seconds()/500, "ms/step")
		b.ReportMetric(float64(units)/500, "contacts/step")
		b.ReportMetric(float64(sweeps)/500, "sweeps/step")
		b.ReportMetric(1e9*flow.Seconds()/float64(max(sweeps, 1))/(float64(units)/500), "ns/contact/sweep")
	}
}
