package results_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// A program that embeds fecontact writes what `fecontact run` writes: a
// scene (here the built-in colliding blocks) to a simulation, then a Writer
// fed after every step; plots.Painter draws its pictures (energy.png).
func ExampleWriter() {
	data, _ := examples.Scene("colliding-blocks")
	sc, _ := scene.Decode(bytes.NewReader(data), "colliding-blocks.toml")
	model, _ := sc.Model(scene.Variant{})
	sim, _ := model.Simulation()
	dir, _ := os.MkdirTemp("", "results")
	defer os.RemoveAll(dir)

	files, _, err := outdir.Create(dir, "run", outdir.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer files.Close()
	out, err := results.NewWriter(files, sim, results.Options{Encoding: vtk.Base64, Painter: plots.Painter{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = out.Record(timestep.StepStats{}, true) // the initial state
	for i := 1; i <= 20; i++ {
		st, err := sim.Step()
		if err != nil {
			fmt.Println(out.Abandon(err))
			return
		}
		_ = out.Record(st, i%10 == 0)
	}
	if err := out.Close(); err != nil {
		fmt.Println(err)
		return
	}
	for _, pat := range []string{"*.pvd", "*.vtu", "history.csv", "*.png"} {
		files, _ := filepath.Glob(filepath.Join(dir, pat))
		fmt.Printf("%s: %d\n", pat, len(files))
	}
	// Output:
	// *.pvd: 2
	// *.vtu: 9
	// history.csv: 1
	// *.png: 1
}
