package rigid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
	"github.com/stretchr/testify/require"
)

// pile is a geometric deposit of disks in a box [0, width] x [0, inf):
// each disk, dropped at a random abscissa, falls until it meets the floor
// or a disk, then rolls down over the disks it meets until it rests on
// the floor, on two disks one each side of it, or on a disk and a wall
// (Visscher and Bolsterli's deposit, as LMGC90's depositInBox2D builds
// one). Its disks touch: every contact is a gap of 0 to round-off.
type pile struct {
	width, cell float64
	x           [][2]float64
	r           []float64
	cols        [][]int // disks by column of cells, for the falls
	grid        map[[2]int][]int
}

func newPile(width, rmax float64) *pile {
	p := &pile{width: width, cell: 2 * rmax, grid: map[[2]int][]int{}}
	p.cols = make([][]int, int(width/p.cell)+1)
	return p
}

func (p *pile) cellOf(x [2]float64) [2]int {
	return [2]int{int(math.Floor(x[0] / p.cell)), int(math.Floor(x[1] / p.cell))}
}

// near lists the disks whose centres may lie within d of x.
func (p *pile) near(x [2]float64, d float64) []int {
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
func (p *pile) drop(x, top, r float64, except int) ([2]float64, int) {
	y, on := r, -1
	c0, c1 := int((x-r-p.cell)/p.cell), int((x+r+p.cell)/p.cell)
	for c := max(c0, 0); c <= min(c1, len(p.cols)-1); c++ {
		for _, j := range p.cols[c] {
			dx, R := x-p.x[j][0], r+p.r[j]
			if j == except || math.Abs(dx) >= R {
				continue
			}
			if h := p.x[j][1] + math.Sqrt(R*R-dx*dx); h > y && h <= top+1e-12 {
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
func (p *pile) roll(x [2]float64, r float64, s int, dir float64) ([2]float64, int) {
	c, R := p.x[s], r+p.r[s]
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
		d := [2]float64{p.x[k][0] - c[0], p.x[k][1] - c[1]}
		D, Rk := math.Hypot(d[0], d[1]), r+p.r[k]
		cs := (R*R + D*D - Rk*Rk) / (2 * R * D)
		if math.Abs(cs) > 1 {
			continue
		}
		a, b := math.Atan2(d[1], d[0]), math.Acos(cs)
		consider(a+b, k, p.x[k])
		consider(a-b, k, p.x[k])
	}
	for _, wall := range []float64{r, p.width - r} {
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
func (p *pile) add(x0, r float64, rng *rand.Rand) {
	x, s := p.drop(x0, math.Inf(1), r, -1)
	for range 1000 {
		if s < 0 {
			break // on the floor
		}
		dir := math.Copysign(1, x[0]-p.x[s][0])
		if x[0] == p.x[s][0] {
			dir = float64(2*rng.IntN(2) - 1)
		}
		next, k := p.roll(x, r, s, dir)
		x = next
		switch {
		case k == -2:
			s = -1 // on a wall or the floor
		case k >= 0 && (x[0]-p.x[s][0])*(x[0]-p.x[k][0]) <= 0:
			s = -1 // one support each side
		case k >= 0:
			s = k // both on one side: roll on over the new one
		default: // past s's equator: fall again
			x, s = p.drop(x[0], x[1], r, s)
		}
	}
	p.x, p.r = append(p.x, x), append(p.r, r)
	i := len(p.x) - 1
	c := p.cellOf(x)
	p.grid[c] = append(p.grid[c], i)
	p.cols[min(max(c[0], 0), len(p.cols)-1)] = append(p.cols[min(max(c[0], 0), len(p.cols)-1)], i)
}

// eightDigits rounds v to 8 significant digits, as a deposit read from a
// file of %14.7E values is: touching disks then overlap by up to 1e-8 m.
func eightDigits(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 7, 64), 64)
	return f
}

// deposit is n disks of radii 5 to 7.5 mm deposited in a box whose width
// makes the pile about as high as wide (LMGC90's deposit case: lx =
// sqrt(sum pi r^2 / 0.8), to the centimetre).
func deposit(n int, seed uint64) *pile {
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
		p.add(r+(width-2*r)*rng.Float64(), r, rng)
	}
	return p
}

// depositBox is n disks of radii 5 to 7.5 mm deposited in a box whose width
// makes the pile about as high (LMGC90's deposit case: lx = sqrt(sum pi
// r^2 / 0.8) to the centimetre), their positions to 8 digits, at rest
// under gravity on a fixed floor between two fixed walls, mu 0.3.
func depositBox(tb testing.TB, n int, seed uint64, law contact.Law) *rigid.System {
	const rmax = 0.0075
	p := deposit(n, seed)
	width := p.width
	height := slices.MaxFunc(p.x, func(a, b [2]float64) int { return int(math.Copysign(1, a[1]-b[1])) })[1] + 2*rmax
	var bodies []*rigid.Body
	wall := func(name string, w, h, x, y float64) {
		shape, err := rigid.Rectangle(w, h)
		require.NoError(tb, err)
		b, err := rigid.NewBody(name, shape, [2]float64{x, y}, 0)
		require.NoError(tb, err)
		b.Motion = contact.Fixed{}
		bodies = append(bodies, b)
	}
	wall("floor", width+4*rmax, 2*rmax, width/2, -rmax)
	wall("left", 2*rmax, height, -rmax, height/2)
	wall("right", 2*rmax, height, width+rmax, height/2)
	for i, x := range p.x {
		b, err := rigid.NewBody(fmt.Sprintf("d%d", i), rigid.Disk{R: eightDigits(p.r[i])}, [2]float64{eightDigits(x[0]), eightDigits(x[1])}, 2600)
		require.NoError(tb, err)
		b.Gravity = [2]float64{0, -9.81}
		bodies = append(bodies, b)
	}
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: law}}, 0.1*0.005)
	require.NoError(tb, err)
	return sys
}

// TestDeposit: the deposit's disks do not overlap, each can rest under
// gravity on its contacts (the floor, or normals that push up and push
// both ways along x: two disks, a disk and a wall, a wedge under an
// overhanging disk), and the pile is about as high as the box is wide.
func TestDeposit(t *testing.T) {
	p := deposit(1000, 1)
	var top float64
	for i, x := range p.x {
		top = max(top, x[1]+p.r[i])
		if x[1]-p.r[i] < 1e-9 {
			require.Greater(t, x[1]-p.r[i], -1e-9, "disk %d below the floor", i)
			continue
		}
		var normals [][2]float64 // pushing on disk i
		for j, y := range p.x {
			d := math.Hypot(x[0]-y[0], x[1]-y[1])
			if g := d - p.r[i] - p.r[j]; j != i && g < 1e-9 {
				require.Greater(t, g, -1e-9, "disks %d and %d overlap", i, j)
				normals = append(normals, [2]float64{(x[0] - y[0]) / d, (x[1] - y[1]) / d})
			}
		}
		if x[0]-p.r[i] < 1e-9 {
			normals = append(normals, [2]float64{1, 0})
		}
		if p.width-x[0]-p.r[i] < 1e-9 {
			normals = append(normals, [2]float64{-1, 0})
		}
		lo, hi, up := 1.0, -1.0, -1.0
		for _, n := range normals {
			lo, hi, up = min(lo, n[0]), max(hi, n[0]), max(up, n[1])
		}
		require.True(t, lo <= 0 && hi >= 0 && up > 0, "disk %d at %v cannot rest on %v", i, x, normals)
	}
	require.InDelta(t, p.width, top, 0.3*p.width)
}

// BenchmarkDeposit steps deposits of 1 000 and 10 000 disks at rest
// (depositBox: LMGC90's deposit case, h 1e-4 s) under either law at the
// velocity tolerance 1e-4: time, contacts and sweeps per step, steps at
// the sweep cap, and the largest speed at the end (at rest: of the order
// of g h). DEPOSIT_STEPS sets the steps (default 100).
//
//	go test -run '^$' -bench Deposit -benchtime 1x ./rigid/
func BenchmarkDeposit(b *testing.B) {
	steps := 100
	if s, err := strconv.Atoi(os.Getenv("DEPOSIT_STEPS")); err == nil {
		steps = s
	}
	for _, n := range []int{1000, 10000} {
		for _, law := range []contact.Law{contact.Shock, contact.Positional} {
			b.Run(fmt.Sprintf("%d/%v", n, lawName(law)), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					sys := depositBox(b, n, 1, law)
					sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys,
						Solver: signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange, MaxSweeps: 10000}})
					require.NoError(b, err)
					b.StartTimer()
					var units, sweeps, capped int
					start := time.Now()
					for range steps {
						st, err := sim.Step()
						require.NoError(b, err)
						units += st.Units
						sweeps += st.Sweeps
						if st.Sweeps >= 10000 {
							capped++
						}
					}
					b.ReportMetric(1e3*time.Since(start).Seconds()/float64(steps), "ms/step")
					b.ReportMetric(float64(units)/float64(steps), "contacts/step")
					b.ReportMetric(float64(sweeps)/float64(steps), "sweeps/step")
					b.ReportMetric(float64(capped), "capped")
					var vmax float64
					for _, body := range sys.Bodies {
						vmax = max(vmax, math.Hypot(body.V[0], body.V[1]))
					}
					b.ReportMetric(vmax, "vmax_m/s")
				}
			})
		}
	}
}

func lawName(l contact.Law) string {
	if l == contact.Shock {
		return "shock"
	}
	return "positional"
}

// hexPile is rows of equal disks of radius 5 mm (m per even row, m-1 per
// odd one) in the triangular packing on a fixed floor between fixed walls,
// their positions to 8 digits as read from a file: at rest from the
// start, its contacts at gaps of round-off, mu 0.3.
func hexPile(tb testing.TB, m, rows int, law contact.Law) *rigid.System {
	const r = 0.005
	w := 2 * r * float64(m)
	var bodies []*rigid.Body
	wall := func(name string, sw, sh, x, y float64) {
		shape, err := rigid.Rectangle(sw, sh)
		require.NoError(tb, err)
		b, err := rigid.NewBody(name, shape, [2]float64{x, y}, 0)
		require.NoError(tb, err)
		b.Motion = contact.Fixed{}
		bodies = append(bodies, b)
	}
	h := 2 * r * float64(rows)
	wall("floor", w+0.2, 0.1, w/2, -0.05)
	wall("left", 0.1, h, -0.05, h/2)
	wall("right", 0.1, h, w+0.05, h/2)
	for i := range rows {
		n, x0 := m, r
		if i%2 == 1 {
			n, x0 = m-1, 2*r
		}
		for k := range n {
			b, err := rigid.NewBody(fmt.Sprintf("d%d_%d", i, k), rigid.Disk{R: r}, [2]float64{eightDigits(x0 + 2*r*float64(k)), eightDigits(r + math.Sqrt(3)*r*float64(i))}, 2600)
			require.NoError(tb, err)
			b.Gravity = [2]float64{0, -9.81}
			bodies = append(bodies, b)
		}
	}
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: law}}, r/10)
	require.NoError(tb, err)
	return sys
}

// TestPileAtRest: 585 disks in 30 rows at rest cost a few sweeps a step
// under the positional law (24 without its slop: each round-off overlap
// pushed out and each round-off gap let close, a new problem each step),
// stay at rest, hold their round-off overlaps within the slop (1e-5 of
// the radius) with no push-out, and no contact creates energy.
func TestPileAtRest(t *testing.T) {
	const r, h, steps, tol = 0.005, 1e-4, 300, 1e-8
	sys := hexPile(t, 20, 30, contact.Positional)
	var weight float64 // total, N/m
	for _, b := range sys.Bodies {
		weight += b.Mass * 9.81
	}
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Rigid: sys,
		Solver: signorini.Options{Tol: tol, Measure: signorini.VelocityChange, MaxSweeps: 10000}})
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	var sweeps int
	for k := 1; k <= steps; k++ {
		st, err := sim.Step()
		require.NoError(t, err)
		if k > steps/3 {
			sweeps += st.Sweeps
		}
		require.Greater(t, st.MinGap, -1e-5*r, "step %d: an overlap beyond the slop", k)
		require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-12, "step %d: energy created", k)
		// A touching unit's law does no work (U_N,theta = 0 when it
		// pushes): what NLGS leaves short of it is of the order of its
		// tolerance times the work of gravity over a step, and dissipates
		// over the run.
		require.LessOrEqual(t, sim.NormalWork, 100*tol*weight*9.81*h*h, "step %d: the law's work", k)
	}
	require.LessOrEqual(t, float64(sweeps)/(steps-steps/3), 5.0, "sweeps a step at rest")
	require.Zero(t, sim.PushOutWork)
	require.Negative(t, sim.NormalWork, "the law's work over the run")
	for _, b := range sys.Bodies {
		require.Less(t, math.Hypot(b.V[0], b.V[1]), 0.1*9.81*h, "%s moves", b.Name)
	}
}
