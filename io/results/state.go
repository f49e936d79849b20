package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

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
	data, err := inputfile.ReadFile(path, MaxStateBytes, "state file (JSON, as fecontact run writes it)")
	if err != nil {
		return State{}, err
	}
	return DecodeState(data, path)
}

// DecodeState reads a state from data, name being the file's for
// messages. Every body has a name of its own and three finite values for
// its pose and its velocity, within rigid.MaxCoordinate: a pose of two
// values (no angle) or four, a body listed twice or a key misspelt is an
// error naming the file and the body, not a guess.
func DecodeState(data []byte, name string) (State, error) {
	var raw struct {
		Scene string  `json:"scene"`
		Step  int     `json:"step"`
		Time  float64 `json:"time"`
		Rigid []struct {
			Name string    `json:"name"`
			Q    []float64 `json:"q"`
			V    []float64 `json:"v"`
		} `json:"rigid"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return State{}, fmt.Errorf("state %s: %w (expected the JSON that fecontact run writes as state.json)", name, err)
	}
	if raw.Step < 0 || !(raw.Time >= 0) || math.IsInf(raw.Time, 0) {
		return State{}, fmt.Errorf("state %s: step %d at t = %g: expected a step >= 0 at a finite time >= 0", name, raw.Step, raw.Time)
	}
	s := State{Scene: raw.Scene, Step: raw.Step, Time: raw.Time}
	seen := map[string]bool{}
	for k, r := range raw.Rigid {
		what := fmt.Sprintf("state %s: rigid body %d %q", name, k+1, r.Name)
		switch {
		case r.Name == "":
			return State{}, fmt.Errorf("%s: no name", what)
		case seen[r.Name]:
			return State{}, fmt.Errorf("%s: listed twice", what)
		case len(r.Q) != 3 || len(r.V) != 3:
			return State{}, fmt.Errorf("%s: q = %v, v = %v: expected three values each, [x, y, angle] in m and rad and their rates", what, r.Q, r.V)
		}
		seen[r.Name] = true
		for _, v := range append(slices.Clone(r.Q), r.V...) {
			if !(math.Abs(v) < rigid.MaxCoordinate) {
				return State{}, fmt.Errorf("%s: q = %v, v = %v: expected finite values within +-%g", what, r.Q, r.V, rigid.MaxCoordinate)
			}
		}
		s.Rigid = append(s.Rigid, RigidState{Name: r.Name, Q: [3]float64(r.Q), V: [3]float64(r.V)})
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
			if !(math.Abs(v) < rigid.MaxCoordinate) {
				return fmt.Errorf("rigid body %q: %v in its state: expected finite values within +-%g", r.Name, v, rigid.MaxCoordinate)
			}
		}
		if _, twice := byName[r.Name]; twice {
			return fmt.Errorf("rigid body %q: listed twice in the state", r.Name)
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
