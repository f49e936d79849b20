package toy

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/scene"
)

// Table reads the beads from a scene's [[rail]]: the one line a program
// adds to have them in its scenes is scene.Register(toy.Table{}).
//
//	[[rail]]
//	beads = 3       # how many, 2 radius apart leftwards from x
//	x = 0.0         # the first bead's centre, m
//	mass = 1.0      # kg/m each
//	radius = 0.05   # m
//	force = 2.0     # N/m pushing each towards the stop
//	stop = 1.0      # the stop's x, m
type Table struct{}

// rail is one [[rail]] table.
type rail struct {
	Beads  int     `toml:"beads"`
	X      float64 `toml:"x"`
	Mass   float64 `toml:"mass"`
	Radius float64 `toml:"radius"`
	Force  float64 `toml:"force"`
	Stop   float64 `toml:"stop"`
}

// maxBeads bounds a rail: each bead is a few slices' entries.
const maxBeads = 1_000_000

// Table is the name of the beads' array of tables.
func (Table) Table() string { return "rail" }

// Read decodes the one [[rail]] and checks it.
func (Table) Read(decode func(v any) error) (scene.Tables, error) {
	var rails []rail
	if err := decode(&rails); err != nil {
		return nil, err
	}
	if len(rails) != 1 {
		return nil, fmt.Errorf("[[rail]]: %d rails: the beads run on one", len(rails))
	}
	r := rails[0]
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("[[rail]] 1: %s = %v: expected %s", key, v, want)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case r.Beads < 1 || r.Beads > maxBeads:
		return nil, bad("beads", r.Beads, fmt.Sprintf("a count from 1 to %d", maxBeads))
	case !(r.Mass > 0) || !finite(r.Mass):
		return nil, bad("mass", r.Mass, "a positive mass in kg/m")
	case !(r.Radius > 0) || !finite(r.Radius):
		return nil, bad("radius", r.Radius, "a positive radius in m")
	case !finite(r.Force):
		return nil, bad("force", r.Force, "a force in N/m")
	case !finite(r.X) || !finite(r.Stop) || !(r.X+r.Radius <= r.Stop):
		return nil, bad("x", r.X, fmt.Sprintf("a finite position, the first bead's edge at most the stop (%g m)", r.Stop))
	}
	return r, nil
}

// Build makes the rail's beads at rest.
func (r rail) Build() (kind.Kind, error) {
	return New(r.Beads, r.X, r.Mass, r.Radius, r.Force, r.Stop).Kind(), nil
}
