package timestep

import (
	"fmt"
	"math/rand/v2"
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

// stack builds `apart` blocks of one cell side by side on a floor, and a
// second block (its mesh identical, face to face, nodes on nodes) on the
// first: the units of the first two blocks are coupled through the first
// block's compliance, the others only among themselves.
func stack(t *testing.T, apart int) (*fe.Stepper, []contact.Unit) {
	mat := element.Elastic{E: 1e8, Nu: 0.3, Rho: 1000}
	var bodies []*fe.Body
	var sides []*contact.Side
	origins := [][2]float64{{0, 0.02}}
	for k := 0; k < apart; k++ {
		origins = append(origins, [2]float64{0.03 * float64(k), 0})
	}
	for k, x := range origins {
		m, err := mesh.Rectangle(x, 0.02, 0.02, 1, 1, mesh.Q4)
		require.NoError(t, err)
		s, err := assemble.NewSpace(m)
		require.NoError(t, err)
		b, err := fe.NewBody(fmt.Sprint("block", k), s, mat, fe.BodyOptions{})
		require.NoError(t, err)
		side, err := contact.NewSide(k, m, s.DOFs, "bottom", 1)
		require.NoError(t, err)
		bodies, sides = append(bodies, b), append(sides, side)
	}
	top, err := contact.NewSide(1, bodies[1].Space.Mesh, bodies[1].Space.DOFs, "top", 1)
	require.NoError(t, err)
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	pairs := []*contact.Pair{{Name: "on", Candidate: sides[0], Antagonist: top, OneWay: true}}
	for _, s := range sides[1:] {
		pairs = append(pairs, &contact.Pair{Name: "floor", Candidate: s, Obstacle: floor})
	}
	det, err := contact.NewDetector(pairs...)
	require.NoError(t, err)
	sim, err := NewSimulation(bodies, det, SimOptions{H: 1e-5})
	require.NoError(t, err)
	units, _, err := det.Detect(contact.Config{})
	require.NoError(t, err)
	return sim.Stepper, units
}

// TestDelassus checks W against its definition, column by column: the
// local velocities that a unit impulse on one unit causes on every unit,
// through full solves with Mhat. Five blocks apart make W sparse enough to
// be stored by blocks; two make it dense.
func TestDelassus(t *testing.T) {
	for _, tc := range []struct {
		apart  int
		sparse bool
	}{{1, false}, {4, true}} {
		st, units := stack(t, tc.apart)
		n := len(units)
		require.Equal(t, 2*(tc.apart+1), n, "two units per one-cell block")
		comps := make([]Compliance, st.NumBodies())
		for i := range comps {
			comps[i] = st.Compliance(i)
		}
		d, err := NewDelassus(comps...)
		require.NoError(t, err)
		W, err := d.Build(units)
		require.NoError(t, err)
		bs, isSparse := W.(*signorini.BlockSparse)
		require.Equal(t, tc.sparse, isSparse)
		if isSparse {
			// Units 0-3 (the upper block on the lower one, the lower one on
			// the floor) are coupled, every other block's two units too.
			assert.Equal(t, 4*3+(tc.apart-1)*2, bs.NumBlocks())
		}
		r, dv := make([][]float64, st.NumBodies()), make([][]float64, st.NumBodies())
		for b := range units {
			for c := 0; c < 2; c++ {
				for i := range r {
					r[i] = make([]float64, st.Body(i).Space.N())
					dv[i] = make([]float64, len(r[i]))
				}
				P := [2]float64{}
				P[c] = 1
				units[b].AddImpulse(r, P)
				for i := range r {
					st.Solve(i, dv[i], r[i])
				}
				for a := range units {
					U := units[a].Velocity(dv)
					U[0], U[1] = U[0]-units[a].Rigid[0], U[1]-units[a].Rigid[1]
					var got [2]float64
					if a == b {
						dg := W.Diag(a)
						got = [2]float64{dg[c], dg[2+c]}
					} else {
						rb := make([]float64, 2*n)
						rb[2*b+c] = 1
						got[0], got[1] = W.OffDiag(a, rb)
					}
					scale := W.Diag(b)[0]
					assert.InDelta(t, U[0], got[0], 1e-10*scale, "W[%d][%d] normal row, column %d", a, b, c)
					assert.InDelta(t, U[1], got[1], 1e-10*scale, "W[%d][%d] tangent row, column %d", a, b, c)
				}
			}
		}
	}
}

// TestDelassusErrors: a unit on an equation without compliance, and a
// compliance of the wrong size, are errors.
func TestDelassusErrors(t *testing.T) {
	_, err := NewDelassus(Compliance{Eqs: []int{0, 1}, C: []float64{1}})
	assert.ErrorContains(t, err, "1 values for 2 equations")
	d, err := NewDelassus(Compliance{Eqs: []int{0, 1}, C: []float64{1, 0, 0, 1}})
	require.NoError(t, err)
	_, err = d.Build([]contact.Unit{{Entries: []contact.Entry{{Body: 0, Eq: 2, N: 1}}}})
	assert.ErrorContains(t, err, "equation 2 of body 0 has no compliance")
}

// TestDelassusKeepsItsPattern: a Build whose units are on the same
// bodies as the last one's keeps its pattern, and W is to the bit what a
// fresh builder makes, through a change of the units' geometry, of their
// bodies, of their number, and a dense W (twice) between two sparse ones.
func TestDelassusKeepsItsPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const bodies = 24
	comps := make([]Compliance, bodies)
	for i := range comps {
		a, b, c := 1+rng.Float64(), 0.2*rng.Float64(), 1+rng.Float64()
		comps[i] = Compliance{Eqs: []int{0, 1, 2}, C: []float64{a, b, 0, b, c, 0, 0, 0, 0.5}}
	}
	// chain: units between bodies k and k+step.
	chain := func(n, step int) []contact.Unit {
		units := make([]contact.Unit, n)
		for a := range units {
			for _, body := range []int{a % bodies, (a + step) % bodies} {
				for eq := range 3 {
					units[a].Entries = append(units[a].Entries, contact.Entry{Body: body, Eq: eq, N: rng.NormFloat64(), T: rng.NormFloat64()})
				}
			}
		}
		return units
	}
	d, err := NewDelassus(comps...)
	require.NoError(t, err)
	a := chain(20, 1)
	for _, tc := range []struct {
		name  string
		units []contact.Unit
	}{
		{"first", a},
		{"the same units", a},
		{"the same bodies, moved", chain(20, 1)},
		{"other bodies", chain(20, 3)},
		{"fewer units", chain(12, 3)},
		{"dense", chain(3, 1)},
		{"dense on the same bodies", chain(3, 1)},
		{"sparse again", chain(20, 1)},
	} {
		got, err := d.Build(tc.units)
		require.NoError(t, err, tc.name)
		fresh, err := NewDelassus(comps...)
		require.NoError(t, err)
		want, err := fresh.Build(tc.units)
		require.NoError(t, err, tc.name)
		require.IsType(t, want, got, tc.name)
		n := len(tc.units)
		x, gy, wy := make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n)
		for j := range x { // W e_j, column by column, to the bit
			x[j] = 1
			for c := range n {
				gy[2*c], gy[2*c+1] = got.OffDiag(c, x)
				wy[2*c], wy[2*c+1] = want.OffDiag(c, x)
				gd, wd := got.Diag(c), want.Diag(c)
				gy[2*c] += gd[0]*x[2*c] + gd[1]*x[2*c+1]
				gy[2*c+1] += gd[2]*x[2*c] + gd[3]*x[2*c+1]
				wy[2*c] += wd[0]*x[2*c] + wd[1]*x[2*c+1]
				wy[2*c+1] += wd[2]*x[2*c] + wd[3]*x[2*c+1]
			}
			require.Equal(t, wy, gy, "%s: column %d", tc.name, j)
			x[j] = 0
		}
		if s, ok := want.(*signorini.BlockSparse); ok {
			assert.Equal(t, s.NumBlocks(), got.(*signorini.BlockSparse).NumBlocks(), tc.name)
		}
	}
}

// TestDelassusFollowsItsCompliance: a compliance changed in place between
// two Builds on the same units (a hyperelastic body's new tangent), from
// diagonal to coupled, gives the W of the new compliance, as a fresh
// builder makes it: sparse, on bodies of two equations.
func TestDelassusFollowsItsCompliance(t *testing.T) {
	const bodies = 8
	comps := make([]Compliance, bodies)
	for i := range comps {
		comps[i] = Compliance{Eqs: []int{0, 1}, C: []float64{2 + float64(i), 0, 0, 3}}
	}
	var units []contact.Unit
	for a := range bodies - 1 { // a chain: unit a on bodies a and a+1
		units = append(units, contact.Unit{Entries: []contact.Entry{
			{Body: a, Eq: 0, N: 1, T: 0.5}, {Body: a, Eq: 1, N: -0.25, T: 1},
			{Body: a + 1, Eq: 0, N: -1, T: 0.125}, {Body: a + 1, Eq: 1, N: 0.75, T: -1}}})
	}
	d, err := NewDelassus(comps...)
	require.NoError(t, err)
	_, err = d.Build(units)
	require.NoError(t, err)
	comps[3].C[1], comps[3].C[2] = 0.7, 0.7
	got, err := d.Build(units)
	require.NoError(t, err)
	require.IsType(t, &signorini.BlockSparse{}, got)
	// W_ba = sum over bodies of h_b' C h_a, from its definition.
	n := len(units)
	want := make([][4]float64, n*n)
	for b := range units {
		for a := range units {
			for _, eb := range units[b].Entries {
				for _, ea := range units[a].Entries {
					if ea.Body != eb.Body {
						continue
					}
					c := comps[ea.Body].C[2*eb.Eq+ea.Eq]
					w := &want[b*n+a]
					w[0] += eb.N * c * ea.N
					w[1] += eb.N * c * ea.T
					w[2] += eb.T * c * ea.N
					w[3] += eb.T * c * ea.T
				}
			}
		}
	}
	x := make([]float64, 2*n)
	for b := range units {
		d := got.Diag(b)
		assert.InDeltaSlice(t, want[b*n+b][:], d[:], 1e-12, "W_%d%d", b, b)
		for a := range units {
			if a == b {
				continue
			}
			for c := range 2 {
				x[2*a+c] = 1
				un, ut := got.OffDiag(b, x)
				assert.InDeltaSlice(t, []float64{want[b*n+a][c], want[b*n+a][2+c]}, []float64{un, ut}, 1e-12, "W_%d%d column %d", b, a, c)
				x[2*a+c] = 0
			}
		}
	}
}

// TestDelassusSmallBodiesToTheBit: on bodies of at most three equations
// (rigid bodies, point masses) W is, to the bit, its definition summed in
// the general loop's order: body by body, a unit's entries in their order
// (a history must not move with the loop that fills W). The bodies have
// one, two and three equations and full or diagonal compliances; units
// miss entries
// or touch one body only; one body lists its equations out of order,
// which the general loop serves.
func TestDelassusSmallBodiesToTheBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const bodies, n = 24, 30
	comps := make([]Compliance, bodies)
	for i := range comps {
		nb := 1 + i%3
		c := Compliance{Eqs: []int{0, 1, 2}[:nb], C: make([]float64, nb*nb)}
		if i == 5 {
			c.Eqs = []int{2, 0, 1}
		}
		for k := range nb {
			for l := range k + 1 {
				v := 0.3 * rng.Float64()
				if k == l {
					v += 1
				} else if i%4 == 3 {
					v = 0 // a diagonal compliance: a rigid body's
				}
				c.C[k*nb+l], c.C[l*nb+k] = v, v
			}
		}
		comps[i] = c
	}
	units := make([]contact.Unit, n)
	for a := range units {
		on := []int{min(a%bodies, (7*a+3)%bodies), max(a%bodies, (7*a+3)%bodies)}
		if a%5 == 0 || on[0] == on[1] {
			on = on[1:]
		}
		for _, body := range on {
			for eq := range len(comps[body].Eqs) {
				if eq > 0 && rng.IntN(4) == 0 {
					continue // a missing entry
				}
				units[a].Entries = append(units[a].Entries, contact.Entry{Body: body, Eq: eq, N: rng.NormFloat64(), T: rng.NormFloat64()})
			}
		}
	}
	// The definition, in the general loop's order.
	want := make([][4]float64, n*n) // row b, column a
	for body, c := range comps {
		nb := len(c.Eqs)
		pos := map[int]int{}
		for k, e := range c.Eqs {
			pos[e] = k
		}
		var touching []int
		cols := map[int][2][]float64{}
		for a := range units {
			cn, ct, on := make([]float64, nb), make([]float64, nb), false
			for _, e := range units[a].Entries {
				if e.Body == body {
					k := pos[e.Eq]
					for i := range nb {
						cn[i] += e.N * c.C[k*nb+i]
						ct[i] += e.T * c.C[k*nb+i]
					}
					on = true
				}
			}
			if on {
				touching, cols[a] = append(touching, a), [2][]float64{cn, ct}
			}
		}
		for _, b := range touching {
			for _, e := range units[b].Entries {
				if e.Body != body {
					continue
				}
				k := pos[e.Eq]
				for _, a := range touching {
					cn, ct := cols[a][0][k], cols[a][1][k]
					blk := &want[b*n+a]
					blk[0] += e.N * cn
					blk[1] += e.N * ct
					blk[2] += e.T * cn
					blk[3] += e.T * ct
				}
			}
		}
	}
	d, err := NewDelassus(comps...)
	require.NoError(t, err)
	W, err := d.Build(units)
	require.NoError(t, err)
	require.IsType(t, &signorini.BlockSparse{}, W)
	x := make([]float64, 2*n)
	for a := range n {
		for c := range 2 {
			x[2*a+c] = 1
			for b := range n {
				var got [2]float64
				if a == b {
					dg := W.Diag(b)
					got = [2]float64{dg[c], dg[2+c]}
				} else {
					got[0], got[1] = W.OffDiag(b, x)
				}
				w := want[b*n+a]
				require.Equal(t, [2]float64{w[c], w[2+c]}, got, "W[%d][%d], column %d", b, a, c)
			}
			x[2*a+c] = 0
		}
	}
}
