package sweep_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/sweep"
)

// A ball thrown down at 0, 1 and 2 m/s from 5 cm above the ground: the
// study planned into a folder, run on two cores, and its table written
// (sweep.csv; a plots.Painter would draw sweep.png too).
func Example() {
	base, err := scene.Decode(strings.NewReader(`[time]
h = 1e-3
duration = 0.3
[[rigid]]
name = "ground"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }
[[rigid]]
name = "ball"
radius = 0.1
position = [0.0, 0.15]
rho = 1000
gravity = [0.0, -9.81]
[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3
`), "ball.toml")
	if err != nil {
		log.Fatal(err)
	}
	speeds, err := sweep.ParseSetting("rigid.ball.velocity=[0,0]..[0,-2]")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "study")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p, err := sweep.New(base, []sweep.Setting{speeds}, dir, "example")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := p.Write(outdir.Options{}); err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	t := p.Run(context.Background(), 2, sweep.Options{Command: "example"}, nil)
	for k, r := range t.Rows {
		fmt.Printf("%s: on the ground for %.3f s\n", p.Describe(k), r.Figures.ContactDuration)
	}
	files, err := p.WriteTable(t, nil)
	fmt.Println(files, err)
	// Output:
	// rigid.ball.velocity = [0.0, 0.0]: on the ground for 0.200 s
	// rigid.ball.velocity = [0.0, -1.0]: on the ground for 0.259 s
	// rigid.ball.velocity = [0.0, -2.0]: on the ground for 0.277 s
	// [sweep.csv] <nil>
}
