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
