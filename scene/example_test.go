package scene_test

import (
	"fmt"
	"strings"

	"github.com/fecontact/fecontact/scene"
)

// A scene file decoded and built: a rubber-like block dropped on a floor.
// Decode checks every value and names the key of a bad one; Model builds
// the bodies, pairs and obstacles; Simulation factorises them.
func ExampleDecode() {
	sc, err := scene.Decode(strings.NewReader(`
[time]
h = 1e-4
duration = 0.05

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [0.0, 0.001], size = [0.1, 0.05], cells = [10, 5] }
E = 1e6
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]

[[obstacle]]
name = "floor"
points = [[-1.0, 0.0], [1.0, 0.0]]

[[contact]]
candidate = { body = "block", group = "bottom" }
obstacle = "floor"
mu = 0.5
`), "drop.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := sc.Model(scene.Variant{})
	sim, _ := m.Simulation()
	for range sc.Steps() {
		if _, err := sim.Step(); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%d steps, %d contact units at the end\n", sc.Steps(), len(sim.Contacts()))

	_, err = scene.Decode(strings.NewReader("[time]\nh = -1.0\nduration = 1.0\n"), "bad.toml")
	fmt.Println(err)
	// Output:
	// 500 steps, 11 contact units at the end
	// bad.toml: [time]: h = -1: expected a positive time step in s
}
