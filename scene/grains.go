package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/rigid"
)

// Grains generates random convex polygonal grains ([M04] section 3.2), or
// disks, NAME1 to NAMEcount, on a lattice that fills Region row by row
// from its lower-left corner, or (Placement "random") placed at random in
// Region without overlap (random sequential addition: each grain's
// circumscribed circle clear of the others'), or (Placement "deposit",
// disks) deposited one by one in Region's width onto its floor (each
// dropped at a random abscissa, it falls and rolls over the disks it meets
// until it rests on the floor, on two disks one each side, or on a disk
// and a side: Visscher and Bolsterli's deposit, LMGC90's depositInBox2D),
// a dense packing at rest, touching; Count of them or as many as make
// SolidFraction of the region's area; a sample that cannot be placed (or
// whose deposit rises above the region) is refused with how many fit. All
// are reproducible from Seed.
type Grains struct {
	Name   string    `toml:"name"`
	Group  string    `toml:"group"`
	Count  int       `toml:"count"`
	Shape  string    `toml:"shape"`  // "polygon" (the default) or "disk"
	Sides  []int     `toml:"sides"`  // [min, max], polygons only
	Radius []float64 `toml:"radius"` // [min, max] of the circumscribed circle, m
	// Sizes, instead of Radius's uniform draw, is a grading: radii (of
	// the circumscribed circle, m) and their shares of the grains' number,
	// [[r1, share1], [r2, share2], ...] (the shares add up to anything:
	// they are normalised), each grain's radius drawn from them.
	Sizes  [][]float64 `toml:"sizes"`
	Region [][]float64 `toml:"region"` // [[x0, y0], [x1, y1]]
	// Within, instead of Region, is a convex polygon (its vertices
	// counter-clockwise) the grains' circumscribed circles lie in: a
	// hopper, a silo, a slope; random placement only.
	Within   [][]float64 `toml:"within"`
	Seed     uint64      `toml:"seed"`
	Rho      float64     `toml:"rho"`
	Velocity []float64   `toml:"velocity"`
	Gravity  []float64   `toml:"gravity"`
	Fixed    bool        `toml:"fixed"` // glued: driven bodies that do not move
	// Placement is "lattice" (the default), "random" or "deposit";
	// SolidFraction, with random or deposit placement instead of Count, the
	// grains' area over the region's to reach.
	Placement     string  `toml:"placement"`
	SolidFraction float64 `toml:"solid_fraction"`
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
	if err := g.checkSizes(where); err != nil {
		return err
	}
	if err := g.checkWithin(where); err != nil {
		return err
	}
	random, deposit := g.Placement == "random", g.Placement == "deposit"
	switch {
	case g.Placement != "" && g.Placement != "lattice" && !random && !deposit:
		return bad(where, "placement", fmt.Sprintf("%q", g.Placement), `expected "lattice", "random" or "deposit"`)
	case g.SolidFraction != 0 && (!(random || deposit) || g.Count != 0):
		return bad(where, "solid_fraction", g.SolidFraction, `applies with placement = "random" or "deposit" and no count`)
	case random && g.SolidFraction != 0 && !(g.SolidFraction > 0 && g.SolidFraction < 0.55):
		return bad(where, "solid_fraction", g.SolidFraction, `expected a fraction in (0, 0.55): random addition jams near 0.55 for disks, lower for polygons (a denser sample of disks comes by placement = "deposit", or let it settle)`)
	case deposit && g.SolidFraction != 0 && !(g.SolidFraction > 0 && g.SolidFraction < maxDeposit):
		return bad(where, "solid_fraction", g.SolidFraction, fmt.Sprintf("expected a fraction in (0, %g): a deposit of disks packs at about 0.8 below its rough top", maxDeposit))
	case (g.Count < 1 && !((random || deposit) && g.SolidFraction != 0)) || g.Count > maxGrains:
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
	if deposit && (g.Region[1][0]-g.Region[0][0])/(2*g.Radius[1]) > maxDepositColumns {
		return bad(where, "radius", g.Radius, fmt.Sprintf("expected a largest radius of at least %.3g m: a deposit keeps a column of cells per largest diameter, at most %g across the region's width", (g.Region[1][0]-g.Region[0][0])/(2*maxDepositColumns), float64(maxDepositColumns)))
	}
	if random || deposit {
		if g.Region[1][0]-g.Region[0][0] < 2*g.Radius[1] || g.Region[1][1]-g.Region[0][1] < 2*g.Radius[1] {
			return bad(where, "region", g.Region, fmt.Sprintf("expected a region at least a grain across (2 x %g m) each way", g.Radius[1]))
		}
		return nil // placed when built, refused there if they do not fit
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

// maxSizes bounds a grading's table.
const maxSizes = 1000

// checkSizes checks a grading (Sizes) and sets Radius to the range of its
// radii, which the checks and the placements read; a Radius given beside
// it is refused (one that is that range already is the grading's).
func (g *Grains) checkSizes(where string) error {
	if g.Sizes == nil {
		return nil
	}
	if len(g.Sizes) < 1 || len(g.Sizes) > maxSizes {
		return bad(where, "sizes", fmt.Sprintf("%d entries", len(g.Sizes)), fmt.Sprintf("expected 1 to %d [radius, share] pairs", maxSizes))
	}
	lo, hi, total := math.Inf(1), math.Inf(-1), 0.0
	for k, e := range g.Sizes {
		if len(e) != 2 || !positive(e[0]) || !bounded(e[0]) || !positive(e[1]) || !bounded(e[1]) {
			return bad(where, fmt.Sprintf("sizes[%d]", k+1), e, fmt.Sprintf("expected [radius, share], both positive and below %g: the radius in m, the share of the grains' number", rigid.MaxCoordinate))
		}
		lo, hi, total = min(lo, e[0]), max(hi, e[0]), total+e[1]
	}
	if !bounded(total) {
		return bad(where, "sizes", g.Sizes, "expected shares whose sum is finite")
	}
	if g.Radius != nil && (len(g.Radius) != 2 || g.Radius[0] != lo || g.Radius[1] != hi) {
		return fmt.Errorf("%s: radius and sizes are both given: give radius = [min, max] (uniform) or sizes = [[radius, share], ...], one of them", where)
	}
	g.Radius = []float64{lo, hi}
	return nil
}

// checkWithin checks a polygon to place grains in (Within) and sets Region
// to its bounding box, which the placement draws centres in; a Region
// given beside it is refused (one that is that box already is its).
func (g *Grains) checkWithin(where string) error {
	if g.Within == nil {
		return nil
	}
	if g.Placement != "random" {
		return fmt.Errorf(`%s: within places grains at random: give placement = "random" (a deposit or a lattice fills a region's box)`, where)
	}
	vs := make([][2]float64, len(g.Within))
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for k, p := range g.Within {
		if len(p) != 2 || !bounded(p...) {
			return bad(where, fmt.Sprintf("within[%d]", k+1), p, "expected [x, y] in m")
		}
		vs[k] = [2]float64{p[0], p[1]}
		lo = [2]float64{min(lo[0], p[0]), min(lo[1], p[1])}
		hi = [2]float64{max(hi[0], p[0]), max(hi[1], p[1])}
	}
	if _, _, err := rigid.NewPolygon(vs); err != nil {
		return bad(where, "within", g.Within, fmt.Sprintf("expected a convex polygon, its vertices counter-clockwise: %v", err))
	}
	box := [][]float64{{lo[0], lo[1]}, {hi[0], hi[1]}}
	if g.Region != nil && !slices.EqualFunc(g.Region, box, slices.Equal) {
		return fmt.Errorf("%s: region and within are both given: give region = [[x0, y0], [x1, y1]] (a box) or within = [[x, y], ...] (a polygon), one of them", where)
	}
	g.Region = box
	return nil
}

// inside tells whether the circle of radius r about c lies in Within (in
// Region's box when there is none, which the placement draws in).
func (g *Grains) inside(c [2]float64, r float64) bool {
	n := len(g.Within)
	for k, p := range g.Within {
		q := g.Within[(k+1)%n]
		dx, dy := q[0]-p[0], q[1]-p[1]
		if (dx*(c[1]-p[1])-dy*(c[0]-p[0]))/math.Hypot(dx, dy) < r { // its distance left of the edge
			return false
		}
	}
	return true
}

// area is the area grains are placed in: Within's, or Region's.
func (g *Grains) area() float64 {
	if g.Within == nil {
		return (g.Region[1][0] - g.Region[0][0]) * (g.Region[1][1] - g.Region[0][1])
	}
	var a float64
	n := len(g.Within)
	for k, p := range g.Within {
		q := g.Within[(k+1)%n]
		a += (p[0]*q[1] - q[0]*p[1]) / 2
	}
	return a
}

// radius draws a grain's radius: uniform in Radius, or from Sizes.
func (g *Grains) radius(rng *rand.Rand) float64 {
	if g.Sizes == nil {
		return g.Radius[0] + (g.Radius[1]-g.Radius[0])*rng.Float64()
	}
	var total float64
	for _, e := range g.Sizes {
		total += e[1]
	}
	x := total * rng.Float64()
	for _, e := range g.Sizes {
		if x < e[1] {
			return e[0]
		}
		x -= e[1]
	}
	return g.Sizes[len(g.Sizes)-1][0] // round-off at the top
}

// maxDeposit bounds a deposit's solid fraction over its region: a
// deposit of disks packs at about 0.8, less at its rough top.
const maxDeposit = 0.8

// maxDepositColumns bounds the columns of cells (one a largest diameter)
// a deposit keeps across its region: radii of 1e-9 m in a region of 0.2 m
// made 1e8 of them, 10 GB.
const maxDepositColumns = 100000

// build draws the grains.
func (g *Grains) build() ([]*rigid.Body, error) {
	switch g.Placement {
	case "random":
		return g.random()
	case "deposit":
		return g.deposit()
	}
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
		g.setUp(b)
		out = append(out, b)
	}
	return out, nil
}

// randomTries bounds the positions tried for one grain before the sample
// is declared full.
const randomTries = 10000

// random places the grains at random in the region, each one's
// circumscribed circle clear of the others' and inside the region.
func (g *Grains) random() ([]*rigid.Body, error) {
	rng := rand.New(rand.NewPCG(g.Seed, 0x7a55))
	x0, y0, x1, y1 := g.Region[0][0], g.Region[0][1], g.Region[1][0], g.Region[1][1]
	target := g.area() * g.SolidFraction
	grid := newDiskGrid(2 * g.Radius[1])
	var out []*rigid.Body
	var area float64
	for k := 0; (g.Count > 0 && k < g.Count) || (g.Count == 0 && area < target); k++ {
		if k == maxGrains {
			return nil, fmt.Errorf("solid_fraction %g of the region takes more than %d grains of radius %v: a larger radius or a smaller region", g.SolidFraction, maxGrains, g.Radius)
		}
		shape, err := g.draw(rng)
		if err != nil {
			return nil, err
		}
		r := shape.Radius()
		placed := false
		for range randomTries {
			c := [2]float64{x0 + r + (x1-x0-2*r)*rng.Float64(), y0 + r + (y1-y0-2*r)*rng.Float64()}
			if grid.clear(c, r) && g.inside(c, r) {
				grid.add(c, r)
				b, err := rigid.NewBody(fmt.Sprintf("%s%d", g.Name, k+1), shape, c, g.Rho)
				if err != nil {
					return nil, err
				}
				g.setUp(b)
				out, area, placed = append(out, b), area+shape.Area(), true
				break
			}
		}
		if !placed {
			return nil, fmt.Errorf("only %d grains (solid fraction %.3f) fit in the region by random addition: enlarge the region, or lower count or solid_fraction (a denser sample comes by deposition: let it settle)", len(out), area/g.area())
		}
	}
	return out, nil
}

// deposit deposits the disks one by one in the region's width onto its
// floor (piles.Pile), until Count of them or SolidFraction of the
// region's area, refusing a deposit that rises above the region.
func (g *Grains) deposit() ([]*rigid.Body, error) {
	rng := rand.New(rand.NewPCG(g.Seed, 0xde9051))
	x0, y0, x1, y1 := g.Region[0][0], g.Region[0][1], g.Region[1][0], g.Region[1][1]
	target := (x1 - x0) * (y1 - y0) * g.SolidFraction
	pile := piles.NewPile(x1-x0, g.Radius[1])
	var out []*rigid.Body
	var area float64
	for k := 0; (g.Count > 0 && k < g.Count) || (g.Count == 0 && area < target); k++ {
		if k == maxGrains {
			return nil, fmt.Errorf("solid_fraction %g of the region takes more than %d grains of radius %v: a larger radius or a smaller region", g.SolidFraction, maxGrains, g.Radius)
		}
		shape, err := g.deposited(rng)
		if err != nil {
			return nil, err
		}
		r := shape.Radius()
		at := pile.Add(r, rng)
		c := [2]float64{x0 + at[0], y0 + at[1]}
		if c[1]+r > y1 {
			return nil, fmt.Errorf("only %d grains (solid fraction %.3f) deposit below the region's top y = %g: raise it, or lower count or solid_fraction", len(out), area/((x1-x0)*(y1-y0)), y1)
		}
		b, err := rigid.NewBody(fmt.Sprintf("%s%d", g.Name, k+1), shape, c, g.Rho)
		if err != nil {
			return nil, err
		}
		g.setUp(b)
		out, area = append(out, b), area+shape.Area()
	}
	return out, nil
}

// deposited draws a deposited grain's shape: a disk, or a polygon
// deposited as its circumscribed disk.
func (g *Grains) deposited(rng *rand.Rand) (rigid.Shape, error) {
	if g.Shape == "disk" {
		return rigid.Disk{R: g.radius(rng)}, nil
	}
	return g.draw(rng)
}

// setUp gives a grain the sample's group and motion.
func (g *Grains) setUp(b *rigid.Body) {
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
}

// diskGrid finds the placed circles near a point: cells of the largest
// diameter, so that a new circle meets only those of its 3 x 3 cells.
type diskGrid struct {
	cell  float64
	cells map[[2]int][][3]float64
}

func newDiskGrid(cell float64) *diskGrid {
	return &diskGrid{cell: cell, cells: map[[2]int][][3]float64{}}
}

func (d *diskGrid) key(c [2]float64) [2]int {
	return [2]int{int(math.Floor(c[0] / d.cell)), int(math.Floor(c[1] / d.cell))}
}

func (d *diskGrid) clear(c [2]float64, r float64) bool {
	k := d.key(c)
	for i := k[0] - 1; i <= k[0]+1; i++ {
		for j := k[1] - 1; j <= k[1]+1; j++ {
			for _, o := range d.cells[[2]int{i, j}] {
				if math.Hypot(c[0]-o[0], c[1]-o[1]) < r+o[2] {
					return false
				}
			}
		}
	}
	return true
}

func (d *diskGrid) add(c [2]float64, r float64) {
	k := d.key(c)
	d.cells[k] = append(d.cells[k], [3]float64{c[0], c[1], r})
}

// draw draws one grain's shape: a disk's radius uniform in Radius, or a
// polygon.
func (g *Grains) draw(rng *rand.Rand) (rigid.Shape, error) {
	if g.Shape == "disk" {
		return rigid.Disk{R: g.radius(rng)}, nil
	}
	if g.Sizes != nil {
		r := g.radius(rng)
		return rigid.RandomPolygon(rng, g.Sides[0], g.Sides[1], r, r)
	}
	return rigid.RandomPolygon(rng, g.Sides[0], g.Sides[1], g.Radius[0], g.Radius[1])
}

func (p Periodic) check() error {
	if p.X != nil && (len(p.X) != 2 || !bounded(p.X...) || !(p.X[1] > p.X[0])) {
		return bad("[periodic]", "x", p.X, fmt.Sprintf("expected [x0, x1] with x0 < x1, in m, within +-%g", rigid.MaxCoordinate))
	}
	return nil
}
