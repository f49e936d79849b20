package discrete_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/internal/analytic"
	"github.com/fecontact/fecontact/timestep"
)

// simulate builds a simulation of the system alone and checks, after
// every one of steps steps, that the ledger holds (contact never creates
// energy: the balance never rises by more than round-off); each (if set)
// sees every step.
func simulate(t *testing.T, sys *discrete.System, h, theta float64, steps int, each func(i int, sim *timestep.Simulation)) *timestep.Simulation {
	t.Helper()
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Theta: theta, Points: sys, Strict: true})
	require.NoError(t, err)
	e0 := sim.TotalEnergy()
	scale := math.Max(1e-12, e0.Kinetic+e0.Elastic)
	for i := range steps {
		_, err := sim.Step()
		require.NoError(t, err)
		e := sim.TotalEnergy()
		require.LessOrEqual(t, e.Balance()-e0.Balance(), 1e-10*math.Max(scale, math.Abs(e.External)), "step %d: energy created", i+1)
		require.LessOrEqual(t, e.Contact, 1e-12*math.Max(scale, math.Abs(e.External)), "step %d: contact did positive work", i+1)
		if each != nil {
			each(i, sim)
		}
	}
	return sim
}

// TestOscillator: a mass on an anchored spring (m = 2, k = 800: omega = 20
// rad/s), started at its rest position at 0.3 m/s, at theta = 1/2 over ten
// periods: the period, from the up-crossings of the rest position, is
// 2 pi / omega to 1e-6 (the scheme's own error, (omega h)^2 / 12, is
// 3.3e-8 at h = 1.25e-5 T), the amplitude v0 / omega to 1e-6, and the
// energy kinetic + elastic stays at m v0^2 / 2 to 1e-12. Along x and
// along a slanted spring: the stiffness acts along the spring only.
func TestOscillator(t *testing.T) {
	const m, k, v0 = 2.0, 800.0, 0.3
	omega := math.Sqrt(k / m)
	period := 2 * math.Pi / omega
	for _, dir := range [][2]float64{{1, 0}, {0.6, 0.8}} {
		mass := &discrete.Mass{Name: "bob", M: m, X: [2]float64{dir[0], dir[1]}, V: [2]float64{v0 * dir[0], v0 * dir[1]}}
		// The anchor at the origin: the spring along dir, at its rest length.
		sys, err := discrete.NewSystem([]*discrete.Mass{mass}, []discrete.Spring{{Name: "s", A: 0, B: discrete.Anchored, K: k}}, nil)
		require.NoError(t, err)
		h := period / 2000
		var ups []float64
		var peak float64
		prev := 0.0
		simulate(t, sys, h, 0.5, 20000, func(i int, sim *timestep.Simulation) {
			s := (mass.X[0]-dir[0])*dir[0] + (mass.X[1]-dir[1])*dir[1] // along the spring
			if prev < 0 && s >= 0 {
				ups = append(ups, (float64(i)+(-prev)/(s-prev))*h)
			}
			prev, peak = s, math.Max(peak, math.Abs(s))
			e := sim.TotalEnergy()
			require.InDelta(t, m*v0*v0/2, e.Kinetic+e.Elastic, 1e-12, "step %d: energy", i+1)
		})
		require.GreaterOrEqual(t, len(ups), 9)
		measured := (ups[len(ups)-1] - ups[0]) / float64(len(ups)-1)
		assert.InEpsilon(t, period, measured, 1e-6, "period along %v", dir)
		assert.InEpsilon(t, v0/omega, peak, 1e-6, "amplitude along %v", dir)
		// Across the spring nothing holds the mass: it keeps no velocity there.
		across := -mass.V[0]*dir[1] + mass.V[1]*dir[0]
		assert.InDelta(t, 0, across, 1e-12)
	}
}

// TestPointImpact: a point mass hits a rough plane (nu = 0.4) at incidence
// angles on both sides of tan beta = nu, from a gap of 0.3 h |u_N| and
// from gap 0: after the impact it moves along the plane at [TG] eq.
// 3.44's velocity, |u-| (sin beta - nu cos beta) when it slides and 0 when
// it sticks, to 1e-6 of its speed: under the Shock law (inelastic,
// restitution 0) at theta = 1/2 and under the positional law at theta = 1
// (at 1/2 that law is elastic: the gap stays closed at mid-step).
func TestPointImpact(t *testing.T) {
	const nu, speed, h = 0.4, 2.0, 1e-4
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-10, 0}, {10, 0}}} // solid below
	laws := []struct {
		law   contact.Law
		theta float64
	}{{contact.Shock, 0.5}, {contact.Positional, 1}}
	for _, lw := range laws {
		for _, deg := range []float64{5, 15, 20, 21.5, 22.5, 30, 45, 70} { // atan(0.4) = 21.8 degrees
			for _, gap := range []float64{0.3 * h * speed, 0} {
				beta := deg * math.Pi / 180
				uN, uT := -speed*math.Cos(beta), speed*math.Sin(beta)
				mass := &discrete.Mass{Name: "p", M: 0.5, X: [2]float64{0, gap}, V: [2]float64{uT, uN}}
				sys, err := discrete.NewSystem([]*discrete.Mass{mass}, nil,
					[]discrete.Contact{{Name: "floor", Obstacle: floor, Mu: nu, Law: lw.law}})
				require.NoError(t, err)
				sim := simulate(t, sys, h, lw.theta, 5, nil)
				want := analytic.PointImpact(uN, uT, nu)
				lost := 0.5 * 0.5 * (want[0]*want[0] + want[1]*want[1] - speed*speed)
				if lw.theta == 0.5 { // at theta = 1 the numerical dissipation takes part of it
					assert.InDelta(t, lost, sim.TotalEnergy().Contact, 1e-6*0.5*speed*speed, "%v at %g degrees: contact work is the kinetic energy lost", lw.law, deg)
				}
				assert.InDelta(t, want[1], mass.V[0], 1e-6*speed, "%v at %g degrees from gap %g: tangential", lw.law, deg, gap)
				assert.InDelta(t, want[0], mass.V[1], 1e-6*speed, "%v at %g degrees from gap %g: normal", lw.law, deg, gap)
				assert.GreaterOrEqual(t, mass.X[1], -1e-12, "in the floor")
			}
		}
	}
}

// TestRestingUnderSpring: a mass (2 kg/m) on a floor, pulled up by an
// anchored spring of 500 N/m stretched 2 cm (10 N/m), down by gravity
// (19.62 N/m) and sideways and down by an applied force (1, -3) N/m,
// which friction (mu = 0.3) holds, rests: the floor's reaction is the
// opposite of their sum, (-1, 12.62) N/m, to 1e-9, and the mass does not
// move.
func TestRestingUnderSpring(t *testing.T) {
	const m, k, stretch, g = 2.0, 500.0, 0.02, 9.81
	rest := 0.5 - stretch
	mass := &discrete.Mass{Name: "p", M: m, X: [2]float64{0, 0}, Gravity: [2]float64{0, -g}, Force: [2]float64{1, -3}}
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	sys, err := discrete.NewSystem([]*discrete.Mass{mass},
		[]discrete.Spring{{Name: "hanger", A: 0, B: discrete.Anchored, Anchor: [2]float64{0, 0.5}, K: k, Rest: &rest}},
		[]discrete.Contact{{Name: "floor", Obstacle: floor, Mu: 0.3}})
	require.NoError(t, err)
	sim := simulate(t, sys, 1e-3, 0.5, 200, nil)
	var reaction [2]float64
	for _, c := range sim.Contacts() {
		f := sim.Force(c)
		reaction[0] += f[0]
		reaction[1] += f[1]
	}
	assert.InDelta(t, m*g-k*stretch+3, reaction[1], 1e-9*m*g)
	assert.InDelta(t, -1, reaction[0], 1e-9*m*g)
	assert.InDelta(t, 0, mass.X[0], 1e-12)
	assert.InDelta(t, 0, mass.X[1], 1e-12)
}

// TestLedgerCloses: two masses joined by a damped spring with a preload
// (rest length 0.8 of 1 m), one anchored by a Klarbring-like matrix
// spring, under gravity and a force, at theta = 0.75: every account moves
// (damping, the numerical dissipation of theta > 1/2, external work), and
// kinetic + elastic + damping + numerical - external stays at its initial
// value to 1e-12 of the energies exchanged; damping and numerical
// dissipation are positive. The components are one (the two masses).
func TestLedgerCloses(t *testing.T) {
	rest := 0.8
	a := &discrete.Mass{Name: "a", M: 1, X: [2]float64{0, 1}, V: [2]float64{0.5, -0.2}, Gravity: [2]float64{0, -9.81}}
	b := &discrete.Mass{Name: "b", M: 3, X: [2]float64{1, 1}, Force: [2]float64{2, 1}}
	sys, err := discrete.NewSystem([]*discrete.Mass{a, b}, []discrete.Spring{
		{Name: "ab", A: 0, B: 1, K: 300, Rest: &rest, Damping: 4},
		{Name: "klarbring", A: 0, B: discrete.Anchored, Anchor: [2]float64{0, 1}, Matrix: &[2][2]float64{{200, 80}, {80, 100}}, Damping: 1},
	}, nil)
	require.NoError(t, err)
	require.Equal(t, 1, sys.Len())
	sim := simulate(t, sys, 1e-3, 0.75, 3000, nil)
	e := sim.TotalEnergy()
	e0 := 300 * 0.2 * 0.2 / 2
	exchanged := math.Abs(e.External) + e.Damping + e.Numerical + e0
	assert.InDelta(t, e0+kineticOf(0.5, -0.2), e.Balance(), 1e-12*exchanged, "ledger: %+v", e)
	assert.Greater(t, e.Damping, 0.0)
	assert.Greater(t, e.Numerical, 0.0)
}

func kineticOf(vx, vy float64) float64 { return (vx*vx + vy*vy) / 2 } // of mass a, 1 kg/m

// TestPointRestitution: a mass falling at 1 m/s onto a frictionless plane
// under the Shock law with restitution e (dissipation index delta: e =
// (1 - delta) / (1 + delta)) leaves it at e m/s; contact takes
// (1 - e^2) of its kinetic energy and never gives any.
func TestPointRestitution(t *testing.T) {
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	for _, e := range []float64{0, 1.0 / 3, 1} {
		mass := &discrete.Mass{Name: "p", M: 2, X: [2]float64{0, 1e-5}, V: [2]float64{0, -1}}
		sys, err := discrete.NewSystem([]*discrete.Mass{mass}, nil, []discrete.Contact{{Name: "floor", Obstacle: floor, Law: contact.Shock, Restitution: e}})
		require.NoError(t, err)
		sim := simulate(t, sys, 1e-4, 0.5, 10, nil)
		assert.InDelta(t, e, mass.V[1], 1e-9, "e = %g", e)
		assert.InDelta(t, -(1-e*e)*1, sim.TotalEnergy().Contact, 1e-9, "e = %g: contact work", e)
	}
}

// TestHostileValues: a speed of 1e300 is refused when the system is built;
// a stiffness of 1e300 along one direction makes a matrix no step can
// solve, refused by name when the simulation is built; an isotropic one
// that overflows a step's arithmetic stops the step with an error naming
// the mass, not a NaN in the contact problem.
func TestHostileValues(t *testing.T) {
	_, err := discrete.NewSystem([]*discrete.Mass{{Name: "bob", M: 1, V: [2]float64{1e300, 0}}}, nil, nil)
	require.ErrorContains(t, err, `mass 1 "bob": velocity [1e+300 0] m/s: expected finite numbers within +-1e+15`)
	bob := &discrete.Mass{Name: "bob", M: 1, X: [2]float64{0, 0.1}, V: [2]float64{1e14, 0}}
	stiff, err := discrete.NewSystem([]*discrete.Mass{bob}, []discrete.Spring{{Name: "s", A: 0, B: discrete.Anchored, Anchor: [2]float64{0, 1}, K: 1e300}}, nil)
	require.NoError(t, err)
	_, err = timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Points: stiff})
	require.ErrorContains(t, err, `the masses of "bob": M + h theta C + h^2 theta^2 K cannot be inverted to working precision (condition number 2.5e+293)`)
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	// A zero-length spring (isotropic): its M + h^2 theta^2 K is well
	// conditioned, but K h theta v overflows.
	sys, err := discrete.NewSystem([]*discrete.Mass{bob}, []discrete.Spring{{Name: "s", A: 0, B: discrete.Anchored, Anchor: bob.X, K: 1e300}},
		[]discrete.Contact{{Name: "floor", Obstacle: floor}})
	require.NoError(t, err)
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Points: sys})
	require.NoError(t, err)
	_, err = sim.Step()
	require.ErrorContains(t, err, `mass "bob" at t = 0 s: its free velocity is`)
	require.ErrorContains(t, err, "overflows the step's arithmetic")
}

// TestTwoMassesOneContact: two masses of one contact, dropped from 1 cm
// and 2 cm onto a floor (the shock law), each lands and rests on it at its
// own place: each unit acts on its own mass.
func TestTwoMassesOneContact(t *testing.T) {
	a := &discrete.Mass{Name: "a", M: 1, X: [2]float64{-0.5, 0.01}, Gravity: [2]float64{0, -9.81}}
	b := &discrete.Mass{Name: "b", M: 3, X: [2]float64{0.5, 0.02}, Gravity: [2]float64{0, -9.81}}
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	sys, err := discrete.NewSystem([]*discrete.Mass{a, b}, nil, []discrete.Contact{{Name: "floor", Obstacle: floor, Mu: 0.3, Law: contact.Shock}})
	require.NoError(t, err)
	sim := simulate(t, sys, 1e-4, 0.5, 2000, nil)
	for _, m := range []*discrete.Mass{a, b} {
		assert.InDelta(t, 0, m.X[1], 1e-4, "%s on the floor", m.Name)
		assert.InDelta(t, 0, m.V[1], 1e-9, "%s at rest", m.Name)
	}
	f, closed := sim.PointForces()
	assert.Equal(t, []int{2}, closed)
	assert.InEpsilon(t, 4*9.81, f[0][1], 1e-9, "the floor carries both")
}

// TestFastMassLands: a mass 0.1 m above a plane at 200 and 500 m/s, with
// steps of 1 ms (it crosses the gap in a fifth to a half of one), lands
// on the plane at its slop and stops there, under either law: its impact
// is resolved at the instant it closes the gap (it stopped dead 0.1 m
// above the plane, and at 500 m/s the law absorbed 62.5 kJ in mid-air).
func TestFastMassLands(t *testing.T) {
	for _, law := range []contact.Law{contact.Shock, contact.Positional} {
		for _, v := range []float64{200, 500} {
			m := &discrete.Mass{Name: "m", M: 1, X: [2]float64{0, 0.1}, V: [2]float64{0, -v}}
			plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-1, 0}, {1, 0}}}
			sys, err := discrete.NewSystem([]*discrete.Mass{m}, nil, []discrete.Contact{{Name: "p", Obstacle: plane, Law: law}})
			require.NoError(t, err)
			sim := simulate(t, sys, 1e-3, 0.5, 5, nil)
			assert.InDelta(t, 0, m.X[1], 1e-7, "%v at %g m/s: on the plane", law, v)
			assert.Equal(t, [2]float64{}, m.V, "%v at %g m/s: stopped", law, v)
			assert.InDelta(t, -v*v/2, sim.NormalWork, 1e-9*v*v, "%v at %g m/s: the impact took the kinetic energy", law, v)
		}
	}
}

// TestPointContactBounds: a point contact's alert distance and a mass's
// radius beyond what contact can mean are refused, saying why (an alert
// of 1e10 m, whose slop was 1e5 m, or a radius of 1e300 m made a mass
// rest above a plane).
func TestPointContactBounds(t *testing.T) {
	plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-1, 0}, {1, 0}}}
	_, err := discrete.NewSystem([]*discrete.Mass{{Name: "m", M: 1, X: [2]float64{0, 0.1}}}, nil,
		[]discrete.Contact{{Name: "p", Obstacle: plane, Alert: 1e10}})
	assert.ErrorContains(t, err, `point contact 1 "p": alert distance 1e+10 m: at most 2 m (1000 times its default`)
	_, err = discrete.NewSystem([]*discrete.Mass{{Name: "m", M: 1, X: [2]float64{0, 0.1}, Radius: 1e300}}, nil, nil)
	assert.ErrorContains(t, err, `mass 1 "m": radius 1e+300 m: at most 1e+06 m`)
}

// TestStartsInsideRefused: a mass that starts inside an obstacle deeper
// than its contact sees (it fell through unseen, without a word) is
// refused at the first step, naming it; one on the surface, just inside
// (pushed out), above it, beyond its end, or in a container (a polyline
// turning counter-clockwise: solid on its right, outside) runs.
func TestStartsInsideRefused(t *testing.T) {
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	box := &contact.Obstacle{Name: "container", Points: [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}}
	for _, tc := range []struct {
		name string
		obst *contact.Obstacle
		y    float64
		want string
	}{
		{"deep under a floor", floor, -0.05, `mass 1 "m" starts inside what point contact 1 "c" touches: its centre (0, -0.05) is 0.05 m deep, past the 0.002 m`},
		{"on a floor", floor, 0, ""},
		{"within the alert", floor, -0.001, ""},
		{"above a floor", floor, 0.5, ""},
		{"beyond a floor's end", floor, -0.05, ""},
		{"in a container's middle", box, 0, ""},
		{"outside a container", box, 1.5, `mass 1 "m" starts inside what point contact 1 "c" touches: its centre (0, 1.5) is 0.5 m deep`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := 0.0
			if tc.name == "beyond a floor's end" {
				x = 1.5
			}
			m := &discrete.Mass{Name: "m", M: 1, X: [2]float64{x, tc.y}}
			sys, err := discrete.NewSystem([]*discrete.Mass{m}, nil, []discrete.Contact{{Name: "c", Obstacle: tc.obst}})
			require.NoError(t, err)
			sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Points: sys})
			require.NoError(t, err)
			_, err = sim.Step()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// TestContactFrictionIsTheSystems: a point contact's friction
// coefficients and masses are read when the System is made: changing
// what the caller gave afterwards reaches no unit.
func TestContactFrictionIsTheSystems(t *testing.T) {
	m := &discrete.Mass{Name: "m", M: 1, X: [2]float64{0, 0}}
	floor := &contact.Obstacle{Name: "floor", Points: [][2]float64{{-1, 0}, {1, 0}}}
	dynamic := 0.2
	masses := []int{0}
	cs := []discrete.Contact{{Name: "floor", Obstacle: floor, Mu: 0.5, MuDynamic: &dynamic, Masses: masses}}
	sys, err := discrete.NewSystem([]*discrete.Mass{m}, nil, cs)
	require.NoError(t, err)
	dynamic, cs[0].Mu, masses[0] = math.NaN(), 0.9, 5
	units, _, err := sys.Detect(0, contact.Config{})
	require.NoError(t, err)
	require.Len(t, units, 1)
	assert.Equal(t, 0.5, units[0].Mu)
	assert.Equal(t, 0.2, units[0].MuDynamic)
}

// TestSystemIsOneSimulations: one System given to a second simulation is
// refused (the second moved its masses on its own clock).
func TestSystemIsOneSimulations(t *testing.T) {
	m := &discrete.Mass{Name: "m", M: 1, X: [2]float64{0, 1}, Gravity: [2]float64{0, -9.81}}
	sys, err := discrete.NewSystem([]*discrete.Mass{m}, nil, nil)
	require.NoError(t, err)
	_, err = timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Points: sys})
	require.NoError(t, err)
	_, err = timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-2, Points: sys})
	assert.ErrorContains(t, err, "discrete: the point masses are a simulation's already (step 0.001 s): make a System for each simulation")
}

// TestRestitutionNoMidAirTurn: a mass falling on a plane under gravity
// with a restitution, at speeds whose free flight closes the gap just
// after a step's end (within |g| h^2 / 2 of it), flies on and lands: it
// never turns back above the plane (at 99.990-99.994 m/s from 0.1 m it
// ended step 1 at 6.7 cm going up at 33.3 m/s), its rebound is e times
// its landing speed, and contact creates no energy.
func TestRestitutionNoMidAirTurn(t *testing.T) {
	const h, e, g0 = 1e-3, 1.0 / 3, 9.81
	plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-1, 0}, {1, 0}}}
	for v := 99.985; v <= 99.9995; v += 0.001 {
		mass := &discrete.Mass{Name: "m", M: 1, X: [2]float64{0, 0.1}, V: [2]float64{0, -v}, Gravity: [2]float64{0, -g0}}
		sys, err := discrete.NewSystem([]*discrete.Mass{mass}, nil, []discrete.Contact{{Name: "plane", Obstacle: plane, Law: contact.Shock, Restitution: e}})
		require.NoError(t, err)
		var landing float64
		x, vy := mass.X[1], mass.V[1]
		sim := simulate(t, sys, h, 0.5, 3, func(i int, sim *timestep.Simulation) {
			if landing == 0 && mass.V[1] > 0 {
				// It turned back in step i: its free flight from the
				// step's start reaches the plane in the step.
				end := x + vy*h - g0*h*h/2
				assert.LessOrEqual(t, end, 1e-7, "v = %.4f: turned back at step %d, its free flight %g m above the plane at the step's end", v, i, end)
				landing = math.Sqrt(v*v + 2*g0*0.1) // the free flight's from 0.1 m
			}
			x, vy = mass.X[1], mass.V[1]
		})
		require.NotZero(t, landing, "v = %.4f: it bounced", v)
		assert.InDelta(t, e*landing, mass.V[1]+2*g0*h, 0.05*e*landing, "v = %.4f: e times the landing speed", v)
		assert.LessOrEqual(t, sim.TotalEnergy().Contact, 0.0, "v = %.4f: contact creates no energy", v)
	}
}
