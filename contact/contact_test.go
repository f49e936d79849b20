package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoBlocks is a candidate block A resting 0.2 mm above a block B fixed
// along its bottom: A's bottom edge against B's top edge.
func twoBlocks(t testing.TB, kind mesh.Kind, basis Basis) (*Detector, []*Side) {
	mb, err := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 6, 2, kind)
	require.NoError(t, err)
	ma, err := mesh.Rectangle([2]float64{0.031, 0.0402}, 0.04, 0.04, 3, 2, kind)
	require.NoError(t, err)
	da, err := assemble.NewDOFMap(ma, nil)
	require.NoError(t, err)
	db, err := assemble.NewDOFMap(mb, []assemble.Fix{{Group: "bottom", Comp: assemble.XY}})
	require.NoError(t, err)
	a, err := NewSide(0, ma, da, "bottom", 0.01)
	require.NoError(t, err)
	b, err := NewSide(1, mb, db, "top", 0.01)
	require.NoError(t, err)
	d, err := NewDetector(&Pair{Name: "ab", Candidate: a, Antagonist: b, Mu: 0.1, Basis: basis, Alert: 1e-3})
	require.NoError(t, err)
	return d, []*Side{a, b}
}

func randomField(rng *rand.Rand, n int, amp float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = amp * (2*rng.Float64() - 1)
	}
	return v
}

// TestHIsTheGapDerivative: under random small motions of both bodies the
// central difference of each unit's (weighted) gap matches U~_N = H~ v, and
// the rate of the relative tangential displacement of the paired material
// points matches U~_T, for 2-node and 3-node edges and both bases.
func TestHIsTheGapDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kind := range []mesh.Kind{mesh.Q4, mesh.Q8, mesh.T6} {
		for _, basis := range []Basis{Nodal, Pairing} {
			d, sides := twoBlocks(t, kind, basis)
			for trial := 0; trial < 5; trial++ {
				disp := [][]float64{
					randomField(rng, 2*len(sides[0].Mesh.Nodes), 5e-5),
					randomField(rng, 2*len(sides[1].Mesh.Nodes), 5e-5),
				}
				vel := [][]float64{
					randomField(rng, 2*len(sides[0].Mesh.Nodes), 1),
					randomField(rng, 2*len(sides[1].Mesh.Nodes), 1),
				}
				// A tent on B: its top node at x = 0.04 raised 1 mm, a kink
				// that pokes into A, which the reverse pass pairs.
				for _, n := range sides[1].Nodes() {
					if math.Abs(sides[1].Mesh.Nodes[n][0]-0.04) < 1e-12 {
						disp[1][2*n+1] += 1e-3
					}
				}
				// The bottom of B is fixed: zero velocity there.
				for _, n := range sides[1].Mesh.NodeGroups["bottom"] {
					vel[1][2*n], vel[1][2*n+1], disp[1][2*n], disp[1][2*n+1] = 0, 0, 0, 0
				}
				free := make([][]float64, 2)
				for b, s := range sides {
					free[b] = make([]float64, s.DOFs.N())
					for e, full := range s.DOFs.DOF {
						free[b][e] = vel[b][full]
					}
				}
				units, _, err := d.Detect(Config{Disp: disp})
				require.NoError(t, err)
				direct := 0
				for _, u := range units {
					if !u.Key.Reverse {
						direct++
					}
				}
				require.Equal(t, len(sides[0].Nodes()), direct, "every candidate node is within the alert distance")
				require.Greater(t, len(units), direct, "the reverse pass pairs B's tent top")
				// Detect's results last until the next Detect but one: keep
				// what the comparison needs.
				keys, rates, weights := make([]Key, len(units)), make([]float64, len(units)), make([]float64, len(units))
				for k, u := range units {
					keys[k], rates[k], weights[k] = u.Key, u.Velocity(free)[0], u.Weight
				}
				const eps = 1e-8
				at := func(s float64) []Unit {
					moved := make([][]float64, 2)
					for b := range disp {
						moved[b] = make([]float64, len(disp[b]))
						for i := range moved[b] {
							moved[b][i] = disp[b][i] + s*vel[b][i]
						}
					}
					us, _, err := d.Detect(Config{Disp: moved})
					require.NoError(t, err)
					return us
				}
				plus, minus := at(eps), at(-eps)
				require.Len(t, plus, len(keys))
				require.Len(t, minus, len(keys))
				for k, key := range keys {
					require.Equal(t, key, plus[k].Key)
					require.Equal(t, key, minus[k].Key)
					fd := (plus[k].Gap - minus[k].Gap) / (2 * eps)
					assert.InDelta(t, fd, rates[k], 1e-6*weights[k], "%v %v unit %d normal", kind, basis, k)
				}
			}
		}
	}
}

// TestTangentialVelocity: U_T of a nodal unit is the rate of the relative
// tangential displacement between the candidate node and the antagonist's
// material point it projects on.
func TestTangentialVelocity(t *testing.T) {
	d, sides := twoBlocks(t, mesh.Q8, Nodal)
	rng := rand.New(rand.NewPCG(3, 3))
	vel := [][]float64{randomField(rng, sides[0].DOFs.N(), 1), randomField(rng, sides[1].DOFs.N(), 1)}
	units, points, err := d.Detect(Config{})
	require.NoError(t, err)
	require.Len(t, points, len(units))
	for k, u := range units {
		q := points[k]
		full := func(s *Side, b, n, c int) float64 {
			if e := s.DOFs.Eq[2*n+c]; e >= 0 {
				return vel[b][e]
			}
			return 0
		}
		c, a := 0, 1 // the point's candidate and antagonist sides
		if q.Reverse {
			c, a = 1, 0
		}
		rel := [2]float64{full(sides[c], c, q.Node, 0), full(sides[c], c, q.Node, 1)}
		e := sides[a].Edges()[q.Edge]
		N := []float64{q.S * (q.S - 1) / 2, q.S * (q.S + 1) / 2, 1 - q.S*q.S}
		for i, n := range e.Nodes {
			rel[0] -= N[i] * full(sides[a], a, n, 0)
			rel[1] -= N[i] * full(sides[a], a, n, 1)
		}
		U := u.Velocity(vel)
		assert.InDelta(t, rel[0]*q.T[0]+rel[1]*q.T[1], U[1]/u.Weight, 1e-12)
		assert.InDelta(t, rel[0]*q.N[0]+rel[1]*q.N[1], U[0]/u.Weight, 1e-12)
	}
}

// TestVelocitiesAreVelocityTwice: the one-pass velocities at two fields,
// which the step uses for a unit's velocity at the start and its free one,
// are Velocity's at each, to the bit (a step's history must not move by
// their order), with an obstacle's rigid term added once to each.
func TestVelocitiesAreVelocityTwice(t *testing.T) {
	for _, kind := range []mesh.Kind{mesh.Q4, mesh.Q8} {
		d, sides := twoBlocks(t, kind, Nodal)
		rng := rand.New(rand.NewPCG(5, 7))
		field := func() [][]float64 {
			return [][]float64{randomField(rng, sides[0].DOFs.N(), 1), randomField(rng, sides[1].DOFs.N(), 1)}
		}
		v, w := field(), field()
		units, _, err := d.Detect(Config{})
		require.NoError(t, err)
		require.NotEmpty(t, units)
		for k := range units {
			u := &units[k]
			u.Rigid = [2]float64{0.25 * float64(k), -0.5}
			Uv, Uw := u.Velocities(v, w)
			assert.Equal(t, u.Velocity(v), Uv, "%v unit %d at v", kind, k)
			assert.Equal(t, u.Velocity(w), Uw, "%v unit %d at w", kind, k)
			nv, nw := u.NormalVelocities(v, w)
			assert.Equal(t, Uv[0], nv, "%v unit %d: normal at v", kind, k)
			assert.Equal(t, Uw[0], nw, "%v unit %d: normal at w", kind, k)
		}
	}
}

// TestReactionBasis: the F_j are non-negative and sum to one on both edge
// kinds (P_ij may still be negative on 3-node edges, where E_i changes sign).
func TestReactionBasis(t *testing.T) {
	for _, n := range []int{2, 3} {
		F := make([]float64, n)
		for k := 0; k <= 40; k++ {
			reactionBasis(n, -1+float64(k)/20, F)
			var sum float64
			for _, f := range F {
				assert.GreaterOrEqual(t, f, 0.0)
				sum += f
			}
			assert.InDelta(t, 1, sum, 1e-15)
		}
	}
}

// TestPairingMatrix: P sums to the boundary area, and a uniform reaction
// density gives the consistent nodal forces of a uniform pressure.
func TestPairingMatrix(t *testing.T) {
	for _, kind := range mesh.Kinds {
		m, err := mesh.Rectangle([2]float64{0, 0}, 0.3, 0.1, 3, 1, kind)
		require.NoError(t, err)
		dofs, _ := assemble.NewDOFMap(m, nil)
		s, err := NewSide(0, m, dofs, "bottom", 0.02)
		require.NoError(t, err)
		P := s.PairingMatrix()
		var total float64
		force := make([]float64, len(s.nodes)) // r_i = sum_j P_ij * 1
		for _, col := range P {
			for _, w := range col {
				if kind.Order() == 1 {
					assert.GreaterOrEqual(t, w.P, 0.0, "%v: P_ij >= 0 on 2-node edges", kind)
				}
				total += w.P
				force[w.I] += w.P
			}
		}
		assert.InDelta(t, 0.3*0.02, total, 1e-15, "%v", kind)
		// One edge of length 0.1: ends 1/6 (quadratic) or 1/2 (linear).
		e := s.edges[0]
		load := 0.1 * 0.02
		if kind.Order() == 2 {
			assert.InDelta(t, load/6, force[s.local[e.Nodes[0]]], 1e-16)
			assert.InDelta(t, 2*load/3, force[s.local[e.Nodes[2]]], 1e-16)
			assert.InDelta(t, load/6+load/6, force[s.local[e.Nodes[1]]], 1e-16, "shared end node")
		} else {
			assert.InDelta(t, load/2, force[s.local[e.Nodes[0]]], 1e-16)
			assert.InDelta(t, load, force[s.local[e.Nodes[1]]], 1e-16, "shared node")
		}
		// The nodal form concentrates each reaction basis function at its
		// node: the column sums, integral of F_j, which are a quarter and a
		// half of the edge on 3-node edges (not the consistent 1/6, 2/3).
		lumped := Lump(P)
		for j, col := range lumped {
			require.Len(t, col, 1)
			var sum float64
			for _, w := range P[j] {
				sum += w.P
			}
			assert.InDelta(t, sum, col[0].P, 1e-16)
		}
		if kind.Order() == 2 {
			assert.InDelta(t, load/4, lumped[s.local[e.Nodes[0]]][0].P, 1e-16)
			assert.InDelta(t, load/2, lumped[s.local[e.Nodes[2]]][0].P, 1e-16)
		}
	}
}

// TestBroadPhaseMatchesBruteForce: on 1 000 random configurations of
// segments and points, the grid proposes every entry within the alert
// distance of a point (and the narrow phase then keeps exactly those),
// and the flat grid the same entries in the same order.
func TestBroadPhaseMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 1000; trial++ {
		ns := 1 + rng.IntN(40)
		alert := 0.001 + 0.2*rng.Float64()
		segs := make([][2][2]float64, ns)
		boxes := make([]box, ns)
		for k := range segs {
			a := [2]float64{rng.Float64(), rng.Float64()}
			l := 0.3 * rng.Float64() * rng.Float64()
			th := 2 * math.Pi * rng.Float64()
			segs[k] = [2][2]float64{a, {a[0] + l*math.Cos(th) + 1e-9, a[1] + l*math.Sin(th)}}
			boxes[k] = boxOf(segs[k][0], segs[k][1]).grow(alert)
		}
		var g, flat grid
		g.build(boxes, flatTests+1)
		flat.build(boxes, 1)
		require.False(t, g.flat)
		require.True(t, flat.flat)
		for q := 0; q < 20; q++ {
			x := [2]float64{1.4*rng.Float64() - 0.2, 1.4*rng.Float64() - 0.2}
			var brute, broad []int
			for k, s := range segs {
				if projectSegment(x, s[0], s[1]).dist <= alert {
					brute = append(brute, k)
				}
			}
			for _, k := range g.near(nil, x) {
				if projectSegment(x, segs[k][0], segs[k][1]).dist <= alert {
					broad = append(broad, k)
				}
			}
			require.ElementsMatch(t, brute, broad, "trial %d point %v", trial, x)
			require.Equal(t, g.near(nil, x), flat.near(nil, x), "trial %d point %v: flat", trial, x)
		}
	}
}

func TestDegenerateGeometry(t *testing.T) {
	// Candidate exactly at a vertex shared by two edges: gap 0, a unit normal.
	p := projectSegment([2]float64{1, 0}, [2]float64{0, 0}, [2]float64{1, 0})
	q := projectSegment([2]float64{1, 0}, [2]float64{1, 0}, [2]float64{2, 0.5})
	for _, pr := range []projection{p, q} {
		assert.Equal(t, 0.0, pr.gap)
		assert.InDelta(t, 1, math.Hypot(pr.n[0], pr.n[1]), 1e-15)
	}
	// Convex corner: a point outside both faces sees a rounded corner.
	c := projectSegment([2]float64{2, -1}, [2]float64{0, 0}, [2]float64{1, 0})
	assert.InDelta(t, math.Sqrt(2), c.gap, 1e-15)
	assert.InDeltaSlice(t, []float64{1 / math.Sqrt(2), -1 / math.Sqrt(2)}, c.n[:], 1e-15)
	// Past the end of an edge and behind its face's line (the segment's free
	// side is below it): outside a convex corner, so a positive gap from the
	// vertex, not a penetration of the face extended.
	f := projectSegment([2]float64{1.003, 0.004}, [2]float64{0, 0}, [2]float64{1, 0})
	assert.InDelta(t, 0.005, f.gap, 1e-15)
	assert.InDeltaSlice(t, []float64{0.6, 0.8}, f.n[:], 1e-12)
	// Behind the face (penetrating): the face normal and a negative gap.
	b := projectSegment([2]float64{0.5, 0.01}, [2]float64{0, 0}, [2]float64{1, 0})
	assert.InDelta(t, -0.01, b.gap, 1e-15)
	assert.Equal(t, [2]float64{0, -1}, b.n)
	// A quadratic edge that is straight gives the same as the segment.
	X := [3][2]float64{{0, 0}, {1, 0}, {0.5, 0}}
	pq := projectQuadratic([2]float64{0.3, -0.2}, &X)
	assert.InDelta(t, 0.2, pq.gap, 1e-15)
	assert.InDelta(t, -0.4, pq.s, 1e-14)
}

// TestQuadraticProjectionIsGlobal compares the Newton projection on
// strongly curved 3-node edges with dense sampling, near the ends too.
func TestQuadraticProjectionIsGlobal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 2000; trial++ {
		X := [3][2]float64{{0, 0}, {1, 0}, {0.5 + 0.2*(2*rng.Float64()-1), 0.4 * (2*rng.Float64() - 1)}}
		x := [2]float64{1.6*rng.Float64() - 0.3, 1.2*rng.Float64() - 0.6}
		got := projectQuadratic(x, &X)
		best := math.Inf(1)
		for k := 0; k <= 20000; k++ {
			p, _ := quadratic(&X, -1+float64(k)/10000)
			best = math.Min(best, math.Hypot(p[0]-x[0], p[1]-x[1]))
		}
		require.LessOrEqual(t, got.dist, best+1e-9, "trial %d: edge %v point %v", trial, X, x)
		require.False(t, math.IsNaN(got.gap+got.n[0]+got.n[1]))
	}
}

func TestDetectionEdgeCases(t *testing.T) {
	d, sides := twoBlocks(t, mesh.Q4, Nodal)
	// Far behind: move A 5 cm down, through B: beyond the alert distance.
	disp := make([]float64, 2*len(sides[0].Mesh.Nodes))
	for i := 1; i < len(disp); i += 2 {
		disp[i] = -0.03
	}
	units, _, err := d.Detect(Config{Disp: [][]float64{disp}})
	require.NoError(t, err)
	assert.Empty(t, units)
	// Parallel faces 0.2 mm apart: every candidate node, gap 0.2 mm, normal
	// +y. B's nodes under A (x = 0.04 and 0.06) are smooth points between
	// A's nodes: the reverse pass adds nothing.
	units, points, err := d.Detect(Config{})
	require.NoError(t, err)
	assert.Len(t, units, 4)
	for _, p := range points {
		assert.InDelta(t, 0.0002, p.Gap, 1e-12)
		assert.InDelta(t, 1, p.N[1], 1e-12)
		assert.False(t, p.Reverse)
	}
	// B's node at x = 0.04 raised 0.5 mm, a corner poking 0.3 mm into A:
	// the reverse pass holds it, normal -y (A's bottom face).
	up := make([]float64, 2*len(sides[1].Mesh.Nodes))
	for _, n := range sides[1].Nodes() {
		if sides[1].Mesh.Nodes[n][0] == 0.04 {
			up[2*n+1] = 5e-4
		}
	}
	_, points, err = d.Detect(Config{Disp: [][]float64{nil, up}})
	require.NoError(t, err)
	var reverse []Point
	for _, p := range points {
		if p.Reverse {
			reverse = append(reverse, p)
		}
	}
	require.Len(t, reverse, 1)
	assert.InDelta(t, -0.0003, reverse[0].Gap, 1e-12)
	assert.InDelta(t, -1, reverse[0].N[1], 1e-12)
	// A zero-length edge is refused by name.
	m, _ := mesh.Rectangle([2]float64{0, 0}, 1, 1, 2, 1, mesh.Q4)
	m.Nodes[m.EdgeGroups["bottom"][0].Nodes[1]] = m.Nodes[m.EdgeGroups["bottom"][0].Nodes[0]]
	dofs, _ := assemble.NewDOFMap(m, nil)
	_, err = NewSide(0, m, dofs, "bottom", 1)
	assert.ErrorContains(t, err, `edge group "bottom": edge 0 (nodes [0 1]) has zero length`)
	_, err = NewSide(0, m, dofs, "botom", 1)
	assert.ErrorContains(t, err, `no edge group "botom"`)
	_, err = NewSide(-1, m, dofs, "top", 1)
	assert.ErrorContains(t, err, `edge group "top": body index -1: expected the index of its body`)
	// A carried obstacle moves with its body: a motion of its own is refused.
	top, _ := NewSide(0, m, dofs, "top", 1)
	hull := &Obstacle{Name: "hull", Points: [][2]float64{{0, 2}, {1, 2}}, Carried: true, Body: 1, Motion: Fixed{}}
	_, err = NewDetector(&Pair{Candidate: top, Obstacle: hull})
	assert.ErrorContains(t, err, `obstacle "hull": carried by body 1, it moves with it: leave its Motion nil`)
}

// TestObstacles: a floor (listed left to right), a disc, and a moving
// floor whose velocity enters the rigid term.
func TestObstacles(t *testing.T) {
	m, _ := mesh.Rectangle([2]float64{0, 0.001}, 0.1, 0.05, 4, 2, mesh.Q4)
	dofs, _ := assemble.NewDOFMap(m, nil)
	side, err := NewSide(0, m, dofs, "bottom", 1)
	require.NoError(t, err)
	floor := &Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}, Motion: ConstantVelocity{V: [2]float64{0.5, 2}}}
	disc := &Obstacle{Name: "disc", Center: [2]float64{0.05, -0.5}, Radius: 0.5005}
	for _, tc := range []struct {
		o        *Obstacle
		gap      float64
		rigidN   float64
		rigidT   float64
		midpoint int
	}{
		{floor, 0.001, -2, 0.5, 2}, // U = -(v_obs . n, v_obs . t), n = +y, t = -x
		{disc, 0.0005, 0, 0, 2},
	} {
		d, err := NewDetector(&Pair{Name: tc.o.Name, Candidate: side, Obstacle: tc.o, Alert: 0.01})
		require.NoError(t, err)
		units, points, err := d.Detect(Config{})
		require.NoError(t, err)
		require.Len(t, units, 5)
		assert.InDelta(t, tc.gap, points[tc.midpoint].Gap, 1e-12, tc.o.Name)
		assert.InDelta(t, 1, points[tc.midpoint].N[1], 1e-12, tc.o.Name)
		w := units[tc.midpoint].Weight
		assert.InDelta(t, tc.rigidN, units[tc.midpoint].Rigid[0]/w, 1e-12, tc.o.Name)
		assert.InDelta(t, tc.rigidT, units[tc.midpoint].Rigid[1]/w, 1e-12, tc.o.Name)
	}
	// The moving floor has risen 2 mm at t = 1 ms: now 1 mm of penetration.
	d, _ := NewDetector(&Pair{Name: "floor", Candidate: side, Obstacle: floor, Alert: 0.01})
	_, points, err := d.Detect(Config{Time: 1e-3})
	require.NoError(t, err)
	assert.InDelta(t, -0.001, points[2].Gap, 1e-12)
	// A shaking ground: offset and velocity agree.
	s := Sine{Amplitude: 0.075, Period: 0.4, Direction: [2]float64{1, 0}}
	h := 1e-6
	assert.InDelta(t, (s.Offset(0.1 + h)[0]-s.Offset(0.1 - h)[0])/(2*h), s.Velocity(0.1)[0], 1e-6)

	for _, bad := range []*Obstacle{
		{Name: "dot", Points: [][2]float64{{0, 0}}},
		{Name: "zero", Points: [][2]float64{{0, 0}, {0, 0}}},
		{Name: "both", Points: [][2]float64{{0, 0}, {1, 0}}, Radius: 1},
	} {
		_, err := NewDetector(&Pair{Name: "p", Candidate: side, Obstacle: bad, Alert: 0.01})
		assert.ErrorContains(t, err, `obstacle "`+bad.Name+`"`)
	}
	for _, mu := range []float64{-0.1, math.NaN(), 1.0001 * MaxMu, math.Inf(1)} {
		_, err = NewDetector(&Pair{Name: "p", Candidate: side, Obstacle: floor, Alert: 0.01, Mu: mu})
		assert.ErrorContains(t, err, fmt.Sprintf("mu = %g: expected a value in [0, 1000]", mu))
	}
	_, err = NewDetector(&Pair{Name: "p", Candidate: side, Obstacle: floor, Alert: 0.01, Mu: MaxMu})
	assert.NoError(t, err)
}

// TestPairFrictionIsTheDetectors: a pair's friction coefficients are read
// when the Detector is made: changing the caller's pair, or the number
// its MuDynamic points at, afterwards (0.9 against a static 0.5, or NaN)
// reaches no unit (it was taken silently, or failed at step 2 naming
// "contact 0").
func TestPairFrictionIsTheDetectors(t *testing.T) {
	mb, err := mesh.Rectangle([2]float64{0, 0}, 0.12, 0.04, 6, 2, mesh.Q4)
	require.NoError(t, err)
	ma, err := mesh.Rectangle([2]float64{0.031, 0.0402}, 0.04, 0.04, 3, 2, mesh.Q4)
	require.NoError(t, err)
	da, err := assemble.NewDOFMap(ma, nil)
	require.NoError(t, err)
	db, err := assemble.NewDOFMap(mb, nil)
	require.NoError(t, err)
	a, err := NewSide(0, ma, da, "bottom", 0.01)
	require.NoError(t, err)
	b, err := NewSide(1, mb, db, "top", 0.01)
	require.NoError(t, err)
	dynamic := 0.2
	p := &Pair{Name: "ab", Candidate: a, Antagonist: b, Mu: 0.5, MuDynamic: &dynamic, Alert: 1e-3}
	d, err := NewDetector(p)
	require.NoError(t, err)
	for _, change := range []float64{0.9, math.NaN()} {
		dynamic, p.Mu = change, change
		units, _, err := d.Detect(Config{})
		require.NoError(t, err)
		require.NotEmpty(t, units)
		for _, u := range units {
			assert.Equal(t, 0.5, u.Mu)
			assert.Equal(t, 0.2, u.MuDynamic)
		}
	}
	plain, err := NewDetector(&Pair{Name: "ab", Candidate: a, Antagonist: b, Mu: 0.5, Alert: 1e-3})
	require.NoError(t, err)
	units, _, err := plain.Detect(Config{})
	require.NoError(t, err)
	assert.Equal(t, 0.5, units[0].MuDynamic, "none set: the static one")
}
