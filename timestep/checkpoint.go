package timestep

import (
	"cmp"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/kind"
)

// checkpointFormat names the stream SaveState writes; its version changes
// whenever what it holds does, and LoadState refuses a later one. Version
// 2 adds the units kept for the next step; a version 1 state has none, and
// its next step detects them anew (the same to round-off). Version 3 names
// the kinds whose sections follow, version 4 adds the bonds that hold
// (cohesion.go), version 5 the simulation's clock (before, the
// finite-element bodies' section kept it: clockKeeper).
const (
	checkpointFormat  = "fecontact simulation state"
	checkpointVersion = 5
)

// clockKeeper is the family whose section kept the simulation's step
// count before version 5 (the finite-element bodies').
type clockKeeper interface{ Steps() int }

// checkpointHeader says what wrote the stream and the shape of the
// simulation it belongs to: its kinds of body by name (version 3), in the
// order of their sections, and each one's bodies' DOFs.
type checkpointHeader struct {
	Format  string
	Version int
	Shape   [][]int
	Kinds   []string
}

// simState is what the Simulation itself carries from step to step.
type simState struct {
	Warm                                                []warmEntry
	PrevTime                                            float64
	PrevDisp                                            [][]float64
	PrevPoses                                           [][3]float64
	NormalWork, FrictionWork, ObstacleWork, PushOutWork float64
	Unconverged                                         int
	InitialPenetration                                  float64
	Turned                                              []string   // the keys of the warnings given (Simulation.Warnings)
	Kept                                                *keptState // version 2
	Bonded                                              []kind.ID  // version 4
	Steps                                               int        // version 5
}

// warmEntry is one unit's impulses kept for the next step's warm start;
// Kind is its source's place in the simulation's list.
type warmEntry struct {
	Kind            int
	Pair, Node      int
	Reverse, Valley bool
	A, B            int
	P               [2]float64
	Slid            bool // the unit slid: its dynamic friction coefficient next
	// Forward is the way it slid (a slip that turns is a stick attempt
	// at mu: solve.go), Roll its rolling row's impulse; a checkpoint
	// written before them has neither (false, 0).
	Forward bool
	Roll    float64
}

// SaveState writes everything the simulation carries from one step to the
// next, between steps: every body's state and energy account (a
// hyperelastic body's internal force and where modified Newton made its
// factor), the rigid bodies' and point masses', the warm-start impulses,
// the last configuration (for the tunnelling check), the contact units
// found where the last step ended (which the next one starts with), the
// works of contact and the step count. LoadState on a simulation built the
// same way then goes on bit for bit as this one would have.
func (s *Simulation) SaveState(w io.Writer) error {
	if s.inStep {
		return errors.New("simulation state: saved in the middle of a step")
	}
	enc := gob.NewEncoder(w)
	if err := enc.Encode(checkpointHeader{checkpointFormat, checkpointVersion, s.shape(), s.kindNames()}); err != nil {
		return fmt.Errorf("simulation state: %w", err)
	}
	for _, f := range s.families {
		if err := f.Save(enc); err != nil {
			return fmt.Errorf("simulation state: %w", err)
		}
	}
	if err := enc.Encode(s.state()); err != nil {
		return fmt.Errorf("simulation state: %w", err)
	}
	return nil
}

// LoadState reads a state SaveState wrote, for a simulation built from
// the same bodies, pairs, options and step: one of another shape or
// another version of the format is refused. It reads exactly the state
// from an io.ByteReader (a bufio.Reader), so that what follows it in the
// stream is left to the caller; from another reader it may read ahead.
func (s *Simulation) LoadState(r io.Reader) error {
	dec := gob.NewDecoder(r)
	var h checkpointHeader
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("simulation state: not one, or damaged: %w", err)
	}
	switch {
	case h.Format != checkpointFormat:
		return fmt.Errorf("simulation state: %q is not a simulation state", h.Format)
	case h.Version < 1 || h.Version > checkpointVersion:
		return fmt.Errorf("simulation state: version %d, this program reads versions 1 to %d", h.Version, checkpointVersion)
	case h.Kinds != nil && !slices.Equal(h.Kinds, s.kindNames()):
		return fmt.Errorf("simulation state: its kinds of body (%s) are not this simulation's (%s)", strings.Join(h.Kinds, ", "), strings.Join(s.kindNames(), ", "))
	case !slices.EqualFunc(h.Shape, s.shape(), slices.Equal):
		return fmt.Errorf("simulation state: its bodies (per kind, their DOFs: %v) are not this simulation's (%v)", h.Shape, s.shape())
	}
	for _, f := range s.families {
		if err := f.Load(dec); err != nil {
			return fmt.Errorf("simulation state: %s: %w", f.Name(), err)
		}
	}
	var st simState
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("simulation state: damaged: %w", err)
	}
	if h.Version < 5 {
		st.Steps = s.oldClock()
	}
	if err := s.setState(st); err != nil {
		return fmt.Errorf("simulation state: damaged: %w", err)
	}
	return nil
}

// oldClock is the step count a checkpoint before version 5 kept in a
// family's section.
func (s *Simulation) oldClock() int {
	for _, f := range s.families {
		if c, ok := f.(clockKeeper); ok {
			return c.Steps()
		}
	}
	return 0
}

// kindNames are the families' names, in order: a checkpoint's sections.
func (s *Simulation) kindNames() []string {
	names := make([]string, len(s.families))
	for i, f := range s.families {
		names[i] = f.Name()
	}
	return names
}

// shape is each family's bodies' DOFs.
func (s *Simulation) shape() [][]int {
	out := make([][]int, len(s.families))
	for fi, f := range s.families {
		out[fi] = []int{} // gob drops a nil slice: an empty family must read back equal
		for k := range f.Len() {
			out[fi] = append(out[fi], f.DOFs(k))
		}
	}
	return out
}

func (s *Simulation) state() simState {
	st := simState{PrevTime: s.prev.Time, PrevDisp: s.prev.Disp, PrevPoses: s.prev.Poses, NormalWork: s.NormalWork, FrictionWork: s.FrictionWork, ObstacleWork: s.ObstacleWork,
		PushOutWork: s.PushOutWork, Unconverged: s.Unconverged, InitialPenetration: s.InitialPenetration, Steps: s.steps}
	s.warm.entries(func(id kind.ID, w warmStart) {
		st.Warm = append(st.Warm, warmEntry{id.Source, id.Pair, id.Node, id.Reverse, id.Valley, id.A, id.B, w.p, w.slid, w.forward, w.roll})
	})
	slices.SortFunc(st.Warm, func(a, b warmEntry) int { // the same stream for the same state
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Pair, b.Pair), cmp.Compare(a.Node, b.Node),
			compareBool(a.Reverse, b.Reverse), compareBool(a.Valley, b.Valley), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	for key := range s.warned {
		st.Turned = append(st.Turned, key)
	}
	slices.Sort(st.Turned)
	st.Kept = s.pairs().kept()
	st.Bonded = s.bondList()
	return st
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func (s *Simulation) setState(st simState) error {
	if err := s.checkPrev(st); err != nil {
		return err
	}
	if err := s.pairs().restore(st.Kept, s.validUnit); err != nil {
		return err
	}
	clear(s.bonded)
	for _, id := range st.Bonded {
		s.bonded[id] = true
	}
	ids := make([]kind.ID, len(st.Warm))
	for i, w := range st.Warm {
		ids[i] = kind.ID{Source: w.Kind, Pair: w.Pair, Node: w.Node, Reverse: w.Reverse, Valley: w.Valley, A: w.A, B: w.B}
	}
	s.warm.reset(ids)
	for i, w := range st.Warm {
		s.warm.set(i, warmStart{p: w.P, slid: w.Slid, forward: w.Forward, roll: w.Roll})
	}
	s.prev = contact.Config{Time: st.PrevTime, Disp: st.PrevDisp, Poses: st.PrevPoses}
	s.NormalWork, s.FrictionWork, s.ObstacleWork, s.PushOutWork = st.NormalWork, st.FrictionWork, st.ObstacleWork, st.PushOutWork
	s.Unconverged, s.InitialPenetration = st.Unconverged, st.InitialPenetration
	clear(s.warned)
	for _, key := range st.Turned {
		s.warned[key] = true
	}
	if st.Steps < 0 {
		return fmt.Errorf("a step count of %d", st.Steps)
	}
	s.steps = st.Steps
	s.forget()
	return nil
}

// checkPrev refuses a last configuration (the tunnelling check's) of
// another shape than the simulation's: none, before the first step.
func (s *Simulation) checkPrev(st simState) error {
	if len(st.PrevDisp) == 0 && len(st.PrevPoses) == 0 {
		return nil
	}
	s.placeAll() // the loaded state, in buffers of the simulation's shape
	if len(st.PrevDisp) != len(s.at.Disp) || len(st.PrevPoses) != len(s.at.Poses) {
		return fmt.Errorf("the last configuration has %d bodies' displacements and %d poses, this simulation %d and %d", len(st.PrevDisp), len(st.PrevPoses), len(s.at.Disp), len(s.at.Poses))
	}
	for i, u := range st.PrevDisp {
		if len(u) != len(s.at.Disp[i]) {
			return fmt.Errorf("the last configuration has %d displacements of body %d, this simulation %d", len(u), i, len(s.at.Disp[i]))
		}
	}
	return nil
}

// pairs is the source of the Detector's pairs' units.
func (s *Simulation) pairs() *pairSource { return s.sources[0].(*pairSource) }

// validUnit says what is wrong with a unit a checkpoint keeps, if
// anything: a pair, a body or an equation the simulation does not have,
// or a value that is not finite.
func (s *Simulation) validUnit(u *contact.Unit) error {
	if u.Key.Pair < 0 || u.Key.Pair >= len(s.Detector.Pairs) {
		return fmt.Errorf("pair %d of %d", u.Key.Pair, len(s.Detector.Pairs))
	}
	vals := []float64{u.X[0], u.X[1], u.N[0], u.N[1], u.T[0], u.T[1], u.Gap, u.Weight, u.Mu,
		u.Rigid[0], u.Rigid[1], u.Driven[0], u.Driven[1], u.ObsN[0], u.ObsN[1], u.ObsT[0], u.ObsT[1]}
	for _, e := range u.Entries {
		if !s.delassus.known(e) {
			return fmt.Errorf("equation %d of body %d, which is not on a contact boundary", e.Eq, e.Body)
		}
		vals = append(vals, e.N, e.T)
	}
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("pair %d, node %d: a value of %v", u.Key.Pair, u.Key.Node, v)
		}
	}
	return nil
}
