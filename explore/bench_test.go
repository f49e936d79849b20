package explore

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// hexDeposit is rows of equal disks (radius r, m per even row, m-1 per odd
// one) stacked in the triangular packing on a floor between two walls: at
// rest, every disk above the first row on two below, the forces
// indeterminate at every grain.
func hexDeposit(tb testing.TB, m, rows int) *rigid.System {
	const r = 0.01
	w := 2 * r * float64(m)
	var bodies []*rigid.Body
	wall := func(name string, sw, sh, x, y float64) {
		shape, err := rigid.Rectangle(sw, sh)
		if err != nil {
			tb.Fatal(err)
		}
		b, err := rigid.NewBody(name, shape, [2]float64{x, y}, 0)
		if err != nil {
			tb.Fatal(err)
		}
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
			b, err := rigid.NewBody(fmt.Sprintf("d%d_%d", i, k), rigid.Disk{R: r}, [2]float64{x0 + 2*r*float64(k), r + math.Sqrt(3)*r*float64(i)}, 2600)
			if err != nil {
				tb.Fatal(err)
			}
			b.Gravity = [2]float64{0, -9.81}
			bodies = append(bodies, b)
		}
	}
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, r/2)
	if err != nil {
		tb.Fatal(err)
	}
	return sys
}

// BenchmarkExplore surveys triangular deposits of 900 and 10 000 disks
// in random order (no linear programming: the sizes dense programs cannot
// take): solutions per second, sweeps per solution, ns per contact and
// sweep.
//
//	go test -run XXX -bench Explore -benchtime 1x ./explore/
func BenchmarkExplore(b *testing.B) {
	for _, tc := range []struct{ m, rows, runs int }{{30, 30, 100}, {100, 100, 10}} {
		b.Run(fmt.Sprint(tc.m*tc.rows-tc.rows/2), func(b *testing.B) {
			for b.Loop() {
				s, err := New(hexDeposit(b, tc.m, tc.rows), 1e-3)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				sols, rejected, err := s.Run(RandomOrder, Options{Solutions: tc.runs, Seed: 1, Tol: 1e-8})
				if err != nil {
					b.Fatal(err)
				}
				el := time.Since(start).Seconds()
				sweeps := 0
				for _, sol := range sols {
					sweeps += sol.Sweeps
				}
				b.ReportMetric(float64(len(s.Units)), "contacts")
				b.ReportMetric(float64(tc.runs)/el, "solutions/s")
				b.ReportMetric(float64(sweeps)/float64(max(len(sols), 1)), "sweeps/solution")
				b.ReportMetric(1e9*el/float64(max(sweeps, 1))/float64(len(s.Units)), "ns/contact/sweep")
				b.ReportMetric(float64(rejected), "rejected")
			}
		})
	}
}
