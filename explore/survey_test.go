package explore

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
)

const g = 9.81

func fixed(t *testing.T, name string, s rigid.Shape, x [2]float64) *rigid.Body {
	b, err := rigid.NewBody(name, s, x, 0)
	require.NoError(t, err)
	b.Motion = contact.Fixed{}
	return b
}

// TestGrainOnTwoSupports: a disk resting on two fixed disks ([M04]'s grain
// 1): equilibrium leaves one degree of freedom, opposite forces along AB,
// so each contact's admissible forces are a segment whose ends are where
// one of the two forces reaches its cone. With beta the angle of the
// contacts from the vertical, at contact A:
//
//	R_N = (m g - 2 R_T sin(beta)) / (2 cos(beta)),
//	R_T from -mu m g / (2 (cos(beta) - mu sin(beta))) to mu m g / (2 (cos(beta) + mu sin(beta))).
//
// The linear programs give that segment, and every solution of both
// modalities lies on it, holds the grain in equilibrium and spreads over
// most of it.
func TestGrainOnTwoSupports(t *testing.T) {
	const r, d, mu = 0.05, 0.06, 0.3
	y := math.Sqrt(4*r*r - d*d)
	top, err := rigid.NewBody("top", rigid.Disk{R: r}, [2]float64{0, y}, 1000)
	require.NoError(t, err)
	top.Gravity = [2]float64{0, -g}
	sys, err := rigid.NewSystem([]*rigid.Body{fixed(t, "A", rigid.Disk{R: r}, [2]float64{-d, 0}), fixed(t, "B", rigid.Disk{R: r}, [2]float64{d, 0}), top},
		[]rigid.Rule{{Mu: mu, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	s, err := New(sys, 1e-3)
	require.NoError(t, err)
	require.Len(t, s.Units, 2)
	mg := top.Mass * g
	sb, cb := d/(2*r), y/(2*r)
	tHi, tLo := mu*mg/(2*(cb+mu*sb)), -mu*mg/(2*(cb-mu*sb))
	want := [][2]float64{{tLo, (mg - 2*tLo*sb) / (2 * cb)}, {tHi, (mg - 2*tHi*sb) / (2 * cb)}}
	poly, err := s.Admissible(0)
	require.NoError(t, err)
	require.Len(t, poly, 2, "a segment")
	for k := range want {
		assert.InDelta(t, want[k][0], poly[k][0], 1e-9*mg, "end %d: R_T", k)
		assert.InDelta(t, want[k][1], poly[k][1], 1e-9*mg, "end %d: R_N", k)
	}
	require.NoError(t, s.Bound())
	assert.InDelta(t, s.Box()/s.H(), want[0][1], 1e-9*mg, "the random guesses' bound is the largest admissible R_N")
	sup, err := s.TwoSupports()
	require.NoError(t, err)
	require.Len(t, sup, 1, "the top grain")
	require.Equal(t, [2]int{0, 1}, sup[0].Contacts)
	for k := range want {
		assert.InDelta(t, want[k][0], sup[0].Segments[0][k][0], 1e-9*mg, "predicted end %d: R_T", k)
		assert.InDelta(t, want[k][1], sup[0].Segments[0][k][1], 1e-9*mg, "predicted end %d: R_N", k)
	}
	// Random orders of two contacts are one cyclic order: one solution
	// ([M04]: at most (kappa - 1)! of them); random guesses spread.
	for _, m := range []Modality{RandomGuess, RandomOrder} {
		sols, rejected, err := s.Run(m, Options{Solutions: 200, Seed: 7})
		require.NoError(t, err)
		assert.Zero(t, rejected, "%v", m)
		var dots [][2]float64
		for _, sol := range sols {
			assert.Less(t, sol.Imbalance, 1e-6)
			dots = append(dots, [2]float64{sol.R[0][1], sol.R[0][0]})
		}
		frac, outside, far := Coverage(poly, dots, 1e-6*mg)
		t.Logf("%v: %d solutions cover %.0f %% of the segment, farthest %.2g N outside", m, len(sols), 100*frac, far)
		assert.Zero(t, outside, "%v: dots outside the exact set", m)
		if m == RandomGuess {
			assert.Greater(t, frac, 0.5)
		}
	}
}

// TestBlockOnTheGround: a block resting on a face is held at its two
// corners; equilibrium gives R_N = m g / 2 at each and opposite
// tangential forces, so contact 1's admissible set is the segment R_N =
// m g / 2, |R_T| <= mu m g / 2 (worked by hand).
func TestBlockOnTheGround(t *testing.T) {
	const mu = 0.4
	ground, err := rigid.Rectangle(2, 0.2)
	require.NoError(t, err)
	sq, err := rigid.Rectangle(0.3, 0.2)
	require.NoError(t, err)
	block, err := rigid.NewBody("block", sq, [2]float64{0.1, 0.1}, 2000)
	require.NoError(t, err)
	block.Gravity = [2]float64{0, -g}
	sys, err := rigid.NewSystem([]*rigid.Body{fixed(t, "ground", ground, [2]float64{0, -0.1}), block}, []rigid.Rule{{Mu: mu, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	s, err := New(sys, 1e-3)
	require.NoError(t, err)
	require.Len(t, s.Units, 2)
	mg := block.Mass * g
	for c := range 2 {
		poly, err := s.Admissible(c)
		require.NoError(t, err)
		require.Len(t, poly, 2)
		assert.InDelta(t, -mu*mg/2, poly[0][0], 1e-9*mg)
		assert.InDelta(t, mu*mg/2, poly[1][0], 1e-9*mg)
		for _, p := range poly {
			assert.InDelta(t, mg/2, p[1], 1e-9*mg)
		}
	}
	sols, _, err := s.Run(RandomGuess, Options{Solutions: 50, Seed: 1, Tol: 1e-10})
	require.NoError(t, err)
	require.NotEmpty(t, sols)
	for _, sol := range sols {
		assert.InDelta(t, 0, sol.R[0][1]+sol.R[1][1], 1e-8*mg, "opposite tangential forces")
	}
}

func TestHullAndCoverage(t *testing.T) {
	sq := Hull([][2]float64{{0, 0}, {1, 0}, {0.5, 0.5}, {1, 1}, {0, 1}, {0.5, 0}}, 1e-12)
	require.Equal(t, [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, sq)
	assert.InDelta(t, 1, Area(sq), 1e-15)
	assert.Equal(t, 0.0, Distance(sq, [2]float64{0.5, 0.5}))
	assert.InDelta(t, 0.5, Distance(sq, [2]float64{1.5, 0.5}), 1e-15)
	frac, out, far := Coverage(sq, [][2]float64{{0, 0}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}, {2, 0}}, 1e-9)
	assert.InDelta(t, 0.625, frac, 1e-12, "the hull of the dots, the outside one included")
	assert.Equal(t, 1, out)
	assert.InDelta(t, 1, far, 1e-15)
	seg := Hull([][2]float64{{0, 0}, {1, 1}, {0.5, 0.5}}, 1e-12)
	assert.Equal(t, [][2]float64{{0, 0}, {1, 1}}, seg)
}

// TestForceFan: at an instant of motion ([M04] section 3.2), on ground
// inclined 10 degrees (gravity turned), a block sliding down has forces the
// step determines (no dispersion over random orders: its two corners' R_N
// follow from its three equations once R_T = -mu R_N), while a block at
// rest beside it under another, both held by friction (tan 10 deg < 0.3),
// do not: how the corners share the tangential forces is free, and random
// orders of the four contacts find different shares.
func TestForceFan(t *testing.T) {
	ground, err := rigid.Rectangle(4, 0.2)
	require.NoError(t, err)
	sq, err := rigid.Rectangle(0.2, 0.1)
	require.NoError(t, err)
	var blocks []*rigid.Body
	for k, x := range [][2]float64{{-0.5, 0.05}, {0.5, 0.05}, {0.55, 0.15}} {
		b, err := rigid.NewBody([]string{"sliding", "resting", "on top"}[k], sq, x, 2000)
		require.NoError(t, err)
		a := 10 * math.Pi / 180
		b.Gravity = [2]float64{g * math.Sin(a), -g * math.Cos(a)}
		blocks = append(blocks, b)
	}
	blocks[0].V[0] = 2
	sys, err := rigid.NewSystem([]*rigid.Body{fixed(t, "ground", ground, [2]float64{0, -0.1}), blocks[0], blocks[1], blocks[2]}, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	s, err := NewMoving(sys, 1e-3)
	require.NoError(t, err)
	_, _, err = s.Run(RandomGuess, Options{Solutions: 1})
	require.ErrorContains(t, err, "survey a moving sample in random order")
	sols, rejected, err := s.Run(RandomOrder, Options{Solutions: 100, Seed: 3, Tol: 1e-12})
	require.NoError(t, err)
	require.Zero(t, rejected)
	require.Len(t, s.Units, 6)
	spread := func(c, k int) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, sol := range sols {
			lo, hi = math.Min(lo, sol.R[c][k]), math.Max(hi, sol.R[c][k])
		}
		return hi - lo
	}
	mg := blocks[0].Mass * g
	stuck := 0.0
	for c, u := range s.Units {
		sliding := u.Key.A == 1
		t.Logf("contact %d of %s: R_N spread %.3g N, R_T spread %.3g N, status %v", c+1, sys.Bodies[u.Key.A].Name, spread(c, 0), spread(c, 1), sols[0].Status[c])
		if sliding {
			assert.Less(t, spread(c, 0)+spread(c, 1), 1e-6*mg, "a sliding contact's force is determined")
			assert.NotEqual(t, signorini.Stick, sols[0].Status[c])
			continue
		}
		stuck = math.Max(stuck, spread(c, 1))
	}
	assert.Greater(t, stuck, 1e-2*mg, "the sticking contacts' tangential forces are not")
}

// TestRunCores: the runs go to the cores in parallel, and the solutions
// are those of one core, in the same order, to the bit.
func TestRunCores(t *testing.T) {
	s, err := New(hexDeposit(t, 6, 5), 1e-3)
	require.NoError(t, err)
	var got [2][]Solution
	for k, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		got[k], _, err = s.Run(RandomOrder, Options{Solutions: 20, Seed: 5})
		runtime.GOMAXPROCS(old)
		require.NoError(t, err)
	}
	require.Len(t, got[0], 20)
	assert.Equal(t, got[0], got[1])
}

// TestSurveyKeepsItsUnits: a survey's units are its own: the system's
// next detection (a step of a simulation on it, after the bodies moved)
// leaves them as the survey found them.
func TestSurveyKeepsItsUnits(t *testing.T) {
	const r = 0.05
	top, err := rigid.NewBody("top", rigid.Disk{R: r}, [2]float64{0, 2 * r * math.Cos(0.3)}, 1000)
	require.NoError(t, err)
	top.Gravity = [2]float64{0, -g}
	sys, err := rigid.NewSystem([]*rigid.Body{fixed(t, "A", rigid.Disk{R: r}, [2]float64{-2 * r * math.Sin(0.3), 0}), top},
		[]rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	s, err := New(sys, 1e-3)
	require.NoError(t, err)
	require.Len(t, s.Units, 1)
	want := s.Units[0]
	want.Entries = append([]contact.Entry(nil), want.Entries...)
	top.Q = [3]float64{0.001, 2*r*math.Cos(0.3) + 0.002, 0.1}
	moved, err := sys.Detect(0)
	require.NoError(t, err)
	require.Len(t, moved, 1)
	require.NotEqual(t, want.Gap, moved[0].Gap)
	assert.Equal(t, want, s.Units[0])
}
