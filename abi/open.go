package abi

import (
	"fmt"
	"strings"

	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// Source is the scene a simulation is opened from: a file (Path), a TOML
// text (Text, named Name in messages, its relative paths from Name's
// folder), or a built-in example (Example); exactly one. Refine divides
// the finite-element bodies' cells as `fecontact run --refine` does (0:
// as written).
type Source struct {
	Path, Text, Name, Example string
	Refine                    int
}

// Open builds the simulation of a scene, as `fecontact run` does before
// its first step: the same simulation, which steps to the same states.
func Open(src Source) (Handle, Code) {
	sim, code, err := open(src)
	if err != nil {
		return 0, orphan(code, err)
	}
	return add(sim), OK
}

func open(src Source) (sim *timestep.Simulation, code Code, err error) {
	defer func() {
		if r := recover(); r != nil {
			sim, code, err = nil, ErrInternal, fmt.Errorf("fecontact internal error (a bug, please report it with the scene): %v", r)
		}
	}()
	given := 0
	for _, s := range []string{src.Path, src.Text, src.Example} {
		if s != "" {
			given++
		}
	}
	if given != 1 {
		return nil, ErrArgument, fmt.Errorf("open: %d of a scene file, a scene text and an example given: expected exactly one", given)
	}
	if src.Refine < 0 {
		return nil, ErrArgument, fmt.Errorf("open: refine %d: expected a whole number >= 1 (0: as written)", src.Refine)
	}
	var sc *scene.Scene
	switch {
	case src.Path != "":
		sc, err = scene.Load(src.Path)
	case src.Example != "":
		sc, err = scene.Example(src.Example)
	default:
		name := src.Name
		if name == "" {
			name = "scene text"
		}
		sc, err = scene.Decode(strings.NewReader(src.Text), name)
	}
	if err != nil {
		return nil, ErrScene, err
	}
	model, err := sc.Model(scene.Variant{Refine: src.Refine})
	if err != nil {
		return nil, ErrScene, err
	}
	if sim, err = model.Simulation(); err != nil {
		return nil, ErrScene, err
	}
	return sim, OK, nil
}
