// Package examples holds fecontact's built-in example scenes, one folder
// each with its scene.toml (and the Gmsh meshes it names), embedded so
// that "fecontact example NAME" runs them from any folder. Each example is run small by a test that asserts
// what it must show.
package examples

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed */scene.toml */*.msh */*.csv
var files embed.FS

// Names lists the examples.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Scene returns the scene file of an example.
func Scene(name string) ([]byte, error) {
	data, err := files.ReadFile(name + "/scene.toml")
	if err != nil {
		return nil, fmt.Errorf("no example %q (examples: %s)", name, strings.Join(Names(), ", "))
	}
	return data, nil
}

// Files returns an example's folder, where its scene reads the meshes it
// names (scene.Scene.Files).
func Files(name string) (fs.FS, error) {
	if _, err := Scene(name); err != nil {
		return nil, err
	}
	return fs.Sub(files, name)
}
