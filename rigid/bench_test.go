package rigid_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// diskBox is n x n disks of radii drawn in [r, 2r] on a lattice in a box
// (a fixed floor and two fixed walls), under gravity, friction 0.3, shock
// law.
func diskBox(n int, r float64) (*rigid.System, error) {
	rng := rand.New(rand.NewPCG(3, 4))
	pitch := 4.2 * r
	width := float64(n) * pitch
	var bodies []*rigid.Body
	wall := func(name string, w, h, x, y float64) error {
		shape, err := rigid.Rectangle(w, h)
		if err != nil {
			return err
		}
		b, err := rigid.NewBody(name, shape, [2]float64{x, y}, 0)
		if err != nil {
			return err
		}
		b.Motion = contact.Fixed{}
		bodies = append(bodies, b)
		return nil
	}
	height := 2 * float64(n) * pitch
	if err := wall("floor", width+20*r, 10*r, width/2, -5*r); err != nil {
		return nil, err
	}
	if err := wall("left", 10*r, height, -5*r, height/2); err != nil {
		return nil, err
	}
	if err := wall("right", 10*r, height, width+5*r, height/2); err != nil {
		return nil, err
	}
	for i := range n {
		for j := range n {
			x := [2]float64{(float64(j) + 0.5) * pitch, (float64(i) + 0.5) * pitch}
			b, err := rigid.NewBody("d", rigid.Disk{R: r * (1 + rng.Float64())}, x, 2600)
			if err != nil {
				return nil, err
			}
			b.Name = fmt.Sprintf("d%d", i*n+j)
			b.Gravity = [2]float64{0, -9.81}
			b.V[0] = 0.1 * (rng.Float64() - 0.5)
			bodies = append(bodies, b)
		}
	}
	return rigid.NewSystem(bodies, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, r/2)
}

// BenchmarkDiskBox settles 900 and 10 000 disks (radii 1 to 2 cm) in a
// box for 1000 steps of 1 ms: time per step, contacts and sweeps per step,
// and the heap per contact at the end (the storage is linear in the number
// of contacts). Run it with
//
//	go test -run - -bench DiskBox -benchtime 1x ./rigid
func BenchmarkDiskBox(b *testing.B) {
	for _, side := range []int{30, 100} {
		b.Run(fmt.Sprint(side*side), func(b *testing.B) { benchDiskBox(b, side) })
	}
}

func benchDiskBox(b *testing.B, side int) {
	const steps = 1000
	for b.Loop() {
		sys, err := diskBox(side, 0.01)
		if err != nil {
			b.Fatal(err)
		}
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys,
			Solver: signorini.Options{Tol: 1e-4, MaxSweeps: 1000}})
		if err != nil {
			b.Fatal(err)
		}
		var units, sweeps int
		start := time.Now()
		for range steps {
			st, err := sim.Step()
			if err != nil {
				b.Fatal(err)
			}
			units += st.Units
			sweeps += st.Sweeps
		}
		elapsed := time.Since(start)
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		last := len(sim.Contacts())
		b.ReportMetric(1e3*elapsed.Seconds()/steps, "ms/step")
		b.ReportMetric(float64(units)/steps, "contacts/step")
		b.ReportMetric(float64(sweeps)/steps, "sweeps/step")
		b.ReportMetric(float64(last), "contacts_at_end")
		b.ReportMetric(float64(ms.HeapAlloc)/float64(max(last, 1)), "heap_B/contact")
		b.ReportMetric(float64(sim.Unconverged), "unconverged")
	}
}

// BenchmarkPillar steps the pillar example of [JM91] section 9 for 1 s.
func BenchmarkPillar(b *testing.B) {
	data, err := examples.Scene("pillar")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sc, err := scene.Decode(strings.NewReader(string(data)), "pillar/scene.toml")
		if err != nil {
			b.Fatal(err)
		}
		m, err := sc.Model(scene.Variant{})
		if err != nil {
			b.Fatal(err)
		}
		sim, err := m.Simulation()
		if err != nil {
			b.Fatal(err)
		}
		var sweeps int
		start := time.Now()
		for range 1000 {
			st, err := sim.Step()
			if err != nil {
				b.Fatal(err)
			}
			sweeps += st.Sweeps
		}
		b.ReportMetric(time.Since(start).Seconds(), "ms/step") // 1000 steps: s in total is ms per step
		b.ReportMetric(float64(sweeps)/1000, "sweeps/step")
	}
}
