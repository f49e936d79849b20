package rigid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
)

func TestMassProperties(t *testing.T) {
	rect, err := Rectangle(0.45, 0.4)
	require.NoError(t, err)
	tri, c, err := NewPolygon([][2]float64{{0, 0}, {3, 0}, {0, 3}})
	require.NoError(t, err)
	for _, tc := range []struct {
		name         string
		shape        Shape
		area, j, rad float64
	}{
		{"rectangle", rect, 0.18, 0.18 * (0.45*0.45 + 0.4*0.4) / 12, math.Hypot(0.225, 0.2)},
		// right isosceles triangle of legs a: J_c = a^4/18 about its centroid
		{"triangle", tri, 4.5, 81.0 / 18, math.Hypot(2, 1)},
		{"disk", Disk{R: 0.1}, math.Pi * 0.01, math.Pi * 1e-4 / 2, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.InEpsilon(t, tc.area, tc.shape.Area(), 1e-12)
			require.InEpsilon(t, tc.j, tc.shape.PolarMoment(), 1e-12)
			require.InEpsilon(t, tc.rad, tc.shape.Radius(), 1e-12)
		})
	}
	require.InDelta(t, 1, c[0], 1e-15, "centroid")
	require.InDelta(t, 1, c[1], 1e-15, "centroid")
	b, err := NewBody("b", rect, [2]float64{}, 2500)
	require.NoError(t, err)
	require.InEpsilon(t, 2500*0.18, b.Mass, 1e-12)
	require.InEpsilon(t, 2500*rect.PolarMoment(), b.Inertia, 1e-12)
}

func TestShapeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    [][2]float64
		want string
	}{
		{"two vertices", [][2]float64{{0, 0}, {1, 0}}, "at least 3"},
		{"clockwise", [][2]float64{{0, 0}, {0, 1}, {1, 0}}, "counter-clockwise"},
		{"not convex", [][2]float64{{0, 0}, {2, 0}, {1, 0.5}, {2, 2}, {0, 2}}, "not convex at vertex 3"},
		{"aligned", [][2]float64{{0, 0}, {1, 0}, {2, 0}, {0, 1}}, "not convex at vertex 2"},
		{"coincident", [][2]float64{{0, 0}, {1, 0}, {1, 0}, {0, 1}}, "vertices 2 and 3 coincide"},
		{"NaN", [][2]float64{{0, 0}, {1, math.NaN()}, {0, 1}}, "vertex 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewPolygon(tc.v)
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := Rectangle(0, 1)
	require.ErrorContains(t, err, "positive")
	_, err = NewBody("b", Disk{R: 1}, [2]float64{}, -1)
	require.ErrorContains(t, err, `rigid body "b": density -1`)
	free, err := NewBody("free", Disk{R: 1}, [2]float64{}, 0)
	require.NoError(t, err)
	_, err = NewSystem([]*Body{free}, nil, 0)
	require.ErrorContains(t, err, `rigid body "free": mass 0 kg`)
	d1, _ := NewBody("d", Disk{R: 1}, [2]float64{}, 1)
	d2, _ := NewBody("d", Disk{R: 1}, [2]float64{3, 0}, 1)
	_, err = NewSystem([]*Body{d1, d2}, nil, 0)
	require.ErrorContains(t, err, `"d": the name is used twice`)
	_, err = NewSystem([]*Body{d1}, []Rule{{Mu: -0.3}}, 0)
	require.ErrorContains(t, err, "friction coefficient -0.3")
	_, err = NewSystem([]*Body{d1}, []Rule{{Mu: 1e300}}, 0)
	require.ErrorContains(t, err, "friction coefficient 1e+300: expected a value in [0, 1000]")
	_, err = NewSystem([]*Body{d1}, []Rule{{Restitution: 2}}, 0)
	require.ErrorContains(t, err, "restitution 2")
}

// place puts a polygon's vertices at offset x, turned by phi.
func place(p *Polygon, x [2]float64, phi float64) [][2]float64 {
	b := &Body{Shape: p, Q: [3]float64{x[0], x[1], phi}}
	return b.Vertices(nil)
}

func TestPolygonContacts(t *testing.T) {
	sq, err := Rectangle(1, 1)
	require.NoError(t, err)
	type point struct {
		x   [2]float64
		gap float64
	}
	for _, tc := range []struct {
		name string
		b    [][2]float64 // sq at the origin is a
		n    [2]float64   // normal from a towards b
		want []point
	}{
		// Identical squares stacked: held at the two ends of the segment.
		{"stacked", place(sq, [2]float64{0, 1}, 0), [2]float64{0, 1}, []point{{[2]float64{-0.5, 0.5}, 0}, {[2]float64{0.5, 0.5}, 0}}},
		// Staggered by half: the ends of the overlap, a corner of each.
		{"staggered", place(sq, [2]float64{0.5, 1.001}, 0), [2]float64{0, 1}, []point{{[2]float64{0, 0.501}, 0.001}, {[2]float64{0.5, 0.501}, 0.001}}},
		// A diamond's corner on the top face, 1 mm in.
		{"corner on face", place(sq, [2]float64{0.2, 0.5 + math.Sqrt2/2 - 0.001}, math.Pi/4), [2]float64{0, 1}, []point{{[2]float64{0.2, 0.499}, -0.001}}},
		// Corner meeting corner, diagonally, 1 mm apart along x.
		{"corner on corner", place(sq, [2]float64{1.001, 1}, 0), [2]float64{1, 0}, []point{{[2]float64{0.501, 0.5}, 0.001}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := polyPoly(nil, 0, 1, place(sq, [2]float64{}, 0), tc.b, 0.01, 1e-5, nil, nil)
			require.Len(t, got, len(tc.want))
			for k, w := range tc.want {
				// b's point and the normal towards b, whichever is the candidate.
				n, x := got[k].n, got[k].p
				if got[k].a == 0 { // candidate a: flip to compare with b's view
					n, x = [2]float64{-n[0], -n[1]}, got[k].pb
				}
				require.InDelta(t, tc.n[0], n[0], 1e-12, "point %d: normal", k)
				require.InDelta(t, tc.n[1], n[1], 1e-12, "point %d: normal", k)
				require.InDelta(t, w.gap, got[k].gap, 1e-12, "point %d: gap", k)
				require.InDelta(t, w.x[0], x[0], 1e-9, "point %d: x", k)
				require.InDelta(t, w.x[1], x[1], 1e-9, "point %d: y", k)
			}
		})
	}
}

func TestDiskContacts(t *testing.T) {
	sq, err := Rectangle(1, 1)
	require.NoError(t, err)
	A := place(sq, [2]float64{}, 0)
	s2 := math.Sqrt2 / 2
	for _, tc := range []struct {
		name   string
		c      [2]float64
		n      [2]float64
		gap    float64
		closed bool
	}{
		{"on the face", [2]float64{0.1, 0.6}, [2]float64{0, 1}, 0, true},
		{"off a vertex: the normal turns", [2]float64{0.5 + 0.1*s2, 0.5 + 0.1*s2}, [2]float64{s2, s2}, 0, true},
		{"centre inside", [2]float64{0.3, 0.45}, [2]float64{0, 1}, -0.15, true},
		{"beyond the alert", [2]float64{0, 0.7}, [2]float64{}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := diskPoly(nil, 1, 0, tc.c, 0.1, A, 0.05)
			if !tc.closed {
				require.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			require.InDelta(t, tc.gap, got[0].gap, 1e-12)
			require.InDelta(t, tc.n[0], got[0].n[0], 1e-12)
			require.InDelta(t, tc.n[1], got[0].n[1], 1e-12)
		})
	}
	got := diskDisk(nil, 0, 1, [2]float64{0, 0}, [2]float64{0.3, 0.4}, 0.2, 0.25, 0.1)
	require.Len(t, got, 1)
	require.InDelta(t, 0.05, got[0].gap, 1e-12)
	require.InDelta(t, -0.6, got[0].n[0], 1e-12)
	require.InDelta(t, -0.8, got[0].n[1], 1e-12)
}

// TestBroadPhase compares the grid's pairs with every pair of boxes, on
// disks and polygons of mixed sizes with two large bodies.
func TestBroadPhase(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var bodies []*Body
	for k := 0; k < 400; k++ {
		var shape Shape = Disk{R: 0.05 + 0.1*rng.Float64()}
		if k%3 == 0 {
			shape, _ = Rectangle(0.1+0.2*rng.Float64(), 0.1+0.1*rng.Float64())
		}
		b, err := NewBody("b"+string(rune(k)), shape, [2]float64{10 * rng.Float64(), 10 * rng.Float64()}, 1)
		require.NoError(t, err)
		b.Q[2] = rng.Float64()
		bodies = append(bodies, b)
	}
	for k, y := range []float64{-0.5, 10.5} {
		wall, _ := Rectangle(12, 1)
		b, _ := NewBody([]string{"floor", "roof"}[k], wall, [2]float64{5, y}, 0)
		b.Motion = contact.Fixed{}
		bodies = append(bodies, b)
	}
	s, err := NewSystem(bodies, []Rule{{}}, 0)
	require.NoError(t, err)
	s.place()
	got := s.broad(nil, s.det.lo, s.det.hi)
	var want [][2]int
	for i := range bodies {
		for j := i + 1; j < len(bodies); j++ {
			if s.touchable(i, j) && overlap(s.det.lo[i], s.det.hi[i], s.det.lo[j], s.det.hi[j]) {
				want = append(want, [2]int{i, j})
			}
		}
	}
	require.NotEmpty(t, want)
	require.Equal(t, want, got)
}

func TestDistance(t *testing.T) {
	sq, err := Rectangle(1, 1)
	require.NoError(t, err)
	body := func(s Shape, x, y, phi float64) *Body {
		return &Body{Shape: s, Q: [3]float64{x, y, phi}}
	}
	a := body(sq, 0, 0, 0)
	for _, tc := range []struct {
		name string
		b    *Body
		want float64
	}{
		{"joint open by 1 cm", body(sq, 1.01, 0.3, 0), 0.01},
		{"corner to corner", body(sq, 1.03, 1.04, 0), 0.05},
		{"overlap by 2 mm", body(sq, 0.998, 0, 0), -0.002},
		{"diamond's corner above a face", body(sq, 0, 0.5+math.Sqrt2/2+0.1, math.Pi/4), 0.1},
		{"disk off a corner", body(Disk{R: 0.1}, 0.8, 0.9, 0), 0.5 - 0.1},
		{"disk into a face", body(Disk{R: 0.1}, 0.55, 0, 0), -0.05},
		{"two disks", body(Disk{R: 0.1}, 3, 4, 0), 5 - 0.1 - 0.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := a
			if tc.name == "two disks" {
				first = body(Disk{R: 0.2}, 0, 0, 0)
			}
			require.InDelta(t, tc.want, Distance(first, tc.b), 1e-12)
			require.InDelta(t, tc.want, Distance(tc.b, first), 1e-12, "symmetric")
		})
	}
}

// TestObstacleBodies: a floor polyline with a kink becomes two driven
// quadrilaterals whose top faces are its segments; a block resting across
// the flat part meets only the top faces.
func TestObstacleBodies(t *testing.T) {
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}, {2, -0.5}}}
	bodies, err := ObstacleBodies(floor)
	require.NoError(t, err)
	require.Len(t, bodies, 2)
	require.Equal(t, "floor[1]", bodies[0].Name)
	require.Equal(t, "floor", bodies[0].Group)
	require.True(t, bodies[1].Driven())
	v := bodies[0].Vertices(nil)
	require.InDelta(t, 1, v[2][0], 1e-12)
	require.InDelta(t, 0, v[2][1], 1e-12)
	require.InDelta(t, -1, v[3][0], 1e-12)
	require.InDelta(t, -2, v[0][1], 1e-12, "2 m deep, the segment's length")
	disc, err := ObstacleBodies(&contact.Obstacle{Name: "drum", Center: [2]float64{1, 2}, Radius: 0.5})
	require.NoError(t, err)
	require.Equal(t, Disk{R: 0.5}, disc[0].Shape)
	require.Equal(t, [3]float64{1, 2, 0}, disc[0].Q)
}

func TestRandomPolygon(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		p, err := RandomPolygon(rng, 5, 8, 0.004, 0.006)
		require.NoError(t, err, "convex, counter-clockwise")
		vs := p.Vertices()
		n := len(vs)
		require.True(t, n >= 5 && n <= 8)
		require.LessOrEqual(t, p.Radius(), 1.2*0.006, "about the centroid, off the circle's centre")
		for k, v := range vs {
			w := vs[(k+1)%n]
			// Sides at least half the even spacing's chord.
			require.Greater(t, math.Hypot(w[0]-v[0], w[1]-v[1]), 0.004*2*math.Sin(math.Pi/float64(n)/2)*0.99)
		}
	}
	_, err := RandomPolygon(rng, 2, 4, 1, 2)
	require.ErrorContains(t, err, "expected 3 <= min <= max sides")
}

// TestNearPairsKeepTheBroadPhase: the pairs kept across steps
// (nearPairs) give, at every step, the pairs a fresh broad phase finds,
// in its order, while disks and polygons drift and turn by less than the
// margin most steps and more on some, one jumps across the box, one
// becomes driven, and with a period (images): and they are found again
// only when a body has moved by the margin.
func TestNearPairsKeepTheBroadPhase(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var bodies []*Body
	for k := range 300 {
		var shape Shape = Disk{R: 0.05 + 0.05*rng.Float64()}
		if k%4 == 0 {
			shape, _ = Rectangle(0.1+0.1*rng.Float64(), 0.05+0.1*rng.Float64())
		}
		b, err := NewBody(fmt.Sprint("b", k), shape, [2]float64{4 * rng.Float64(), 4 * rng.Float64()}, 1)
		require.NoError(t, err)
		bodies = append(bodies, b)
	}
	bodies[11].Q = [3]float64{2, 0.06, 0} // a disk on the floor, driven at step 160
	floor, _ := Rectangle(5, 0.2)
	fb, _ := NewBody("floor", floor, [2]float64{2, -0.1}, 0)
	fb.Motion = contact.Fixed{}
	bodies = append(bodies, fb)
	s, err := NewSystem(bodies, []Rule{{}}, 0.01)
	require.NoError(t, err)
	renewals := 0
	for step := range 200 {
		switch step {
		case 120:
			bodies[7].Q[0], bodies[7].Q[1] = 3.9-bodies[7].Q[0], 3.9-bodies[7].Q[1]
		case 160:
			bodies[11].Motion = contact.Fixed{}
		case 170:
			require.NoError(t, s.SetPeriod(-0.5, 4.5))
		}
		// Most steps move by a fraction of the margin; every 25th by four
		// alert distances along x, then along y, then turning.
		d := [3]float64{0.001 * s.alert, 0.001 * s.alert, 0.001 * s.alert}
		if step%25 == 0 {
			d[step/25%3] = 4 * s.alert
		}
		for _, b := range bodies[:300] {
			for c := range 3 {
				b.Q[c] += d[c] * (rng.Float64() - 0.5)
			}
		}
		s.place()
		before := len(s.det.near.lo) > 0 && s.nearHolds()
		got := s.candidates(nil)
		if !before {
			renewals++
		}
		want := s.broad(nil, s.det.lo, s.det.hi)
		require.NotEmpty(t, want)
		require.Equal(t, want, got, "step %d", step)
	}
	assert.Less(t, renewals, 60, "the pairs are found again only when a body moved by the margin")
	assert.Greater(t, renewals, 8)
}

// TestDetectOrdersItsUnits: Detect returns its units in the order of
// (candidate, antagonist, candidate's feature, antagonist's feature), a
// driven body never the candidate, whatever order the pairs and their
// points come in: squares side by side on a fixed floor listed first (so
// that its pairs come swapped), each held at two corners, disks on them
// and between them, and a square leaning on its neighbour, whose corners
// come from both sides. The step's order of units, and so its sweeps and
// W, rest on it.
func TestDetectOrdersItsUnits(t *testing.T) {
	floorShape, err := Rectangle(10, 1)
	require.NoError(t, err)
	floor, err := NewBody("floor", floorShape, [2]float64{0, -0.5}, 0)
	require.NoError(t, err)
	floor.Motion = contact.Fixed{}
	bodies := []*Body{floor}
	sq, err := Rectangle(1, 1)
	require.NoError(t, err)
	for k := range 4 {
		b, err := NewBody(fmt.Sprint("square", k), sq, [2]float64{float64(k) * 1.0005, 0.5}, 1000)
		require.NoError(t, err)
		bodies = append(bodies, b)
	}
	for k := range 3 {
		b, err := NewBody(fmt.Sprint("disk", k), Disk{R: 0.25}, [2]float64{float64(k)*1.0005 + 0.5, 1.2501}, 1000)
		require.NoError(t, err)
		bodies = append(bodies, b)
	}
	lean, err := NewBody("leaning", sq, [2]float64{4.027, 0.5245}, 1000)
	require.NoError(t, err)
	lean.Q[2] = 0.05
	bodies = append(bodies, lean)
	// The bodies again in reverse, but the floor: a candidate's index is
	// then below or above its antagonist's.
	for k := len(bodies) - 1; k >= 1; k-- {
		b := *bodies[k]
		b.Name += "'"
		b.Q[1] += 20
		bodies = append(bodies, &b)
	}
	floor2, err := NewBody("floor2", floorShape, [2]float64{0, 19.5}, 0)
	require.NoError(t, err)
	floor2.Motion = contact.Fixed{}
	bodies = append(bodies, floor2)
	s, err := NewSystem(bodies, []Rule{{Mu: 0.5}}, 0.01)
	require.NoError(t, err)
	units, err := s.Detect(0)
	require.NoError(t, err)
	require.Greater(t, len(units), 30)
	assert.Greater(t, assertOrdered(t, bodies, units), 5, "pairs whose candidate's index is above its antagonist's")

	// Across a periodic cell's end: a block over the end touches the base
	// and the image of the block beside it, whose points come in another
	// order than their features'.
	base, err := Rectangle(1, 0.2)
	require.NoError(t, err)
	ground, err := NewBody("base", base, [2]float64{0.5, -0.1}, 0)
	require.NoError(t, err)
	ground.Motion = contact.Fixed{}
	bodies = []*Body{ground}
	blk, err := Rectangle(0.2, 0.1)
	require.NoError(t, err)
	for k, x := range []float64{0.95, 0.1505, 0.3515} {
		b, err := NewBody(fmt.Sprint("block", k), blk, [2]float64{x, 0.0501}, 1000)
		require.NoError(t, err)
		bodies = append(bodies, b)
	}
	s, err = NewSystem(bodies, []Rule{{Mu: 0.5}}, 0.01)
	require.NoError(t, err)
	require.NoError(t, s.SetPeriod(0, 1))
	units, err = s.Detect(0)
	require.NoError(t, err)
	require.Greater(t, len(units), 6)
	assertOrdered(t, bodies, units)
}

// assertOrdered checks that units come ordered by (candidate,
// antagonist, candidate's feature, antagonist's feature), a driven body
// never the candidate, and counts those whose candidate's index is above
// its antagonist's.
func assertOrdered(t *testing.T, bodies []*Body, units []contact.Unit) (swapped int) {
	t.Helper()
	for k, u := range units {
		assert.False(t, bodies[u.Key.A].Driven(), "unit %d: a driven candidate %q", k, bodies[u.Key.A].Name)
		if u.Key.B < u.Key.A {
			swapped++
		}
		if k == 0 {
			continue
		}
		p := units[k-1].Key
		order := [][2]int{{p.A, u.Key.A}, {p.B, u.Key.B}, {p.Node, u.Key.Node}, {p.Edge, u.Key.Edge}}
		for _, o := range order {
			if o[0] != o[1] {
				assert.Less(t, o[0], o[1], "unit %d (%+v) after %+v", k, u.Key, p)
				break
			}
		}
	}
	return swapped
}
