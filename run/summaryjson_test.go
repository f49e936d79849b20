package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/timestep"
)

// TestSummaryJSONIsTheText: summary.json holds summary.txt's figures as
// numbers with their units, each equal to what the text prints to its
// digits, on a finite-element run (cost against one solve, a deepest
// node) and on an unconverged rigid one (the first unconverged step and
// the advice), and says an interrupted run is one.
func TestSummaryJSONIsTheText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps int
		set   []string
		scene string
	}{
		{"blocks", 400, nil, "colliding-blocks"},
		{"pillar unconverged", 0, []string{"time.duration", "0.05", "solver.max_sweeps", "5"}, "pillar"},
		{"pillar dynamic friction", 0, []string{"time.duration", "0.5", "rigid_contacts.rule.1.mu_dynamic", "0.15"}, "pillar"},
		{"disks granular", 0, []string{"time.duration", "0.5", "output.granular.window", "[0.3, 0.5]"}, "disks-28"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := exampleScene(t, tc.scene, tc.set...)
			r, err := Scene(t.Context(), sc, Options{Dir: dir, Steps: tc.steps, Command: "test", Version: "v0"})
			require.NoError(t, err)
			data, err := os.ReadFile(filepath.Join(dir, SummaryJSON))
			require.NoError(t, err)
			var js Summary
			require.NoError(t, json.Unmarshal(data, &js))
			text := r.Summary
			assert.Equal(t, results.Format, js.Format)
			assert.False(t, js.Interrupted)
			assert.Equal(t, "v0", js.MadeBy)
			assert.Equal(t, "test", js.Command)
			assert.Equal(t, r.Done, js.Steps)
			assert.Equal(t, r.Steps, js.StepsAsked)
			figure := func(pattern string, want ...Number) {
				t.Helper()
				m := regexp.MustCompile(pattern).FindStringSubmatch(text)
				require.NotNil(t, m, "summary.txt says %q", pattern)
				for k, w := range want {
					v, err := strconv.ParseFloat(m[k+1], 64)
					require.NoError(t, err)
					assert.InDelta(t, v, float64(w), halfDigit(m[k+1]), "%s: text %s, json %g", pattern, m[k+1], w)
				}
			}
			c := js.Contact
			require.NotNil(t, c)
			figure(`contact: (\d+) steps with contact, ([\d.]+) units and ([\d.]+) sweeps per such step \(max (\d+)\), largest residual ([\d.e+-]+), (\d+) unconverged`,
				Number(c.Steps), c.UnitsPerStep, c.SweepsPerStep, Number(c.MaxSweeps), c.LargestResidual, Number(c.Unconverged))
			figure(`worst residual ([\d.e+-]+) \(step (\d+), t = ([\d.e+-]+) s\)`, c.WorstResidual.Value.Value, Number(c.WorstResidual.Step), c.WorstResidual.Time.Value)
			figure(`complementarity gap ([\d.e+-]+) J = ([\d.e+-]+) of the contact power \(step (\d+)\)`,
				c.WorstComplementarity.Value.Value, c.WorstComplementarityRel, Number(c.WorstComplementarity.Step))
			e := js.Energy
			figure(`energy: kinetic ([\d.e+-]+) J, elastic ([\d.e+-]+) J, friction work ([\d.e+-]+) J, contact-law work ([\d.e+-]+) J, push-out work ([\d.e+-]+) J, numerical ([\d.e+-]+) J; balance error ([\d.e+-]+) J, ([\d.e+-]+) relative to ([\d.e+-]+) J`,
				e.Kinetic.Value, e.Elastic.Value, e.FrictionWork.Value, e.ContactLawWork.Value, e.PushOutWork.Value, e.Numerical.Value,
				e.BalanceError.Value, *e.BalanceErrorRelative, e.Scale.Value)
			assert.Equal(t, "J", e.Kinetic.Unit)
			require.NotNil(t, js.MinGap)
			figure(`smallest gap of a candidate node: ([\d.e+-]+) m`, js.MinGap.Value)
			figure(`done: \d+ steps in ([\d.]+) s \(([\d.e+-]+) ms per step\)`, js.Elapsed.Value, 1e3*js.PerStep.Value)
			wrote := regexp.MustCompile(`wrote [^:]+: (.*)\n`).FindStringSubmatch(text)
			require.NotNil(t, wrote)
			assert.Equal(t, strings.Split(wrote[1], ", "), js.Files)
			assert.Contains(t, js.Files, SummaryJSON)
			if tc.scene == "colliding-blocks" {
				require.NotNil(t, js.Deepest)
				figure(`at the start of step (\d+),`, Number(js.Deepest.Step))
				assert.Contains(t, text, js.Deepest.Where)
				require.NotNil(t, js.Cost.SolveRatio)
				figure(`cost: ([\d.e+-]+) ms per step = ([\d.]+) x one solve of every body with the same factors \(([\d.e+-]+) ms\)`,
					1e3*js.Cost.PerStep.Value, *js.Cost.SolveRatio, 1e3*js.Cost.Solve.Value)
				assert.Nil(t, c.FirstUnconverged)
			} else if tc.name == "pillar unconverged" {
				require.NotNil(t, c.FirstUnconverged)
				assert.Positive(t, c.Unconverged)
				figure(`NOT to their tolerance, the first at step (\d+) \(t = ([\d.e+-]+) s, residual ([\d.e+-]+)\)`,
					Number(c.FirstUnconverged.Step), c.FirstUnconverged.Time.Value, c.FirstUnconverged.Value.Value)
				assert.Contains(t, text, c.Advice)
				assert.Nil(t, js.Cost.SolveRatio, "no finite-element body to solve")
			}
			if c.DynamicUnitSteps+c.StickAttempts > 0 {
				figure(`friction: (\d+) unit-steps? slid on at mu_dynamic; (\d+) units? whose slip turned back`, Number(c.DynamicUnitSteps), Number(c.StickAttempts))
			} else {
				assert.NotContains(t, text, "friction: ")
			}
			own, all := c.Solves[timestep.OwnSolve.String()].Solves, 0
			for _, n := range c.Solves {
				all += n.Solves
			}
			assert.Equal(t, c.Steps, own, "a contact step solves its own problem once")
			if all > own {
				assert.Contains(t, text, "solves: ")
				for r := range timestep.NumSolveReasons {
					if n := c.Solves[r.String()]; n.Solves > 0 {
						figure(`(\d+) `+regexp.QuoteMeta(solveWords[r])+` \((\d+) sweeps?\)`, Number(n.Solves), Number(n.Sweeps))
					}
				}
			} else {
				assert.NotContains(t, text, "solves: ")
			}
			if tc.name == "pillar dynamic friction" {
				assert.Positive(t, c.DynamicUnitSteps, "the ground slides under the pillar at mu_dynamic")
			}
			if g := js.Granular; tc.scene == "disks-28" {
				require.NotNil(t, g)
				require.NotNil(t, g.Means)
				m := g.Means
				figure(`granular \(mean of (\d+) output times from t = ([\d.e+-]+) s\): ([\d.]+) grains, ([\d.e+-]+) rattlers, Z ([\d.e+-]+) \(([\d.e+-]+) without rattlers; 2 N_c / N_g ([\d.e+-]+), ([\d.e+-]+)\), solid fraction ([\d.e+-]+), fabric anisotropy ([\d.e+-]+) at ([\d.e+-]+) deg, pressure ([\d.e+-]+) Pa, deviator ([\d.e+-]+) Pa, <f_n> ([\d.e+-]+) N/m, mobilised friction ([\d.e+-]+), ([\d.e+-]+) sliding`,
					Number(g.Times), g.From.Value, m.Grains, m.Rattlers, m.Z, m.ZNoRattlers, m.Z2NcNg, m.Z2NcNgNoRattlers, m.SolidFraction,
					m.Anisotropy, m.FabricAngle.Value, m.Pressure.Value, m.Deviator.Value, m.MeanFn.Value, m.Mobilised, m.Sliding)
				assert.Equal(t, 3, g.Times)
				assert.Equal(t, "Pa", m.Pressure.Unit)
			} else {
				assert.Nil(t, g, "no granular line")
			}
			if js.Cost.PeakMemory != nil {
				figure(`peak memory (\d+) kB`, js.Cost.PeakMemory.Value)
			}
		})
	}
}

// halfDigit is half a unit in the last digit s prints.
func halfDigit(s string) float64 {
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	digits := 0
	if _, frac, ok := strings.Cut(mant, "."); ok {
		digits = len(frac)
	}
	e := 0
	if exp != "" {
		e, _ = strconv.Atoi(exp)
	}
	v, _ := strconv.ParseFloat("5e"+strconv.Itoa(e-digits-1), 64)
	return v * 1.000001
}
