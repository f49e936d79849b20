package results

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/rigid"
)

// State is where a run leaves its rigid bodies: the file state.json that
// `fecontact run` writes at its end and `fecontact explore --state` starts
// from, so that a deposit is surveyed without running it again. It holds
// every rigid body's pose and velocity by name (elastic bodies are not
// saved: explore surveys rigid bodies).
type State struct {
	Scene string       `json:"scene"`
	Step  int          `json:"step"`
	Time  float64      `json:"time"`
	Rigid []RigidState `json:"rigid"`
}

// RigidState is one rigid body's centre, rotation and their velocities.
type RigidState struct {
	Name string     `json:"name"`
	Q    [3]float64 `json:"q"`
	V    [3]float64 `json:"v"`
}

// StateOf is the state of sys after step steps, at time t.
func StateOf(scene string, steps int, t float64, sys *rigid.System) State {
	s := State{Scene: scene, Step: steps, Time: t}
	for _, b := range sys.Bodies {
		s.Rigid = append(s.Rigid, RigidState{Name: b.Name, Q: b.Q, V: b.V})
	}
	return s
}

// WriteState writes s to path, whole or not at all.
func WriteState(path string, s State) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(s)
	})
}

// MaxStateBytes bounds a state file: some 200 bytes a rigid body, for a
// million grains and room to spare.
const MaxStateBytes = 1 << 30

// ReadState reads a state file.
func ReadState(path string) (State, error) {
	var s State
	data, err := inputfile.ReadFile(path, MaxStateBytes, "state file (JSON, as fecontact run writes it)")
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("state %s: %w", path, err)
	}
	return s, nil
}

// Apply sets the rigid bodies of sys to the state: the bodies must be the
// same, by name, as those of the run that wrote it, and every value
// finite.
func (s State) Apply(sys *rigid.System) error {
	byName := make(map[string]RigidState, len(s.Rigid))
	for _, r := range s.Rigid {
		for _, v := range append(r.Q[:], r.V[:]...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("rigid body %q: %v in its state", r.Name, v)
			}
		}
		byName[r.Name] = r
	}
	if len(byName) != len(sys.Bodies) {
		return fmt.Errorf("%d rigid bodies in the state, %d in the scene: the state is of another scene", len(byName), len(sys.Bodies))
	}
	for _, b := range sys.Bodies {
		r, ok := byName[b.Name]
		if !ok {
			return fmt.Errorf("rigid body %q of the scene is not in the state: the state is of another scene", b.Name)
		}
		b.Q, b.V = r.Q, r.V
	}
	return nil
}
