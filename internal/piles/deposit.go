package piles

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fecontact/fecontact/rigid"
)

// Pile is a geometric deposit of disks in a box [0, width] x [0, inf):
// each disk, dropped at a random abscissa, falls until it meets the floor
// or a disk, then rolls down over the disks it meets until it rests on
// the floor, on two disks one each side of it, or on a disk and a wall
// (Visscher and Bolsterli's deposit, as LMGC90's depositInBox2D builds
// one). Its disks touch: every contact is a gap of 0 to round-off.
type Pile struct {
	Width float64      // of the box, m
	X     [][2]float64 // the disks' centres, m, in the order deposited
	R     []float64    // their radii, m

	cell float64
	cols [][]int // disks by column of cells, for the falls
	grid map[[2]int][]int
}

// NewPile is an empty deposit in a box of the given width for disks of
// radius up to rmax.
func NewPile(width, rmax float64) *Pile { return newPile(width, rmax) }

// Add deposits a disk of radius r dropped at an abscissa drawn from rng
// and returns its centre.
func (p *Pile) Add(r float64, rng *rand.Rand) [2]float64 {
	p.add(r+(p.Width-2*r)*rng.Float64(), r, rng)
	return p.X[len(p.X)-1]
}

func newPile(width, rmax float64) *Pile {
	p := &Pile{Width: width, cell: 2 * rmax, grid: map[[2]int][]int{}}
	p.cols = make([][]int, int(width/p.cell)+1)
	return p
}

func (p *Pile) cellOf(x [2]float64) [2]int {
	return [2]int{int(math.Floor(x[0] / p.cell)), int(math.Floor(x[1] / p.cell))}
}

// near lists the disks whose centres may lie within d of x.
func (p *Pile) near(x [2]float64, d float64) []int {
	lo, hi := p.cellOf([2]float64{x[0] - d, x[1] - d}), p.cellOf([2]float64{x[0] + d, x[1] + d})
	var out []int
	for i := lo[0]; i <= hi[0]; i++ {
		for j := lo[1]; j <= hi[1]; j++ {
			out = append(out, p.grid[[2]int{i, j}]...)
		}
	}
	return out
}

// drop returns where a disk of radius r falling at abscissa x from height
// top first touches the floor or a disk other than except, and the disk
// (-1: the floor).
func (p *Pile) drop(x, top, r float64, except int) ([2]float64, int) {
	y, on := r, -1
	c0, c1 := int((x-r-p.cell)/p.cell), int((x+r+p.cell)/p.cell)
	for c := max(c0, 0); c <= min(c1, len(p.cols)-1); c++ {
		for _, j := range p.cols[c] {
			dx, R := x-p.X[j][0], r+p.R[j]
			if j == except || math.Abs(dx) >= R {
				continue
			}
			if h := p.X[j][1] + math.Sqrt(R*R-dx*dx); h > y && h <= top+1e-12 {
				y, on = h, j
			}
		}
	}
	return [2]float64{x, y}, on
}

// roll turns a disk of radius r at x, touching disk s, about s in the
// direction dir (1: clockwise, down on the right) until it meets a disk,
// a wall or the floor, or reaches s's equator; it returns where it stops,
// the disk it met (-1: none; -2: a wall or the floor).
func (p *Pile) roll(x [2]float64, r float64, s int, dir float64) ([2]float64, int) {
	c, R := p.X[s], r+p.R[s]
	th0 := math.Atan2(x[1]-c[1], x[0]-c[0])
	tmax := th0 // clockwise to 0
	if dir < 0 {
		tmax = math.Pi - th0
	}
	at := func(t float64) [2]float64 {
		th := th0 - dir*t
		return [2]float64{c[0] + R*math.Cos(th), c[1] + R*math.Sin(th)}
	}
	best, hit := tmax, -1
	// t >= 0 where the angle th0 - dir t is one of th, towards the
	// obstacle at y (a contact it leaves is no stop).
	consider := func(th float64, k int, y [2]float64) {
		t := math.Remainder(dir*(th0-th), 2*math.Pi)
		if t < 0 {
			t += 2 * math.Pi
		}
		x := at(t)
		towards := dir*(math.Sin(th)*(y[0]-x[0])-math.Cos(th)*(y[1]-x[1])) > 0
		if t > 1e-9 && t < best && towards {
			best, hit = t, k
		}
	}
	for _, k := range p.near(c, R+r+p.cell) {
		if k == s {
			continue
		}
		d := [2]float64{p.X[k][0] - c[0], p.X[k][1] - c[1]}
		D, Rk := math.Hypot(d[0], d[1]), r+p.R[k]
		cs := (R*R + D*D - Rk*Rk) / (2 * R * D)
		if math.Abs(cs) > 1 {
			continue
		}
		a, b := math.Atan2(d[1], d[0]), math.Acos(cs)
		consider(a+b, k, p.X[k])
		consider(a-b, k, p.X[k])
	}
	for _, wall := range []float64{r, p.Width - r} {
		if cs := (wall - c[0]) / R; math.Abs(cs) <= 1 {
			consider(math.Acos(cs), -2, [2]float64{2*wall - c[0], c[1]})
			consider(-math.Acos(cs), -2, [2]float64{2*wall - c[0], c[1]})
		}
	}
	if sn := (r - c[1]) / R; math.Abs(sn) <= 1 {
		consider(math.Asin(sn), -2, [2]float64{c[0], -math.Inf(1)})
		consider(math.Pi-math.Asin(sn), -2, [2]float64{c[0], -math.Inf(1)})
	}
	return at(best), hit
}

// add deposits a disk of radius r dropped at abscissa x0.
func (p *Pile) add(x0, r float64, rng *rand.Rand) {
	x, s := p.drop(x0, math.Inf(1), r, -1)
	for range 1000 {
		if s < 0 {
			break // on the floor
		}
		dir := math.Copysign(1, x[0]-p.X[s][0])
		if x[0] == p.X[s][0] {
			dir = float64(2*rng.IntN(2) - 1)
		}
		next, k := p.roll(x, r, s, dir)
		x = next
		switch {
		case k == -2:
			s = -1 // on a wall or the floor
		case k >= 0 && (x[0]-p.X[s][0])*(x[0]-p.X[k][0]) <= 0:
			s = -1 // one support each side
		case k >= 0:
			s = k // both on one side: roll on over the new one
		default: // past s's equator: fall again
			x, s = p.drop(x[0], x[1], r, s)
		}
	}
	p.X, p.R = append(p.X, x), append(p.R, r)
	i := len(p.X) - 1
	c := p.cellOf(x)
	p.grid[c] = append(p.grid[c], i)
	p.cols[min(max(c[0], 0), len(p.cols)-1)] = append(p.cols[min(max(c[0], 0), len(p.cols)-1)], i)
}

// Deposit is n disks of radii 5 to 7.5 mm deposited in a box whose width
// makes the pile about as high as wide (LMGC90's deposit case: lx =
// sqrt(sum pi r^2 / 0.8), to the centimetre).
func Deposit(n int, seed uint64) *Pile {
	rng := rand.New(rand.NewPCG(seed, 1))
	const rmin, rmax = 0.005, 0.0075
	radii := make([]float64, n)
	var area float64
	for i := range radii {
		radii[i] = rmin + (rmax-rmin)*rng.Float64()
		area += math.Pi * radii[i] * radii[i]
	}
	width := math.Round(100*math.Sqrt(area/0.8)) / 100
	p := newPile(width, rmax)
	for _, r := range radii {
		p.Add(r, rng)
	}
	return p
}

// DepositBox is Deposit's n disks as a file of 8-digit values gives them
// (EightDigits: touching disks overlap by up to 1e-8 m), of density 2600
// under gravity, in Walls' box 15 mm thick, as tall as the pile plus a
// largest diameter: the deposit the benchmarks and the peers' scripts
// share (LMGC90's deposit case), its walls first.
func DepositBox(n int, seed uint64) ([]*rigid.Body, error) {
	const rmax = 0.0075
	p := Deposit(n, seed)
	var top float64
	for _, x := range p.X {
		top = max(top, x[1])
	}
	bodies, err := Walls(p.Width, top+2*rmax, 2*rmax)
	if err != nil {
		return nil, err
	}
	for i, x := range p.X {
		b, err := rigid.NewBody(fmt.Sprintf("d%d", i), rigid.Disk{R: EightDigits(p.R[i])}, [2]float64{EightDigits(x[0]), EightDigits(x[1])}, 2600)
		if err != nil {
			return nil, err
		}
		b.Gravity = [2]float64{0, -9.81}
		bodies = append(bodies, b)
	}
	return bodies, nil
}
