package timestep

import (
	"cmp"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fecontact/fecontact/contact"
)

// checkpointFormat names the stream SaveState writes; its version changes
// whenever what it holds does, and LoadState refuses another.
const (
	checkpointFormat  = "fecontact simulation state"
	checkpointVersion = 1
)

// checkpointHeader says what wrote the stream and the shape of the
// simulation it belongs to: each family's body count and DOFs.
type checkpointHeader struct {
	Format  string
	Version int
	Shape   [][]int
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
	Turned                                              []string
}

// warmEntry is one unit's impulses kept for the next step's warm start.
type warmEntry struct {
	Kind            unitKind
	Pair, Node      int
	Reverse, Valley bool
	A, B            int
	P               [2]float64
}

// SaveState writes everything the simulation carries from one step to the
// next, between steps: every body's state and energy account (a
// hyperelastic body's internal force and where modified Newton made its
// factor), the rigid bodies' and point masses', the warm-start impulses,
// the last configuration (for the tunnelling check), the works of
// contact and the step count. LoadState on a simulation built the same
// way then goes on bit for bit as this one would have.
func (s *Simulation) SaveState(w io.Writer) error {
	if s.Stepper.stage != 0 {
		return errors.New("simulation state: saved in the middle of a step")
	}
	enc := gob.NewEncoder(w)
	if err := enc.Encode(checkpointHeader{checkpointFormat, checkpointVersion, s.shape()}); err != nil {
		return fmt.Errorf("simulation state: %w", err)
	}
	for _, f := range s.families {
		if err := f.save(enc); err != nil {
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
	case h.Version != checkpointVersion:
		return fmt.Errorf("simulation state: version %d, this program reads version %d", h.Version, checkpointVersion)
	case !slices.EqualFunc(h.Shape, s.shape(), slices.Equal):
		return fmt.Errorf("simulation state: its bodies (per kind, their DOFs: %v) are not this simulation's (%v)", h.Shape, s.shape())
	}
	for _, f := range s.families {
		if err := f.load(dec); err != nil {
			return fmt.Errorf("simulation state: %w", err)
		}
	}
	var st simState
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("simulation state: damaged: %w", err)
	}
	s.setState(st)
	return nil
}

// shape is each family's bodies' DOFs.
func (s *Simulation) shape() [][]int {
	out := make([][]int, len(s.families))
	for fi, f := range s.families {
		out[fi] = []int{} // gob drops a nil slice: an empty family must read back equal
		for k := range f.len() {
			out[fi] = append(out[fi], f.dofs(k))
		}
	}
	return out
}

func (s *Simulation) state() simState {
	st := simState{PrevTime: s.prev.Time, PrevDisp: s.prev.Disp, PrevPoses: s.prev.Poses, NormalWork: s.NormalWork, FrictionWork: s.FrictionWork, ObstacleWork: s.ObstacleWork,
		PushOutWork: s.PushOutWork, Unconverged: s.Unconverged, InitialPenetration: s.InitialPenetration}
	for id, p := range s.warm {
		st.Warm = append(st.Warm, warmEntry{id.kind, id.pair, id.node, id.reverse, id.valley, id.a, id.b, p})
	}
	slices.SortFunc(st.Warm, func(a, b warmEntry) int { // the same stream for the same state
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Pair, b.Pair), cmp.Compare(a.Node, b.Node),
			compareBool(a.Reverse, b.Reverse), compareBool(a.Valley, b.Valley), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	for b := range s.turned {
		st.Turned = append(st.Turned, b.Name)
	}
	slices.Sort(st.Turned)
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

func (s *Simulation) setState(st simState) {
	clear(s.warm)
	for _, w := range st.Warm {
		s.warm[unitID{w.Kind, w.Pair, w.Node, w.Reverse, w.Valley, w.A, w.B}] = w.P
	}
	s.prev = contact.Config{Time: st.PrevTime, Disp: st.PrevDisp, Poses: st.PrevPoses}
	s.NormalWork, s.FrictionWork, s.ObstacleWork, s.PushOutWork = st.NormalWork, st.FrictionWork, st.ObstacleWork, st.PushOutWork
	s.Unconverged, s.InitialPenetration = st.Unconverged, st.InitialPenetration
	clear(s.turned)
	for i := range s.Stepper.NumBodies() {
		if b := s.Stepper.Body(i); slices.Contains(st.Turned, b.Name) {
			s.turned[b] = true
		}
	}
}
