package run_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
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

// A run stopped (here after step 100 of 200, as Ctrl-C, a cluster's
// time limit or a kill would stop it) goes on from its checkpoint with
// Resume, and ends as the run never stopped does.
func ExampleResume() {
	data, _ := examples.Scene("colliding-blocks")
	sc, _ := scene.Decode(bytes.NewReader(data), "colliding-blocks.toml")
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)

	ctx, stop := context.WithCancel(context.Background())
	opt := run.Options{Dir: dir, Steps: 200, Progress: func(done, _ int, _ *timestep.Simulation) {
		if done == 99 {
			stop() // the run ends after the step under way
		}
	}}
	r, err := run.Scene(ctx, sc, opt)
	fmt.Println(r.Done, errors.Is(err, run.ErrInterrupted))

	r, err = run.Resume(context.Background(), dir, run.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d steps; in contact for %.0f us, friction work %.0f J\n",
		r.Done, 1e6*r.Figures.ContactDuration, r.Figures.FrictionWork)
	// Output:
	// 100 true
	// 200 steps; in contact for 191 us, friction work -4986 J
}
