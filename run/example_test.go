package run_test

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// A scene run from Go with the outputs `fecontact run` writes: here the
// built-in colliding blocks, its first 200 steps.
func ExampleScene() {
	data, _ := examples.Scene("colliding-blocks")
	sc, err := scene.Decode(bytes.NewReader(data), "colliding-blocks.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)

	r, err := run.Scene(context.Background(), sc, run.Options{Dir: dir, Steps: 200})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d steps; in contact for %.0f us, friction work %.0f J\n",
		r.Done, 1e6*r.Figures.ContactDuration, r.Figures.FrictionWork)
	// Output: 200 steps; in contact for 191 us, friction work -4986 J
}
