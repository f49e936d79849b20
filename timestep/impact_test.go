package timestep

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/signorini"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// impactCase is two free blocks meeting head on along x at +-1 m/s, the
// left block's right face against the right block's left face.
type impactCase struct {
	name     string
	cells    [2][2]int     // cells of the left and right blocks
	size     [2][2]float64 // sizes
	rightY   float64       // the right block's lower edge
	cellSize float64       // the smallest cell side, for the depth bound
}

var impactCases = []impactCase{
	// Identical meshes face to face: every candidate on a vertex, corners on corners.
	{"identical", [2][2]int{{8, 4}, {8, 4}}, [2][2]float64{{0.1, 0.05}, {0.1, 0.05}}, 0, 0.0125},
	// Non-matching meshes (4 against 3 cells along the contact face).
	{"non-matching", [2][2]int{{8, 4}, {8, 3}}, [2][2]float64{{0.1, 0.05}, {0.1, 0.05}}, 0, 0.0125},
	// A taller antagonist: no corner meets a corner, every candidate lies on
	// one of its vertices.
	{"on-vertices", [2][2]int{{8, 4}, {8, 8}}, [2][2]float64{{0.1, 0.05}, {0.1, 0.1}}, -0.025, 0.0125},
	// A one-cell body against a meshed one, corners meeting corners.
	{"one-cell", [2][2]int{{1, 1}, {8, 4}}, [2][2]float64{{0.1, 0.05}, {0.1, 0.05}}, 0, 0.0125},
}

// TestImpactMatrix: frictionless, theta = 1/2, no damping, E = 1e8 Pa,
// nu = 0, plane stress, rho = 1000: identical meshes face to face,
// non-matching meshes, candidates on the antagonist's vertices, corners
// meeting corners, a one-cell body, in every element kind and both bases.
// Kinetic plus elastic energy never exceeds the initial energy by more
// than 1e-9 of it at any step, the contact law's work of every step is not
// positive (to 1e-8 of the energy, the solver's tolerance), momentum is kept to round-off, and no
// node of either block is found inside the other deeper than 1% of a cell.
func TestImpactMatrix(t *testing.T) {
	mat := element.Elastic{E: 1e8, Nu: 0, Rho: 1000, PlaneStress: true, Thickness: 1}
	for _, tc := range impactCases {
		for _, kind := range []mesh.Kind{mesh.Q4, mesh.T3, mesh.Q8, mesh.T6} {
			for _, basis := range []contact.Basis{contact.Nodal, contact.Pairing} {
				if basis == contact.Pairing && kind.Order() == 1 {
					continue
				}
				t.Run(fmt.Sprintf("%s/%v/%v", tc.name, kind, basis), func(t *testing.T) {
					impact(t, tc, kind, basis, mat)
				})
			}
		}
	}
}

func impact(t *testing.T, tc impactCase, kind mesh.Kind, basis contact.Basis, mat element.Elastic) {
	var bodies []*fe.Body
	var sides [2]*contact.Side
	origins := [2][2]float64{{-tc.size[0][0] - 5e-4, 0}, {0, tc.rightY}}
	groups := [2]string{"right", "left"}
	for k := 0; k < 2; k++ {
		m, err := mesh.Rectangle(origins[k], tc.size[k][0], tc.size[k][1], tc.cells[k][0], tc.cells[k][1], kind)
		require.NoError(t, err)
		s, err := assemble.NewSpace(m)
		require.NoError(t, err)
		b, err := fe.NewBody(fmt.Sprint(k), s, mat, fe.BodyOptions{})
		require.NoError(t, err)
		v := [2]float64{1 - 2*float64(k), 0}
		b.SetVelocity(func([2]float64) [2]float64 { return v })
		bodies = append(bodies, b)
		sides[k], err = contact.NewSide(k, m, s.DOFs, groups[k], 1)
		require.NoError(t, err)
	}
	det, err := contact.NewDetector(&contact.Pair{Name: "faces", Candidate: sides[0], Antagonist: sides[1], Basis: basis, Alert: 2e-3})
	require.NoError(t, err)
	h := 2e-6
	sim, err := NewSimulation(bodies, det, SimOptions{H: h, Theta: 0.5, Solver: signorini.Options{ChangeTol: -1, MaxSweeps: 20000}})
	require.NoError(t, err)
	momentum := func() [2]float64 {
		var p [2]float64
		for _, b := range bodies {
			mv := make([]float64, len(b.V))
			assemble.MulVecTo(mv, b.M, b.V)
			for e, full := range b.Space.DOFs.DOF {
				p[full%2] += mv[e]
			}
		}
		return p
	}
	p0, e0 := momentum(), sim.Stepper.TotalEnergy()
	first := e0.Kinetic + e0.Elastic
	worstEnergy, worstLaw, depth, contactSteps := 0.0, 0.0, 0.0, 0
	// 1.2 ms: the wave crosses a 0.1 m block (c = 316 m/s) in 0.32 ms.
	for i := 1; i <= 600; i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		e := sim.Stepper.TotalEnergy()
		worstEnergy = math.Max(worstEnergy, (e.Kinetic+e.Elastic-first)/first)
		depth = math.Max(depth, deepest(bodies))
		worstLaw = math.Max(worstLaw, st.NormalWork/first)
		if st.Units > st.Open {
			contactSteps++
		}
	}
	p := momentum()
	scale := mat.Rho * tc.size[0][0] * tc.size[0][1]
	t.Logf("%s %v: energy above the initial at worst %.2g, depth %.3g of a cell, %d steps in contact, law %.3g J, push-out %.3g J, momentum (%.2g, %.2g)",
		tc.name, kind, worstEnergy, depth/tc.cellSize, contactSteps, sim.NormalWork, sim.PushOutWork, p[0]-p0[0], p[1]-p0[1])
	assert.Greater(t, contactSteps, 10, "the blocks meet")
	assert.LessOrEqual(t, worstEnergy, 1e-9, "kinetic + elastic never exceeds the initial energy")
	assert.LessOrEqual(t, worstLaw, 1e-8, "the contact law's work of a step is never positive")
	assert.InDelta(t, p0[0], p[0], 1e-9*scale)
	assert.InDelta(t, p0[1], p[1], 1e-9*scale)
	assert.Less(t, depth, 0.01*tc.cellSize, "depth of a node inside the other block")
}

// deepest is the largest depth of a boundary node of either body inside
// the other body's boundary polygon (quadratic edges as two chords), an
// independent measure of penetration.
func deepest(bodies []*fe.Body) float64 {
	var worst float64
	for a := range bodies {
		for b := range bodies {
			if a != b {
				worst = math.Max(worst, depthInside(bodies[a], bodies[b]))
			}
		}
	}
	return worst
}

func position(b *fe.Body, n int) [2]float64 {
	p := b.Space.Mesh.Nodes[n]
	for c := 0; c < 2; c++ {
		if e := b.Space.DOFs.Eq[2*n+c]; e >= 0 {
			p[c] += b.Q[e]
		}
	}
	return p
}

func depthInside(a, b *fe.Body) float64 {
	var segs [][2][2]float64
	for _, e := range b.Space.Mesh.BoundaryEdges() {
		if len(e.Nodes) == 2 {
			segs = append(segs, [2][2]float64{position(b, e.Nodes[0]), position(b, e.Nodes[1])})
		} else {
			m := position(b, e.Nodes[2])
			segs = append(segs, [2][2]float64{position(b, e.Nodes[0]), m}, [2][2]float64{m, position(b, e.Nodes[1])})
		}
	}
	var worst float64
	for _, e := range a.Space.Mesh.BoundaryEdges() {
		for _, n := range e.Nodes {
			x := position(a, n)
			inside, d := false, math.Inf(1)
			for _, s := range segs {
				p, q := s[0], s[1]
				if (p[1] > x[1]) != (q[1] > x[1]) && x[0] < p[0]+(x[1]-p[1])*(q[0]-p[0])/(q[1]-p[1]) {
					inside = !inside
				}
				d = math.Min(d, segmentDistance(x, p, q))
			}
			if inside {
				worst = math.Max(worst, d)
			}
		}
	}
	return worst
}

func segmentDistance(x, a, b [2]float64) float64 {
	ex, ey := b[0]-a[0], b[1]-a[1]
	u := math.Max(0, math.Min(1, ((x[0]-a[0])*ex+(x[1]-a[1])*ey)/(ex*ex+ey*ey)))
	return math.Hypot(x[0]-a[0]-u*ex, x[1]-a[1]-u*ey)
}

// TestOneWayDepth runs the colliding blocks (Q4, refine 1) with a one-way
// pair: only the upper block's nodes are kept out of the lower one, and
// the lower block's nodes enter the upper one (29 um). The depth measure
// still looks both ways: StepStats.Deepest and NodeDepths equal the
// test's own point-in-polygon measure of either block's nodes inside the
// other at every step (they reported 1.1 um, the other way alone).
func TestOneWayDepth(t *testing.T) {
	sim, bodies := blocks(t, mesh.Q4, 1, contact.Nodal, contact.Positional, 0.1)
	p := sim.Detector.Pairs[0]
	det, err := contact.NewDetector(&contact.Pair{Name: "blocks", Candidate: p.Candidate, Antagonist: p.Antagonist, Mu: p.Mu, Alert: p.Alert, OneWay: true})
	require.NoError(t, err)
	sim, err = NewSimulation(bodies, det, SimOptions{H: 1e-6})
	require.NoError(t, err)
	measured, depth := 0.0, 0.0
	var nodes [][]float64
	for i := 1; i <= 750; i++ {
		st, err := sim.Step()
		require.NoError(t, err)
		require.InDelta(t, measured, st.Deepest.Depth, 1e-15, "step %d: Deepest", i)
		measured = deepest(bodies)
		nodes = sim.NodeDepths(nodes)
		require.InDelta(t, measured, max(slices.Max(nodes[0]), slices.Max(nodes[1])), 1e-15, "step %d: NodeDepths", i)
		depth = math.Max(depth, measured)
	}
	t.Logf("one way: deepest node %.3g m inside the other block", depth)
	require.Greater(t, depth, 1e-5, "the lower block's nodes inside the upper one are seen")
}

// TestTunnelOntoFarEdge steps the colliding blocks with h = 1 ms and the
// upper block 10 mm above the lower one: in its first step it moves 75
// mm left and 50 mm down, through the lower block, and lands with its
// bottom nodes exactly on the lower block's bottom edge (and the lower
// block's top nodes exactly on its top edge), where no node is inside the
// other body. The step must still fail as tunnelling, naming the node
// that went through.
func TestTunnelOntoFarEdge(t *testing.T) {
	sim, bodies := blocks(t, mesh.Q4, 1, contact.Nodal, contact.Positional, 0.1)
	upper := bodies[1]
	for n := range upper.Space.Mesh.Nodes { // 10 mm above the lower block
		upper.Space.Mesh.Nodes[n][1] += 0.05 - 0.0405
	}
	sim, err := NewSimulation(bodies, sim.Detector, SimOptions{H: 1e-3})
	require.NoError(t, err)
	_, err = sim.Step()
	require.NoError(t, err, "the first step: nothing in the way yet")
	_, err = sim.Step()
	require.ErrorContains(t, err, `during step 1 (to t = 0.001 s): contact pair 1 "blocks": node`)
	require.ErrorContains(t, err, `inside body "lower" on its way`)
	require.ErrorContains(t, err, "tunnelling): use a smaller h or a larger alert")
	t.Log(err)
}

// TestImpactAtStartStopsEarlyExactly: the impact check at a step's start
// stops asking a unit's bodies for their accelerations at the first
// beyond failsAtStart, and decides as the largest of them would: bodies
// below, across and above the bar, in either order, and one at the bar.
func TestImpactAtStartStopsEarlyExactly(t *testing.T) {
	const h, u0 = 1e-3, -1.0 // the bar: 500 m/s^2
	for _, accs := range [][2]float64{{450, 600}, {600, 450}, {450, 499}, {100, 200}, {700, 800}, {500, 500}, {499.9999, 0}} {
		w := &stepWork{v0: make([][]float64, 2), vfree: make([][]float64, 2), bodyAcc: make([]float64, 2)}
		var u contact.Unit
		for b, a := range accs {
			w.start(b, []float64{0, 0, 0}, []float64{0, -a * h, 0})
			u.Entries = append(u.Entries, contact.Entry{Body: b, Eq: 1, N: 1})
		}
		full := largestAcceleration(&u, w, [2]float64{}, [2]float64{}, h, math.Inf(1))
		early := largestAcceleration(&u, w, [2]float64{}, [2]float64{}, h, failsAtStart(u0, h))
		_, want := arrival(0, u0, 0, full, h)
		_, got := arrival(0, u0, 0, early, h)
		assert.Equal(t, want, got, "accelerations %v: %g whole, %g stopped early", accs, full, early)
		assert.InDelta(t, max(accs[0], accs[1]), full, 1e-9*full)
	}
}
