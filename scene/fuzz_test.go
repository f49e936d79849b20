package scene

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecode: whatever the bytes, Decode returns an error or a scene whose
// model builds or fails with an error; never a panic, never a model larger
// than the estimate allows.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../examples/*/scene.toml")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(minimal)
	f.Add(strings.Replace(minimal, "cells = [2, 2]", "cells = [4611686018427387904, 2]", 1))
	f.Add(strings.Replace(minimal, "cells = [2, 2]", "cells = [1000000, 1000000]", 1))
	f.Add(minimal + "\n[[obstacle]]\nname = \"floor\"\npoints = [[1.0, 0.0], [0.0, 0.0]]\n[[contact]]\ncandidate = { body = \"b\", group = \"bottom\" }\nobstacle = \"floor\"\nalert = 1e8\n")
	f.Fuzz(func(t *testing.T, src string) {
		sc, err := Decode(strings.NewReader(src), "fuzz.toml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		est, err := sc.Estimate(Variant{})
		if err != nil || est.Nodes > 2e4 {
			return // a large model is fine, but not in a fuzz loop
		}
		if _, err := sc.Model(Variant{}); err != nil && !strings.HasPrefix(err.Error(), "fuzz.toml") {
			t.Errorf("error does not name the file: %v", err)
		}
	})
}

// FuzzRigidScene: the rigid and grains part of a scene, whatever its
// values: Decode returns an error naming the file, or a scene whose model
// builds and steps once or fails with an error; never a panic nor a hang.
// The seeds are the rigid examples without their comments and the hostile
// inputs of issue 30 (bodies 1e18 m apart, 1e300 speeds, a billion sides,
// ten million grains). Small seeds and one step per input keep the fuzzer
// fuzzing: minimising a new input of the examples' size with their
// comments, at a few milliseconds a try, took it a minute a time (one
// input in 5 s was run).
func FuzzRigidScene(f *testing.F) {
	for _, name := range []string{"pillar", "disks-28", "slope-flow"} {
		b, err := os.ReadFile(filepath.Join("..", "examples", name, "scene.toml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(small(string(b)))
	}
	f.Add(rigidMinimal)
	f.Add(strings.Replace(rigidMinimal, "position = [0.0, 0.1]", "position = [1e18, 0.1]", 1))
	f.Add(strings.Replace(rigidMinimal, "rho = 1000", "rho = 1000\nvelocity = [1e300, 0.0]\nomega = 1e300", 1))
	f.Add(strings.Replace(rigidMinimal, `motion = { type = "fixed" }`, `motion = { type = "sine", amplitude = 1e14, period = 1e-9, direction = [1.0, 0.0] }`, 1))
	f.Add(rigidMinimal + grains("sides = [3, 1000000000]"))
	f.Add(rigidMinimal + strings.Replace(grains(""), "count = 3", "count = 10000000", 1))
	f.Add(rigidMinimal + grains("") + "\n[periodic]\nx = [-1.0, 1e300]\n")
	f.Fuzz(func(t *testing.T, src string) {
		fuzzSteps(t, src, func(sc *Scene) bool {
			bodies := len(sc.Rigid)
			for _, g := range sc.Grains {
				bodies += g.Count
			}
			est, err := sc.Estimate(Variant{})
			return err == nil && est.Nodes <= 2e3 && bodies <= 100 // a large model is fine, but not in a fuzz loop
		})
	})
}

// small is an example's scene made small for a fuzz seed: no comments,
// no blank lines, its first four [[rigid]] bodies and at most 5 grains of
// a [[grains]] table.
func small(text string) string {
	var b strings.Builder
	rigid, skip := 0, false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			if t == "[[rigid]]" {
				rigid++
			}
			skip = t == "[[rigid]]" && rigid > 4
		}
		if strings.HasPrefix(t, "count =") {
			line = "count = 5"
		}
		if t != "" && !strings.HasPrefix(t, "#") && !skip {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// FuzzPointScene: the masses, springs and point contacts of a scene,
// whatever their values: Decode or Model returns an error naming the
// file, or the model steps a few times or fails with an error; never a
// panic nor a hang. The seeds are the point-impact example and hostile
// values (1e300 speeds and stiffnesses, a mass of 1e-300, an anchor 1e18
// m away).
func FuzzPointScene(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("..", "examples", "point-impact", "scene.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(pointsMinimal)
	f.Add(strings.Replace(pointsMinimal, "gravity = [0.0, -9.81]", "velocity = [1e300, -1e300]", 1))
	f.Add(strings.Replace(pointsMinimal, "stiffness = 100.0", "stiffness = 1e300", 1))
	f.Add(strings.Replace(pointsMinimal, "mass = 2.0", "mass = 1e-300", 1))
	f.Add(strings.Replace(pointsMinimal, "anchor = [0.0, 0.6]", "anchor = [1e18, 0.6]", 1))
	f.Fuzz(func(t *testing.T, src string) {
		fuzzSteps(t, src, func(sc *Scene) bool {
			return len(sc.Masses) <= 200 && len(sc.Bodies)+len(sc.Rigid)+len(sc.Grains) == 0 // small, and not another target's
		})
	})
}

// fuzzSteps decodes a scene and, when it is one and take says so, builds
// its model and steps it three times: every error of Decode and Model
// must name the file, and nothing may panic or hang.
func fuzzSteps(t *testing.T, src string, take func(*Scene) bool) {
	sc, err := Decode(strings.NewReader(src), "fuzz.toml")
	if err == nil {
		if !take(sc) {
			return
		}
		var m *Model
		if m, err = sc.Model(Variant{}); err == nil {
			sim, err := m.Simulation()
			if err != nil {
				return
			}
			sim.Step() // an error is fine: it was returned
			return
		}
	}
	if !strings.HasPrefix(err.Error(), "fuzz.toml") {
		t.Errorf("error does not name the file: %v", err)
	}
}
