package scene

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// Grains generates random convex polygonal grains ([M04] section 3.2), or
// disks, NAME1 to NAMEcount, on a lattice that fills Region row by row
// from its lower-left corner.
type Grains struct {
	Name     string      `toml:"name"`
	Group    string      `toml:"group"`
	Count    int         `toml:"count"`
	Shape    string      `toml:"shape"`  // "polygon" (the default) or "disk"
	Sides    []int       `toml:"sides"`  // [min, max], polygons only
	Radius   []float64   `toml:"radius"` // [min, max] of the circumscribed circle, m
	Region   [][]float64 `toml:"region"` // [[x0, y0], [x1, y1]]
	Seed     uint64      `toml:"seed"`
	Rho      float64     `toml:"rho"`
	Velocity []float64   `toml:"velocity"`
	Gravity  []float64   `toml:"gravity"`
	Fixed    bool        `toml:"fixed"` // glued: driven bodies that do not move
}

// Periodic makes the rigid bodies' cell periodic along x.
type Periodic struct {
	X []float64 `toml:"x"` // [x0, x1]
}

// maxGrains and maxSides bound a [[grains]] block before anything is
// allocated: a million grains is some 1 GB with its contacts; a polygon of
// more than 64 sides is a disk for every purpose of contact.
const (
	maxGrains = 1000000
	maxSides  = 64
)

func (g *Grains) check(i int) error {
	where := fmt.Sprintf("grains %d", i+1)
	if err := fileName(g.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("grains %q", g.Name)
	switch {
	case g.Count < 1 || g.Count > maxGrains:
		return bad(where, "count", g.Count, fmt.Sprintf("expected a number of grains in [1, %d] (each takes about a kB and a share of every step)", maxGrains))
	case g.Shape != "" && g.Shape != "polygon" && g.Shape != "disk":
		return bad(where, "shape", g.Shape, `expected "polygon" or "disk"`)
	case g.Shape == "disk" && g.Sides != nil:
		return fmt.Errorf("%s: disks have no sides: leave sides out", where)
	case g.Shape != "disk" && (len(g.Sides) != 2 || g.Sides[0] < 3 || g.Sides[1] < g.Sides[0] || g.Sides[1] > maxSides):
		return bad(where, "sides", g.Sides, fmt.Sprintf("expected [min, max] with 3 <= min <= max <= %d (use shape = \"disk\" for a round grain)", maxSides))
	case len(g.Radius) != 2 || !positive(g.Radius[0]) || !(g.Radius[1] >= g.Radius[0]) || !bounded(g.Radius[1]):
		return bad(where, "radius", g.Radius, "expected [min, max] with 0 < min <= max, in m")
	case len(g.Region) != 2 || len(g.Region[0]) != 2 || len(g.Region[1]) != 2 || !bounded(g.Region[0]...) || !bounded(g.Region[1]...) ||
		!(g.Region[1][0] > g.Region[0][0]) || !(g.Region[1][1] > g.Region[0][1]):
		return bad(where, "region", g.Region, "expected [[x0, y0], [x1, y1]], the lower-left and upper-right corners")
	case !g.Fixed && !positive(g.Rho):
		return bad(where, "rho", g.Rho, "expected a positive density in kg/m^3")
	case g.Rho < 0 || !finite(g.Rho):
		return bad(where, "rho", g.Rho, "expected a non-negative density in kg/m^3")
	case g.Velocity != nil && (len(g.Velocity) != 2 || !bounded(g.Velocity...)):
		return bad(where, "velocity", g.Velocity, "expected [vx, vy] in m/s")
	case g.Gravity != nil && (len(g.Gravity) != 2 || !bounded(g.Gravity...)):
		return bad(where, "gravity", g.Gravity, "expected [gx, gy] in m/s^2")
	case g.Fixed && (g.Velocity != nil || g.Gravity != nil):
		return fmt.Errorf("%s: fixed grains do not move: leave velocity and gravity out", where)
	}
	pitch := 2 * g.Radius[1] * 1.05
	// In floating point: a region of 1e9 pitches a side would overflow
	// the product of ints.
	cols := math.Floor((g.Region[1][0] - g.Region[0][0]) / pitch)
	rows := math.Floor((g.Region[1][1] - g.Region[0][1]) / pitch)
	if cols*rows < float64(g.Count) {
		return fmt.Errorf("%s: region holds %.0f grains of radius %g on its lattice (pitch %.3g m), not %d: enlarge it", where, cols*rows, g.Radius[1], pitch, g.Count)
	}
	return nil
}

// build draws the grains.
func (g *Grains) build() ([]*rigid.Body, error) {
	rng := rand.New(rand.NewPCG(g.Seed, 0x6a41))
	pitch := 2 * g.Radius[1] * 1.05
	cols := int((g.Region[1][0] - g.Region[0][0]) / pitch)
	var out []*rigid.Body
	for k := range g.Count {
		shape, err := g.draw(rng)
		if err != nil {
			return nil, err
		}
		c := [2]float64{g.Region[0][0] + pitch*(float64(k%cols)+0.5), g.Region[0][1] + pitch*(float64(k/cols)+0.5)}
		b, err := rigid.NewBody(fmt.Sprintf("%s%d", g.Name, k+1), shape, c, g.Rho)
		if err != nil {
			return nil, err
		}
		b.Group = g.Group
		switch {
		case g.Fixed:
			b.Motion = contact.Fixed{}
		default:
			if g.Velocity != nil {
				b.V[0], b.V[1] = g.Velocity[0], g.Velocity[1]
			}
			if g.Gravity != nil {
				b.Gravity = [2]float64{g.Gravity[0], g.Gravity[1]}
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// draw draws one grain's shape: a disk's radius uniform in Radius, or a
// polygon.
func (g *Grains) draw(rng *rand.Rand) (rigid.Shape, error) {
	if g.Shape == "disk" {
		return rigid.Disk{R: g.Radius[0] + (g.Radius[1]-g.Radius[0])*rng.Float64()}, nil
	}
	return rigid.RandomPolygon(rng, g.Sides[0], g.Sides[1], g.Radius[0], g.Radius[1])
}

func (p Periodic) check() error {
	if p.X != nil && (len(p.X) != 2 || !bounded(p.X...) || !(p.X[1] > p.X[0])) {
		return bad("[periodic]", "x", p.X, fmt.Sprintf("expected [x0, x1] with x0 < x1, in m, within +-%g", rigid.MaxCoordinate))
	}
	return nil
}
