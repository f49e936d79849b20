package timestep

import (
	"math"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeptUnitsAreTheStartsUnits: a step that ends where it predicted
// starts the next one on the units it detected there (pairSource.find).
// At every step of the colliding blocks and of a block dropped onto a
// floor to rest, the units a step starts on are those a new detection of
// its start finds (the same keys, rows and frames, gaps to 1e-12 of a
// cell), while the test's own detections disturb the Detector's storage;
// most steps in contact keep them; and a block at rest stays at rest to
// round-off, as with a detection every step (kept units reused more than
// once let it drift within the tolerance: 9e-23 J). A body moved by hand
// by 1e-11 m between steps (2.5e-9 of the floor block's cell) is detected
// again. The ledger closes at every step and the contact law does no
// positive work.
func TestKeptUnitsAreTheStartsUnits(t *testing.T) {
	blocksSim, _ := blocks(t, mesh.Q4, 1, contact.Nodal, contact.Positional, 0.1)
	floorSim, _ := onFloor(t, 1e-3, [2]float64{0, -9.81}, 0.3, Rayleigh{Alpha: 20, Beta: 1e-4}, 1e-4)
	for _, c := range []struct {
		name  string
		sim   *Simulation
		steps int
		cell  float64
		nudge int  // the step before which the bodies are lifted by 1e-11 m by hand
		rest  bool // the run ends at rest
	}{
		{"colliding blocks", blocksSim, 750, 0.004, 0, false},
		{"block on a floor", floorSim, 5000, 0.0125, 2500, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sim := c.sim
			var fresh []contact.Unit
			kept, touching := 0, 0
			for i := range c.steps {
				if i == c.nudge && i > 0 {
					lift(t, sim, 1e-11)
				}
				sim.placeAll()
				cfg := sim.at.config(sim.Stepper.Time())
				units, _, err := sim.Detector.Detect(cfg)
				require.NoError(t, err)
				fresh = fresh[:0]
				for _, u := range units { // a deep copy: Step detects too
					u.Entries = slices.Clone(u.Entries)
					fresh = append(fresh, u)
				}
				p := sim.sources[0].(*pairSource)
				last := &p.seen[p.last]
				keeps := last.ok && p.det.Drift(&last.trace, cfg) <= driftTol
				b0 := sim.TotalEnergy().Balance()
				st, err := sim.Step()
				require.NoError(t, err)
				e := sim.TotalEnergy()
				scale := math.Max(e.Kinetic+e.Elastic, math.Abs(e.External))
				require.InDelta(t, b0, e.Balance(), 1e-9*scale+1e-15, "step %d: ledger", i+1)
				if st.Corrected > 0 || st.Newton > 0 {
					continue // the step went on with the units of its end
				}
				if len(fresh) > 0 {
					touching++
				}
				if keeps {
					kept++
				}
				got := sim.work.step.units
				require.Len(t, got, len(fresh), "step %d", i+1)
				for a := range got {
					g, f := got[a], fresh[a]
					require.Equal(t, f.Key, g.Key, "step %d, unit %d", i+1, a)
					require.Equal(t, len(f.Entries), len(g.Entries), "step %d, unit %d", i+1, a)
					for e := range f.Entries {
						assert.Equal(t, f.Entries[e].Eq, g.Entries[e].Eq)
						assert.InDelta(t, f.Entries[e].N, g.Entries[e].N, 1e-12*math.Abs(f.Entries[e].N)+1e-18)
					}
					assert.InDelta(t, f.Gap, g.Gap, 1e-12*f.Weight*c.cell, "step %d, unit %d: gap", i+1, a)
					assert.InDelta(t, 0, dist(f.N, g.N), 1e-12, "step %d, unit %d: normal", i+1, a)
				}
			}
			t.Logf("%d of %d steps in contact started on kept units", kept, touching)
			assert.Greater(t, kept, touching*4/5, "kept units")
			assert.LessOrEqual(t, sim.NormalWork, 0.0, "the contact law's work, J")
			if c.rest {
				kin := sim.Stepper.TotalEnergy().Kinetic
				assert.Less(t, kin, 1e-30, "kinetic energy at rest, J")
			}
		})
	}
}

// lift moves every body of sim up by dy, as a caller may between steps.
func lift(t *testing.T, sim *Simulation, dy float64) {
	for i := range sim.Stepper.NumBodies() {
		b := sim.Stepper.Body(i)
		for e, full := range b.Space.DOFs.DOF {
			if full%2 == 1 {
				b.Q[e] += dy
			}
		}
	}
	require.NoError(t, sim.Stepper.Restart())
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }
