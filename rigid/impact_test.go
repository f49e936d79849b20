package rigid_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// floor is a fixed ground whose top face is y = 0.
func floor(t *testing.T) *rigid.Body {
	t.Helper()
	shape, err := rigid.Rectangle(20, 1)
	require.NoError(t, err)
	b, err := rigid.NewBody("floor", shape, [2]float64{0, -0.5}, 0)
	require.NoError(t, err)
	b.Motion = contact.Fixed{}
	return b
}

// TestRocking tilts a slender block onto its left corner and lets it rock:
// each impact on the other corner keeps the angular momentum about it, so
// the angular velocity falls by Housner's r = 1 - 3/2 sin^2(alpha), alpha
// = atan(width/height). The shock law with dissipation index 1 gives it:
// the old corner lifts with no impulse (Moreau's remark on the rocking
// column, [JM91] section 6: the restitution equality does not hold at a
// contact whose impulse is zero).
func TestRocking(t *testing.T) {
	const w, hgt = 0.2, 0.8
	alpha := math.Atan(w / hgt)
	shape, err := rigid.Rectangle(w, hgt)
	require.NoError(t, err)
	block, err := rigid.NewBody("block", shape, [2]float64{}, 2000)
	require.NoError(t, err)
	th0 := alpha / 2                                                                                            // on its left corner, falling back
	block.Q = [3]float64{w/2*math.Cos(th0) - hgt/2*math.Sin(th0), w/2*math.Sin(th0) + hgt/2*math.Cos(th0), th0} // left corner at the origin
	block.Gravity = [2]float64{0, -g}
	sys, err := rigid.NewSystem([]*rigid.Body{floor(t), block}, []rigid.Rule{{Mu: 0.8, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	sim := run(t, sys, 1e-5, 0)
	var ratios []float64
	// omega a few steps before and after the block is flat (the other
	// corner hits within a step of it); gravity changes omega by 1e-4 of
	// itself over those steps.
	const around = 4
	var omega []float64
	hit := -1
	for k := 0; k < 400000 && len(ratios) < 3; k++ {
		angle := block.Q[2]
		_, err := sim.Step()
		require.NoError(t, err)
		omega = append(omega, block.V[2])
		if angle*block.Q[2] <= 0 {
			hit = k
		}
		if hit >= around && k == hit+around {
			ratios = append(ratios, omega[k]/omega[hit-around])
		}
	}
	t.Logf("omega ratios %v", ratios)
	require.Len(t, ratios, 3, "three impacts")
	r := 1 - 1.5*math.Pow(math.Sin(alpha), 2)
	for i, got := range ratios {
		require.InDelta(t, r, got, 0.002*r, "impact %d: omega after / before, Housner's r = %.4f", i+1, r)
	}
}

// TestNewtonsCradle sends a disk at v onto a line of four equal disks at
// rest, with the shock law of restitution 1 (dissipation index 0).
// Separated by small gaps the collisions come one after another, each a
// two-body exchange: the last disk leaves at v and the others stop. In
// contact, the collisions are one simultaneous multi-contact impact, where
// the restitution equality need not hold at every contact ([JM91] section
// 6): momentum is kept exactly and no energy is created, but the velocity
// spreads over the line instead of passing to the last disk alone.
func TestNewtonsCradle(t *testing.T) {
	const r, v = 0.05, 1.0
	for _, tc := range []struct {
		name string
		gap  float64
	}{{"apart", 1e-4}, {"touching", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			var disks []*rigid.Body
			for k := range 5 {
				d, err := rigid.NewBody(string(rune('a'+k)), rigid.Disk{R: r}, [2]float64{float64(k) * (2*r + tc.gap), 0}, 1000)
				require.NoError(t, err)
				disks = append(disks, d)
			}
			disks[0].Q[0] -= 1e-3
			disks[0].V[0] = v
			sys, err := rigid.NewSystem(disks, []rigid.Rule{{Law: contact.Shock, Restitution: 1}}, 0)
			require.NoError(t, err)
			m := disks[0].Mass
			run(t, sys, 1e-5, 400)
			var p, e float64
			for _, d := range disks {
				p += m * d.V[0]
				e += m * d.V[0] * d.V[0] / 2
			}
			require.InDelta(t, m*v, p, 1e-12*m*v, "momentum")
			require.LessOrEqual(t, e, m*v*v/2*(1+1e-12), "kinetic energy")
			t.Logf("velocities %.4f %.4f %.4f %.4f %.4f, energy %.4f of the initial", disks[0].V[0], disks[1].V[0], disks[2].V[0], disks[3].V[0], disks[4].V[0], e/(m*v*v/2))
			if tc.gap > 0 {
				require.InDelta(t, v, disks[4].V[0], 1e-9, "the last disk leaves at v")
				for _, d := range disks[:4] {
					require.InDelta(t, 0, d.V[0], 1e-9, "disk %s stops", d.Name)
				}
				return
			}
			require.Less(t, disks[4].V[0], 0.9*v, "a simultaneous impact does not pass v to the last disk")
		})
	}
}

// TestRestingBlock leaves a block on the floor for 10 000 steps with
// either law: it must not sink, creep, rotate or gain energy.
func TestRestingBlock(t *testing.T) {
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		t.Run(law.String(), func(t *testing.T) {
			shape, err := rigid.Rectangle(0.45, 0.4)
			require.NoError(t, err)
			block, err := rigid.NewBody("block", shape, [2]float64{0.3, 0.2}, 2500)
			require.NoError(t, err)
			block.Gravity = [2]float64{0, -g}
			sys, err := rigid.NewSystem([]*rigid.Body{floor(t), block}, []rigid.Rule{{Mu: 0.3, Law: law}}, 0)
			require.NoError(t, err)
			sim := run(t, sys, 1e-3, 10000)
			require.InDelta(t, 0.3, block.Q[0], 1e-12, "x")
			require.InDelta(t, 0.2, block.Q[1], 1e-9, "y: no sinking")
			require.InDelta(t, 0, block.Q[2], 1e-12, "rotation")
			require.Less(t, sim.TotalEnergy().Kinetic, 1e-18, "kinetic energy")
		})
	}
}

// TestObliqueImpact throws a spinning square at a disk and at another
// square, with friction, away from gravity and ground. Linear momentum is
// kept to round-off; the contact impulses of a unit are collinear, so
// that the angular momentum about the origin changes in a step by no more
// than the scheme's h/2 m v0 x v1 of a velocity jump (a few 1e-4 of it
// here; the step of the impact, resolved at the instant the bodies meet,
// moves them by (h/2 - tau) M^-1 P more, timestep's arrival). Energy
// only falls.
func TestObliqueImpact(t *testing.T) {
	for _, law := range []contact.Law{contact.Positional, contact.Shock} {
		for _, other := range []string{"disk", "square"} {
			t.Run(law.String()+" "+other, func(t *testing.T) {
				sq, err := rigid.Rectangle(0.1, 0.1)
				require.NoError(t, err)
				a, err := rigid.NewBody("a", sq, [2]float64{-0.2, 0.03}, 1000)
				require.NoError(t, err)
				a.V, a.Q[2] = [3]float64{2, -0.5, 3}, 0.3
				var shape rigid.Shape = rigid.Disk{R: 0.06}
				if other == "square" {
					shape = sq
				}
				b, err := rigid.NewBody("b", shape, [2]float64{0, 0}, 3000)
				require.NoError(t, err)
				sys, err := rigid.NewSystem([]*rigid.Body{a, b}, []rigid.Rule{{Mu: 0.4, Law: law}}, 0)
				require.NoError(t, err)
				bodies := []*rigid.Body{a, b}
				var p0 [2]float64
				var e0 float64
				for _, x := range bodies {
					p0[0], p0[1] = p0[0]+x.Mass*x.V[0], p0[1]+x.Mass*x.V[1]
					e0 += (x.Mass*(x.V[0]*x.V[0]+x.V[1]*x.V[1]) + x.Inertia*x.V[2]*x.V[2]) / 2
				}
				sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys})
				require.NoError(t, err)
				scale := a.Mass * 2 // kg m/s, and kg m^2/s for 1 m
				closed := 0
				momentum := func() (L float64) {
					for _, x := range bodies {
						L += x.Mass*(x.Q[0]*x.V[1]-x.Q[1]*x.V[0]) + x.Inertia*x.V[2]
					}
					return L
				}
				for k := 0; k < 1000; k++ {
					v0 := [2][3]float64{a.V, b.V}
					L0 := momentum()
					st, err := sim.Step()
					require.NoError(t, err)
					closed += st.Stick + st.Slide
					var p [2]float64
					var midpoint float64 // h/2 sum m |v0 x v1|
					for i, x := range bodies {
						midpoint += 1e-4 / 2 * x.Mass * math.Abs(v0[i][0]*x.V[1]-v0[i][1]*x.V[0])
						p[0], p[1] = p[0]+x.Mass*x.V[0], p[1]+x.Mass*x.V[1]
					}
					dL := momentum() - L0
					require.LessOrEqual(t, math.Abs(dL), 2*midpoint+1e-12*scale, "step %d: angular momentum", k+1)
					require.InDelta(t, p0[0], p[0], 1e-12*scale, "step %d: momentum", k+1)
					require.InDelta(t, p0[1], p[1], 1e-12*scale, "step %d: momentum", k+1)
				}
				var e float64
				for _, x := range bodies {
					e += (x.Mass*(x.V[0]*x.V[0]+x.V[1]*x.V[1]) + x.Inertia*x.V[2]*x.V[2]) / 2
				}
				require.Positive(t, closed, "the bodies met")
				require.InDelta(t, e, sim.TotalEnergy().Kinetic, 1e-12*e0, "the ledger's kinetic energy")
				require.Less(t, e, 0.99*e0, "the impact dissipates")
				require.LessOrEqual(t, sim.TotalEnergy().Contact, 0.0, "contact work")
			})
		}
	}
}

// TestOnObstacles puts rigid bodies on obstacles of the kind elastic
// bodies meet ([[obstacle]] polylines, made driven bodies by
// ObstacleBodies): a block resting across the vertex of a floor listed as
// two collinear segments (contacts from both, two at the same point) stays
// still for 10 000 steps; a disk rolls down a 30 degree slope onto a flat
// floor (a concave kink) at a = 2/3 g sin and rolls on, without entering
// the kink and without gaining energy.
func TestOnObstacles(t *testing.T) {
	t.Run("block across a vertex", func(t *testing.T) {
		floor, err := rigid.ObstacleBodies(&contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {0, 0}, {1, 0}}})
		require.NoError(t, err)
		shape, err := rigid.Rectangle(0.45, 0.4)
		require.NoError(t, err)
		block, err := rigid.NewBody("block", shape, [2]float64{0.1, 0.2}, 2500)
		require.NoError(t, err)
		block.Gravity = [2]float64{0, -g}
		sys, err := rigid.NewSystem(append(floor, block), []rigid.Rule{{Mu: 0.3}}, 0)
		require.NoError(t, err)
		run(t, sys, 1e-3, 10000)
		require.InDelta(t, 0.1, block.Q[0], 1e-12, "x")
		require.InDelta(t, 0.2, block.Q[1], 1e-9, "y: no sinking")
		require.InDelta(t, 0, block.Q[2], 1e-12, "rotation")
	})
	t.Run("block sliding across a vertex", func(t *testing.T) {
		// The quadrilaterals' side faces at the joint lie inside the
		// ground (Body.Surface): no catch, the block slows at mu g.
		floor, err := rigid.ObstacleBodies(&contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {0, 0}, {1, 0}}})
		require.NoError(t, err)
		shape, err := rigid.Rectangle(0.2, 0.1)
		require.NoError(t, err)
		block, err := rigid.NewBody("block", shape, [2]float64{-0.5, 0.05}, 2500)
		require.NoError(t, err)
		block.Gravity, block.V[0] = [2]float64{0, -g}, 2
		sys, err := rigid.NewSystem(append(floor, block), []rigid.Rule{{Mu: 0.2}}, 0)
		require.NoError(t, err)
		run(t, sys, 1e-3, 600)
		require.InDelta(t, 2-0.2*g*0.6, block.V[0], 1e-9)
		require.Greater(t, block.Q[0], 0.3, "past the vertex")
		require.InDelta(t, 0.05, block.Q[1], 1e-9)
	})
	t.Run("disk through a valley", func(t *testing.T) {
		const alpha, r = 30 * math.Pi / 180, 0.05
		s, c := math.Sincos(alpha)
		slope := &contact.Obstacle{Name: "slope", Points: [][2]float64{{-1 * c, 1 * s}, {0, 0}, {1, 0}}}
		ground, err := rigid.ObstacleBodies(slope)
		require.NoError(t, err)
		start := [2]float64{-0.5*c + r*s, 0.5*s + r*c} // on the slope, 0.5 m up
		disk, err := rigid.NewBody("disk", rigid.Disk{R: r}, start, 1000)
		require.NoError(t, err)
		disk.Gravity = [2]float64{0, -g}
		sys, err := rigid.NewSystem(append(ground, disk), []rigid.Rule{{Mu: 0.5}}, 0)
		require.NoError(t, err)
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-4, Rigid: sys})
		require.NoError(t, err)
		e0 := sim.TotalEnergy().Balance()
		tRoll := math.Sqrt(2 * 0.5 / (2 * g * s / 3)) // time to roll 0.5 m
		for k := 1; k <= 8000; k++ {
			_, err := sim.Step()
			require.NoError(t, err)
			require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9, "step %d", k)
			x, y := disk.Q[0], disk.Q[1]
			depth := math.Inf(-1)
			if x >= 0 { // above the floor
				depth = r - y
			}
			if -x*c+y*s >= 0 { // above the slope
				depth = math.Max(depth, r-(x*s+y*c))
			}
			require.Less(t, depth, 1e-3*r, "step %d: into the ground", k)
			if k == int(0.9*tRoll/1e-4) {
				v := math.Hypot(disk.V[0], disk.V[1])
				require.InEpsilon(t, 2*g*s/3*0.9*tRoll, v, 0.01, "rolling down the slope")
			}
		}
		require.Greater(t, disk.Q[0], 0.1, "rolled on along the floor")
		require.InDelta(t, 0, disk.V[1], 1e-6, "on the floor")
	})
}

// TestPeriodicCell slides a block on the flat base of a periodic cell
// (the base exactly one period long, so that it and its images tile the
// line): the block crosses the cell's ends several times, re-entering
// with its velocity, its contacts kept (the base's weight is carried by
// them every step) and decelerating at mu g without a jump at the
// boundary, at the height it started.
func TestPeriodicCell(t *testing.T) {
	const l, mu, v0 = 1.0, 0.1, 3.0
	base, err := rigid.Rectangle(l, 0.2)
	require.NoError(t, err)
	ground, err := rigid.NewBody("base", base, [2]float64{l / 2, -0.1}, 0)
	require.NoError(t, err)
	ground.Motion, ground.Surface = contact.Fixed{}, []int{2} // its top face
	sq, err := rigid.Rectangle(0.2, 0.1)
	require.NoError(t, err)
	block, err := rigid.NewBody("block", sq, [2]float64{0.7, 0.05}, 1000)
	require.NoError(t, err)
	block.Gravity, block.V[0] = [2]float64{0, -g}, v0
	sys, err := rigid.NewSystem([]*rigid.Body{ground, block}, []rigid.Rule{{Mu: mu}}, 0)
	require.NoError(t, err)
	require.ErrorContains(t, sys.SetPeriod(0, 0.3), "expected a finite cell at least as wide as the largest body (1 m across)")
	require.NoError(t, sys.SetPeriod(0, l))
	require.Equal(t, [2]float64{0, l}, sys.Period())
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys})
	require.NoError(t, err)
	crossed := 0
	for k := 1; k <= 2500; k++ {
		x := block.Q[0]
		_, err := sim.Step()
		require.NoError(t, err)
		if block.Q[0] < x {
			crossed++
		}
		tk := float64(k) * 1e-3
		require.InDelta(t, math.Max(0, v0-mu*g*tk), block.V[0], 1e-9, "step %d: velocity", k)
		require.InDelta(t, 0.05, block.Q[1], 1e-9, "step %d: height", k)
		require.True(t, block.Q[0] >= 0 && block.Q[0] < l, "step %d: x = %g in the cell", k, block.Q[0])
		var up float64
		for _, c := range sim.Contacts() {
			up += c.Impulse[0] * c.N[1] / 1e-3
		}
		require.InDelta(t, block.Mass*g, math.Abs(up), 1e-6*block.Mass*g, "step %d: the weight carried", k)
	}
	require.GreaterOrEqual(t, crossed, 4, "crossings of the cell's end")
}
