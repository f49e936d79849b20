package rigid_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
	"github.com/stretchr/testify/require"
)

// depositBox is piles.Deposit's n disks read to 8 digits in its box, at
// rest under gravity on a fixed floor between two fixed walls, mu 0.3.
func depositBox(tb testing.TB, n int, seed uint64, law contact.Law) *rigid.System {
	bodies, err := piles.DepositBox(n, seed)
	require.NoError(tb, err)
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: law}}, 0.1*0.005)
	require.NoError(tb, err)
	return sys
}

// hexPile is piles.Hex's rows of disks of radius 5 mm, their positions to
// 8 digits as read from a file: at rest from the start, its contacts at
// gaps of round-off, mu 0.3.
func hexPile(tb testing.TB, m, rows int, law contact.Law) *rigid.System {
	const r = 0.005
	bodies, err := piles.Hex(m, rows, r, piles.EightDigits)
	require.NoError(tb, err)
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: law}}, r/10)
	require.NoError(tb, err)
	return sys
}

// BenchmarkDeposit steps deposits of 1 000 and 10 000 disks at rest
// (depositBox: LMGC90's deposit case, h 1e-4 s) under either law at the
// velocity tolerance 1e-4: time, contacts and sweeps per step, steps at
// the sweep cap, and the largest speed at the end (at rest: of the order
// of g h). DEPOSIT_STEPS sets the steps (default 100), DEPOSIT_ORDER the
// sweep's order (natural by default; coloured shares NLGS between the
// cores).
//
//	go test -run '^$' -bench Deposit -benchtime 1x ./rigid/
func BenchmarkDeposit(b *testing.B) {
	steps := 100
	if env := os.Getenv("DEPOSIT_STEPS"); env != "" {
		s, err := strconv.Atoi(env)
		if err != nil || s < 1 {
			b.Fatalf("DEPOSIT_STEPS=%q: expected a whole number of steps >= 1", env)
		}
		steps = s
	}
	order, err := signorini.ParseOrder(os.Getenv("DEPOSIT_ORDER"))
	require.NoError(b, err)
	for _, n := range []int{1000, 10000} {
		for _, law := range []contact.Law{contact.Shock, contact.Positional} {
			b.Run(fmt.Sprintf("%d/%v", n, lawName(law)), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					sys := depositBox(b, n, 1, law)
					sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys,
						Solver: signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange, MaxSweeps: 10000, Order: order}})
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

// BenchmarkColouredNLGS solves the contact problem of the fifth step of
// the 10 000-disk deposit (20 658 contacts, positional law) for 300 sweeps
// in natural order on one core and in coloured order on one and two, per
// contact and sweep: the second core's speed-up of the coloured sweep (the
// same iterates on either); then again with another program busy on a core
// (hog): two workers must not be slower than one.
//
//	go test -run '^$' -bench ColouredNLGS -benchtime 3x ./rigid/
func BenchmarkColouredNLGS(b *testing.B) {
	sys := depositBox(b, 10000, 1, contact.Positional)
	var prob *signorini.Problem
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys,
		Solver: signorini.Options{Tol: 1e-4, Measure: signorini.VelocityChange, MaxSweeps: 10000},
		OnProblem: func(step int, p *signorini.Problem) error {
			if step == 5 {
				q := *p
				q.Q = slices.Clone(p.Q)
				prob = &q
			}
			return nil
		}})
	require.NoError(b, err)
	for range 5 {
		_, err := sim.Step()
		require.NoError(b, err)
	}
	n := prob.W.Contacts()
	for _, c := range []struct {
		order signorini.Order
		cores int
		hog   bool
	}{{signorini.Natural, 1, false}, {signorini.Coloured, 1, false}, {signorini.Coloured, 2, false},
		{signorini.Natural, 1, true}, {signorini.Coloured, 1, true}, {signorini.Coloured, 2, true}} {
		name := map[signorini.Order]string{signorini.Natural: "natural", signorini.Coloured: "coloured"}[c.order]
		if c.hog {
			name += "/hog"
		}
		b.Run(fmt.Sprintf("%s/cores=%d", name, c.cores), func(b *testing.B) {
			if c.hog {
				defer cpuHog(b)()
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.cores))
			for b.Loop() {
				// A tolerance no sweep reaches: 300 sweeps.
				_, err := signorini.NLGS(prob, signorini.Options{Tol: 1e-300, MaxSweeps: 300, Order: c.order})
				require.ErrorIs(b, err, signorini.ErrNotConverged)
			}
			b.ReportMetric(1e9*b.Elapsed().Seconds()/float64(b.N)/300/float64(n), "ns/contact/sweep")
		})
	}
}

// cpuHog keeps a core busy in another process, as another user's program
// on a shared node, until the function it returns is called.
func cpuHog(tb testing.TB) (stop func()) {
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	require.NoError(tb, cmd.Start())
	return func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

func lawName(l contact.Law) string {
	if l == contact.Shock {
		return "shock"
	}
	return "positional"
}

// TestPileAtRest: 585 disks in 30 rows at rest, their contacts at gaps
// of round-off, cost a few sweeps a step, stay at rest, hold their
// round-off overlaps (within the positional law's slop, 1e-5 of the
// radius) with no push-out, and no contact creates energy, under either
// law. The positional law took 24 sweeps a step without its slop (each
// round-off overlap pushed out and each round-off gap let close, a new
// problem each step); the shock law, when a unit took part only where its
// gap closed under the free velocity, let the pile fall onto the floor
// layer by layer (its disks fall together: no relative free velocity).
func TestPileAtRest(t *testing.T) {
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		t.Run(lawName(law), func(t *testing.T) { pileAtRest(t, law) })
	}
}

func pileAtRest(t *testing.T, law contact.Law) {
	const r, h, steps, tol = 0.005, 1e-4, 300, 1e-8
	sys := hexPile(t, 20, 30, law)
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
	t.Logf("sweeps a step at rest: %.2f", float64(sweeps)/(steps-steps/3))
	require.LessOrEqual(t, float64(sweeps)/(steps-steps/3), 5.0, "sweeps a step at rest")
	require.Zero(t, sim.PushOutWork)
	require.Negative(t, sim.NormalWork, "the law's work over the run")
	for _, b := range sys.Bodies {
		require.Less(t, math.Hypot(b.V[0], b.V[1]), 0.1*9.81*h, "%s moves", b.Name)
	}
}

// TestColouredPileOnAnyCores: a pile stepped with NLGS in coloured order
// ends in the same state to the bit on one core, on two, and on two with
// another program busy on a core (its colours span several chunks, so two
// cores share them), and at rest.
func TestColouredPileOnAnyCores(t *testing.T) {
	var ends [][][3]float64
	for _, c := range []struct {
		cores int
		hog   bool // another program busy on a core: the team's members sleep and wake
	}{{1, false}, {2, false}, {2, true}} {
		func() {
			if c.hog {
				defer cpuHog(t)()
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.cores))
			sys := hexPile(t, 20, 30, contact.Positional)
			sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys,
				Solver: signorini.Options{Tol: 1e-6, Measure: signorini.VelocityChange, Order: signorini.Coloured}})
			require.NoError(t, err)
			for range 30 {
				_, err := sim.Step()
				require.NoError(t, err)
			}
			var end [][3]float64
			for _, b := range sys.Bodies {
				end = append(end, b.Q, b.V)
				require.Less(t, math.Hypot(b.V[0], b.V[1]), 0.1*9.81*1e-4, "%s moves", b.Name)
			}
			ends = append(ends, end)
		}()
	}
	require.Equal(t, ends[0], ends[1])
	require.Equal(t, ends[0], ends[2])
}
