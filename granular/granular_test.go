package granular_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// TestRowBetweenWalls: two disks of radius 1 in a row between walls
// pushed together by 10 N/m (a sample made by hand): the stress is the
// walls' force over the region's height, compressive along x only; every
// normal along x (fabric xx 1, anisotropy 2); Z = 2 contacts a grain
// (2 N_c / N_g = 3, a wall's contact two ends); both grains carry two contacts, no rattler under friction; a
// third grain touching nothing is one; the friction mobilised is the
// tangential force over mu times the normal one.
func TestRowBetweenWalls(t *testing.T) {
	wall := granular.Grain{Driven: true}
	s := granular.Sample{
		Grains: []granular.Grain{wall, {X: [2]float64{1, 1}, Area: math.Pi, Radius: 1}, {X: [2]float64{3, 1}, Area: math.Pi, Radius: 1}, wall,
			{X: [2]float64{2, 3.5}, Area: math.Pi / 4, Radius: 0.5}},
		Contacts: []granular.Contact{
			{A: 1, B: 0, X: [2]float64{0, 1}, N: [2]float64{1, 0}, F: [2]float64{10, 2}, Mu: 0.5},
			{A: 2, B: 1, X: [2]float64{2, 1}, N: [2]float64{1, 0}, F: [2]float64{10, 0}, Mu: 0.5},
			{A: 2, B: 3, X: [2]float64{4, 1}, N: [2]float64{-1, 0}, F: [2]float64{-10, -2}, Mu: 0.5},
		},
	}
	r := granular.Region{X0: 0, X1: 4, Y0: 0, Y1: 4}
	m := granular.Measure(s, r)
	assert.Equal(t, 3, m.Grains)
	assert.Equal(t, 3, m.Contacts)
	assert.InDelta(t, 4.0/3, m.Z, 1e-15, "2 + 2 + 0 contacts / 3 grains")
	assert.InDelta(t, 2.0, m.Z2, 1e-15, "2 x 3 contact ends (a wall's too) / 3 grains")
	assert.Equal(t, 1, m.Rattlers, "the grain that touches nothing")
	assert.InDelta(t, 2.0, m.ZNoRattlers, 1e-15, "2 + 2 / 2")
	assert.InDelta(t, 3.0, m.Z2NoRattlers, 1e-15, "2 x 3 / 2")
	assert.InDelta(t, (2*math.Pi+0.25*math.Pi)/16, m.SolidFraction, 1e-15)
	assert.Equal(t, [3]float64{1, 0, 0}, m.Fabric)
	assert.InDelta(t, 2.0, m.Anisotropy, 1e-15)
	// sigma_xx = (1/A) sum f_x l_x: grain 1: 10 x -1 (wall) + (-10) x 1;
	// grain 2: 10 x -1 + (-10) x 1; over A = 16.
	assert.InDelta(t, -40.0/16, m.Stress[0], 1e-14)
	assert.InDelta(t, -10.0/4, m.Stress[0], 1e-14, "the walls' force over the region's height, compression negative")
	assert.InDelta(t, 40.0/32, m.Pressure, 1e-14)
	assert.InDelta(t, 10.0, m.MeanFn, 1e-14)
	assert.InDelta(t, (0.4+0+0.4)/3, m.Mobilised, 1e-14, "|f_t| / (mu f_n): 2 / 5 at the walls")
	assert.Zero(t, m.Sliding)
}

// settled is piles.Deposit's n disks in their box, run under gravity
// with friction mu until at rest (steps of 1 ms).
func settled(t *testing.T, n int, mu float64, steps int) (*timestep.Simulation, *rigid.System, float64) {
	t.Helper()
	const rmax = 0.0075
	p := piles.Deposit(n, 1)
	var top float64
	for _, x := range p.X {
		top = max(top, x[1])
	}
	bodies, err := piles.Walls(p.Width, top+2*rmax, 2*rmax)
	require.NoError(t, err)
	for i, x := range p.X {
		b, err := rigid.NewBody(fmt.Sprintf("d%d", i), rigid.Disk{R: p.R[i]}, x, 2600)
		require.NoError(t, err)
		b.Gravity = [2]float64{0, -9.81}
		bodies = append(bodies, b)
	}
	sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: mu, Law: contact.Shock}}, 0.1*0.005)
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys,
		Solver: signorini.Options{Tol: 1e-6, Measure: signorini.VelocityChange}})
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	for range steps {
		_, err := sim.Step()
		require.NoError(t, err)
		require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9, "energy created")
	}
	return sim, sys, top + 2*rmax
}

// TestFrictionlessPackingIsIsostatic: 150 polydisperse disks without
// friction settled in a box: without rattlers, 2 N_c / N_g is 4 to 2 %
// (isostaticity in 2D: 2 N_g unknowns of position, N_c constraints); the
// Love-Weber stress over the box's interior has sigma_xx equal to the
// side walls' horizontal force over their height to 5e-6, and is
// symmetric to the same; the fabric's trace is 1; the normal forces over
// their mean have mean 1 and fall off beyond it (measured: Z 4.0000, 45
// rattlers of 150, 6.3 % of the forces past 3 <f_n>).
func TestFrictionlessPackingIsIsostatic(t *testing.T) {
	if testing.Short() {
		t.Skip("1 200 steps of 150 disks settling")
	}
	sim, sys, height := settled(t, 150, 0, 1200)
	require.Less(t, sim.TotalEnergy().Kinetic, 1e-8, "at rest")
	s, err := results.SampleOf(sim.Time(), rigid.Grid(sys).Piece(), results.ContactGrid(sim).Piece())
	require.NoError(t, err)
	right := sys.Bodies[2]
	width := right.Q[0] - 0.0075 // the right wall's face: its centre less half its thickness
	r := granular.Region{X0: 0, X1: width, Y0: 0, Y1: height}
	m := granular.Measure(s, r)
	t.Logf("%d grains, %d rattlers, Z %.4f, Z without rattlers %.4f, solid fraction %.4f, stress %v, p %.4g Pa", m.Grains, m.Rattlers, m.Z, m.ZNoRattlers, m.SolidFraction, m.Stress, m.Pressure)
	assert.InEpsilon(t, 4.0, m.Z2NoRattlers, 0.02, "isostatic: N_c = 2 N_g")
	assert.Less(t, m.ZNoRattlers, m.Z2NoRattlers, "a wall's contact is one contact of its grain")
	var fx float64 // the right wall's force on the grains
	for _, c := range s.Contacts {
		switch {
		case c.B == 2:
			fx += c.F[0]
		case c.A == 2:
			fx -= c.F[0]
		}
	}
	require.Negative(t, fx, "the wall pushes the grains left")
	// To the pile's rest: its contacts solved to the velocity measure's 1e-6.
	assert.InEpsilon(t, fx/height, m.Stress[0], 5e-6, "sigma_xx: the wall's force over its height")
	assert.InDelta(t, m.Stress[1], m.Stress[2], 1e-6*math.Abs(m.Stress[0]), "symmetric")
	assert.InDelta(t, 1.0, m.Fabric[0]+m.Fabric[2], 1e-15)
	d := granular.Forces(s, r, 0.25, 8)
	var mean float64
	for k, c := range d.Count {
		mean += float64(c) * (float64(k) + 0.5) * d.Width
	}
	mean /= float64(d.Contacts - d.Over)
	assert.InDelta(t, 1.0, mean, d.Width/2, "the mean of f_n / <f_n>, to the bins' width")
	above := func(x float64) float64 {
		n := d.Over
		for k, c := range d.Count {
			if float64(k)*d.Width >= x {
				n += c
			}
		}
		return float64(n) / float64(d.Contacts)
	}
	assert.Greater(t, above(1), above(2))
	assert.Greater(t, above(2), above(3))
	assert.Less(t, above(3), 0.1, "an exponential-like tail: few forces past 3 <f_n> (e^-3 = 0.05; gravity's pressure gradient widens it)")
}

// lattice is disks of radius 0.5 on a lattice of spacing 1 (square, or
// hexagonal), every neighbouring pair in contact with a normal force of
// 1 N/m along their line, frictional.
func lattice(hex bool, n int) granular.Sample {
	var s granular.Sample
	at := map[[2]int]int{}
	pos := func(i, j int) [2]float64 {
		if hex {
			return [2]float64{float64(i) + 0.5*float64(j%2), float64(j) * math.Sqrt(3) / 2}
		}
		return [2]float64{float64(i), float64(j)}
	}
	for j := range n {
		for i := range n {
			at[[2]int{i, j}] = len(s.Grains)
			s.Grains = append(s.Grains, granular.Grain{X: pos(i, j), Area: math.Pi / 4, Radius: 0.5})
		}
	}
	for a := range s.Grains {
		for b := a + 1; b < len(s.Grains); b++ {
			xa, xb := s.Grains[a].X, s.Grains[b].X
			d := math.Hypot(xb[0]-xa[0], xb[1]-xa[1])
			if math.Abs(d-1) > 1e-9 {
				continue
			}
			nrm := [2]float64{(xa[0] - xb[0]) / d, (xa[1] - xb[1]) / d} // towards A
			s.Contacts = append(s.Contacts, granular.Contact{A: a, B: b, X: [2]float64{(xa[0] + xb[0]) / 2, (xa[1] + xb[1]) / 2},
				N: nrm, F: nrm, Mu: 0.5})
		}
	}
	return s
}

// TestRegionCounts: in a region inside a lattice every grain counts its
// own contacts, a contact with a grain outside once (it counted twice):
// a square lattice's central 2 x 2 and a single grain give Z 4 and no
// rattler (6 and four rattlers before), a hexagonal bulk Z 6 with an
// isotropic fabric (anisotropy 0.055 before) whatever the box cuts.
func TestRegionCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		hex  bool
		r    granular.Region
		n, z float64
	}{
		{"square 2 x 2", false, granular.Region{X0: 1.5, X1: 3.5, Y0: 1.5, Y1: 3.5}, 4, 4},
		{"square one grain", false, granular.Region{X0: 2.5, X1: 3.5, Y0: 2.5, Y1: 3.5}, 1, 4},
		{"hexagonal bulk", true, granular.Region{X0: 2.2, X1: 5.3, Y0: 2.1, Y1: 5.2}, 0, 6},
		{"hexagonal thin strip", true, granular.Region{X0: 2.2, X1: 6.3, Y0: 3.4, Y1: 4.4}, 0, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := granular.Measure(lattice(tc.hex, 8), tc.r)
			if tc.n > 0 {
				assert.Equal(t, int(tc.n), m.Grains)
			}
			assert.InDelta(t, tc.z, m.Z, 1e-12)
			assert.InDelta(t, tc.z, m.ZNoRattlers, 1e-12)
			assert.Zero(t, m.Rattlers)
			assert.InDelta(t, tc.z, m.Z2, 1e-12, "no wall: 2 N_c / N_g is Z")
			if tc.hex {
				assert.InDelta(t, 0, m.Anisotropy, 1e-12, "an isotropic fabric")
			}
		})
	}
}

// TestSeriesMean: the mean over a window of rows known by hand: counts as
// real numbers (1.5 rattlers, not 1), the region as it is (it was summed
// into itself: 2R/n), the window's rows only.
func TestSeriesMean(t *testing.T) {
	sr := granular.NewSeries(granular.Options{From: 1, To: 2})
	r := granular.Region{X0: 0, X1: 2, Y0: 0, Y1: 1}
	for k, rows := range [][3]float64{{0, 9, 9}, {1, 1, 3}, {2, 2, 5}} { // time, rattlers, Z
		sr.Rows = append(sr.Rows, granular.Measures{T: rows[0], Region: r, Grains: 10 + k, Rattlers: int(rows[1]), Z: rows[2]})
	}
	m, n := sr.Mean()
	assert.Equal(t, 2, n)
	assert.Equal(t, 1.5, m.Rattlers)
	assert.Equal(t, 11.5, m.Grains)
	assert.Equal(t, 4.0, m.Z)
	assert.Equal(t, r, m.Region)
	assert.Equal(t, 2.0, m.T)
	assert.Contains(t, sr.Summary(), "11.5 grains, 1.5 rattlers, Z 4 ")
}
