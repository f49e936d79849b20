package timestep

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/fe"
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
	floorSim, _ := onFloor(t, 1e-3, [2]float64{0, -9.81}, 0.3, fe.Rayleigh{Alpha: 20, Beta: 1e-4}, 1e-4)
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
				cfg := sim.at.Config(sim.Time())
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

// TestResumeStartsOnTheKeptUnits: a simulation saved where its next step
// starts on the units kept from the last one's end, and loaded into
// another built the same way, starts that step on the same units, not on a
// detection anew that agrees with them to round-off only, and goes on bit
// for bit with the run it was saved from. A block falls on a floor and
// comes to rest; it is resumed at the first steps where a detection anew
// would differ from the kept units in the last bits, and at every 250th.
func TestResumeStartsOnTheKeptUnits(t *testing.T) {
	build := func() *Simulation {
		sim, _ := onFloor(t, 1e-3, [2]float64{0, -9.81}, 0.3, fe.Rayleigh{Alpha: 20, Beta: 1e-4}, 1e-4)
		return sim
	}
	run := build()
	resumes, differ := 0, 0
	for i := 1; i <= 1500; i++ {
		_, err := run.Step()
		require.NoError(t, err)
		p := run.pairs()
		last := &p.seen[p.last]
		run.placeAll()
		cfg := run.at.Config(run.Time())
		if !last.ok || p.det.Drift(&last.trace, cfg) > driftTol {
			continue
		}
		fresh, _, err := run.Detector.Detect(cfg)
		require.NoError(t, err)
		same := sameUnits(fresh, last.units)
		if (same || differ >= 5) && i%250 != 0 {
			continue
		}
		if !same {
			differ++
		}
		var buf bytes.Buffer
		require.NoError(t, run.SaveState(&buf))
		resumed := build()
		require.NoError(t, resumed.LoadState(&buf))
		resumes++
		for k := 1; k <= 5; k++ {
			want, err := run.Step()
			require.NoError(t, err)
			got, err := resumed.Step()
			require.NoError(t, err)
			require.Equal(t, want, got, "resumed after step %d: step %d", i, i+k)
			require.True(t, sameUnits(run.work.step.units, resumed.work.step.units), "resumed after step %d: step %d's units", i, i+k)
		}
		for b := range run.Stepper.NumBodies() {
			require.Equal(t, run.Stepper.Body(b).Q, resumed.Stepper.Body(b).Q, "resumed after step %d", i)
			require.Equal(t, run.Stepper.Body(b).V, resumed.Stepper.Body(b).V, "resumed after step %d", i)
		}
		require.Equal(t, run.TotalEnergy(), resumed.TotalEnergy(), "resumed after step %d", i)
		i += 5
	}
	t.Logf("%d resumes on kept units, %d where a detection anew differs from them", resumes, differ)
	assert.GreaterOrEqual(t, differ, 5, "resumes where a detection anew differs from the kept units")
}

// sameUnits: the same units to the bit (none is none, whatever the slice).
func sameUnits(a, b []contact.Unit) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// TestLoadStateRefusesDamagedKeptUnits: units kept in a state that name a
// pair, a body or an equation the simulation does not have, or carry a
// value that is not finite, are refused with what is wrong, as is a last
// configuration of another shape; a version 1 state, which keeps no
// units, is read and goes on detecting anew.
func TestLoadStateRefusesDamagedKeptUnits(t *testing.T) {
	build := func() *Simulation {
		sim, _ := onFloor(t, 0, [2]float64{0, -9.81}, 0.3, fe.Rayleigh{}, 1e-4)
		return sim
	}
	sim := build()
	for range 20 {
		_, err := sim.Step()
		require.NoError(t, err)
	}
	good := sim.pairs().kept()
	require.NotNil(t, good)
	require.NotEmpty(t, good.Units)
	stream := func(version int, change func(st *simState)) *bytes.Buffer {
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		require.NoError(t, enc.Encode(checkpointHeader{checkpointFormat, version, sim.shape(), nil}))
		for _, f := range sim.families {
			require.NoError(t, f.Save(enc))
		}
		st := sim.state()
		st.Kept = good
		st.PrevDisp = slices.Clone(st.PrevDisp)
		change(&st)
		require.NoError(t, enc.Encode(st))
		return &buf
	}
	unit := func(change func(u *contact.Unit)) func(st *simState) {
		return func(st *simState) {
			k := *good
			k.Units = slices.Clone(good.Units)
			for a := range k.Units {
				k.Units[a].Entries = slices.Clone(k.Units[a].Entries)
			}
			change(&k.Units[0])
			st.Kept = &k
		}
	}
	for _, c := range []struct {
		name   string
		change func(st *simState)
		want   string
	}{
		{"pair", unit(func(u *contact.Unit) { u.Key.Pair = 7 }), "contact unit 0 kept for the next step: pair 7 of 1"},
		{"negative pair", unit(func(u *contact.Unit) { u.Key.Pair = -1 }), "pair -1 of 1"},
		{"equation", unit(func(u *contact.Unit) { u.Entries[0].Eq = 99999 }), "equation 99999 of body 0, which is not on a contact boundary"},
		{"body", unit(func(u *contact.Unit) { u.Entries[0].Body = 3 }), "of body 3, which is not on a contact boundary"},
		{"gap", unit(func(u *contact.Unit) { u.Gap = math.NaN() }), "a value of NaN"},
		{"entry", unit(func(u *contact.Unit) { u.Entries[1].N = math.Inf(1) }), "a value of +Inf"},
		{"last configuration short", func(st *simState) { st.PrevDisp[0] = st.PrevDisp[0][:3] }, "the last configuration has 3 displacements of body 0, this simulation 90"},
		{"a body more", func(st *simState) { st.PrevDisp = append(st.PrevDisp, nil) }, "the last configuration has 2 bodies' displacements and 1 poses, this simulation 1 and 1"},
		{"steps", func(st *simState) { st.Steps = -1 }, "a step count of -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := build().LoadState(stream(checkpointVersion, c.change))
			require.ErrorContains(t, err, "simulation state: damaged: ")
			require.ErrorContains(t, err, c.want)
		})
	}
	t.Run("version 1", func(t *testing.T) {
		resumed := build()
		require.NoError(t, resumed.LoadState(stream(1, func(st *simState) { st.Kept = nil })))
		assert.False(t, resumed.pairs().seen[0].ok || resumed.pairs().seen[1].ok, "kept units")
		_, err := resumed.Step()
		require.NoError(t, err)
		assert.NotEmpty(t, resumed.work.step.units)
	})
	t.Run("version 4", func(t *testing.T) { // its clock in the finite-element bodies' section
		resumed := build()
		require.NoError(t, resumed.LoadState(stream(4, func(st *simState) { st.Steps = 0 })))
		assert.Equal(t, 20, resumed.Steps())
		assert.Equal(t, sim.Time(), resumed.Time())
		a, err := sim.Step()
		require.NoError(t, err)
		b, err := resumed.Step()
		require.NoError(t, err)
		assert.Equal(t, a, b, "the next step, bit for bit")
		assert.Equal(t, 21, b.Step)
	})
	t.Run("a later version", func(t *testing.T) {
		err := build().LoadState(stream(checkpointVersion+1, func(*simState) {}))
		require.EqualError(t, err, fmt.Sprintf("simulation state: version %d, this program reads versions 1 to %d", checkpointVersion+1, checkpointVersion))
	})
}
