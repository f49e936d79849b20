package fe

import (
	"bytes"
	"encoding/gob"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// velocityOf is a prescribed motion of a velocity history along x.
type velocityOf func(t float64) float64

func (f velocityOf) Velocity(t float64) [2]float64 { return [2]float64{f(t), 0} }
func (f velocityOf) Offset(float64) [2]float64     { return [2]float64{} } // not read by a driven group

// bar is a bar of length L along x, 0.05 m high (40 x 1 Q4 cells, plane
// stress, nu 0: uniaxial), its left end fixed in x and its right end
// driven along x by v (or the other way round, driveLeft).
func bar(t *testing.T, L float64, v velocityOf, driveLeft bool, opt BodyOptions) *Body {
	m, err := mesh.Rectangle([2]float64{}, L, 0.05, 40, 1, mesh.Q4)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m, assemble.Fix{Group: "left", Comp: assemble.X}, assemble.Fix{Group: "right", Comp: assemble.X})
	require.NoError(t, err)
	driven := "right"
	if driveLeft {
		driven = "left"
	}
	opt.Driven = []Driven{{Group: driven, Comp: assemble.X, Motion: v}}
	b, err := NewBody("bar", s, element.Elastic{E: 1e7, Nu: 0, Rho: 1000, PlaneStress: true}, opt)
	require.NoError(t, err)
	return b
}

// TestDrivenBarStretched: a bar's end driven along it by a velocity
// sin^2(pi t / T) V over T = 25 of the bar's periods, then held: the end
// is where the velocity's theta-rule integral puts it, to round-off; the
// bar stretches quasi-statically, its displacement linear along it within
// 1 % of the end's and its stored energy E A u^2 / 2 L within 1 %; the
// ledger, the whole body's energies against the reaction's work, closes
// to 1e-10 of the energy at every step. Mutants: the coupling's mass term
// or stiffness term left out, the reaction's work not booked: each fails.
func TestDrivenBarStretched(t *testing.T) {
	const L, A, E, V, h = 1.0, 0.05, 1e7, 1e-3, 1e-4
	const T = 25 * 4 * L / 100 // c = sqrt(E / rho) = 100 m/s
	v := velocityOf(func(t float64) float64 {
		if t >= T {
			return 0
		}
		s := math.Sin(math.Pi * t / T)
		return V * s * s
	})
	b := bar(t, L, v, false, BodyOptions{Damping: Rayleigh{Alpha: 2}})
	s, err := NewStepper(h, 0.5, b)
	require.NoError(t, err)
	var end float64 // the trapezoid rule's integral of v
	steps := int(math.Round(1.2 * T / h))
	for k := range steps {
		require.NoError(t, s.Step())
		t0, t1 := float64(k)*h, float64(k+1)*h
		end += h * (v(t0) + v(t1)) / 2
		e := s.TotalEnergy()
		require.InDelta(t, 0, e.Balance(), 1e-10*math.Max(e.External, 1e-12), "step %d: ledger", k+1)
	}
	u := b.Displacement()
	m := b.Space.Mesh
	for n, x := range m.Nodes {
		if x[0] == L {
			assert.InDelta(t, end, u[2*n], 1e-15, "the driven end")
		}
		assert.InDelta(t, end*x[0]/L, u[2*n], 0.01*end, "node %d at x = %g: linear along the bar", n, x[0])
	}
	e := s.TotalEnergy()
	t.Logf("end %.6g m (V T / 2 = %.6g), stored %.6g J against %.6g, kinetic %.3g J, damping %.3g J, reaction's work %.6g J",
		end, V*T/2, e.Elastic, E*A*end*end/(2*L), e.Kinetic, e.Damping, e.External)
	assert.InEpsilon(t, E*A*end*end/(2*L), e.Elastic, 0.01, "stored energy")
	assert.InDelta(t, e.Elastic+e.Kinetic+e.Damping, e.External, 1e-10*e.External, "the reaction's work is what the bar took")
}

// TestDrivenBarWave: a bar at rest whose end is set moving at V: the
// compression wave it sends carries the stress rho c V (the bar's
// impedance), so that until it reaches the far end the reaction does the
// work rho c A V^2 t, half of it kinetic and half stored (within 3 %: the
// discrete bar's front spreads over cells of 1/24 of its run); the
// particles behind the front move at V; the ledger's constant (the driven
// end's kinetic energy at the start, which set moving) holds to 1e-10.
func TestDrivenBarWave(t *testing.T) {
	const L, A, rho, V, h = 1.0, 0.05, 1000.0, 0.01, 2.5e-5
	const c = 100.0
	b := bar(t, L, func(float64) float64 { return V }, true, BodyOptions{})
	s, err := NewStepper(h, 0.5, b)
	require.NoError(t, err)
	e0 := s.TotalEnergy()
	require.Positive(t, e0.Kinetic, "the driven end moves at the start")
	tEnd := 0.6 * L / c
	for range int(math.Round(tEnd / h)) {
		require.NoError(t, s.Step())
	}
	e := s.TotalEnergy()
	work := rho * c * A * V * V * tEnd
	t.Logf("reaction's work %.6g J against rho c A V^2 t = %.6g, kinetic %.6g, stored %.6g", e.External, work, e.Kinetic, e.Elastic)
	assert.InEpsilon(t, work, e.External, 0.03, "the reaction's work")
	assert.InEpsilon(t, work/2, e.Kinetic, 0.03, "kinetic: half")
	assert.InEpsilon(t, work/2, e.Elastic, 0.03, "stored: half")
	assert.InDelta(t, e0.Balance(), e.Balance(), 1e-10*work, "ledger")
	vel := b.Velocity()
	var behind, n float64
	for i, x := range b.Space.Mesh.Nodes {
		if x[0] > 0.1*L && x[0] < 0.4*L {
			behind += vel[2*i]
			n++
		}
	}
	assert.InEpsilon(t, V, behind/n, 0.02, "the particles behind the front")
}

// TestDrivenStateResumes: a driven bar's state saved mid-run and loaded
// into a stepper built the same way goes on bit for bit; an impact on it
// between steps keeps its ledger closed (the driven nodes' reaction does
// work on the jump).
func TestDrivenStateResumes(t *testing.T) {
	v := velocityOf(func(t float64) float64 { return 0.01 * math.Sin(200*t) })
	build := func() (*Body, *Stepper) {
		b := bar(t, 1, v, false, BodyOptions{Damping: Rayleigh{Beta: 1e-5}})
		s, err := NewStepper(1e-4, 0.6, b)
		require.NoError(t, err)
		return b, s
	}
	a, sa := build()
	for range 100 {
		require.NoError(t, sa.Step())
	}
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(sa.state()))
	b, sb := build()
	var st stepperState
	require.NoError(t, gob.NewDecoder(&buf).Decode(&st))
	require.NoError(t, sb.setState(st))
	for range 100 {
		require.NoError(t, sa.Step())
		require.NoError(t, sb.Step())
	}
	assert.Equal(t, a.Q, b.Q)
	assert.Equal(t, a.V, b.V)
	assert.Equal(t, a.Displacement(), b.Displacement())
	assert.Equal(t, sa.TotalEnergy(), sb.TotalEnergy())

	sa.bodies[0].nodes = []int{40} // the bottom right node, next to the driven one
	_, err := sa.massCompliance(0)
	require.NoError(t, err)
	r := make([]float64, len(a.V))
	r[a.Space.DOFs.Eq[2*39]] = 0.3
	before := sa.TotalEnergy()
	require.NoError(t, sa.impact(0, r))
	after := sa.TotalEnergy()
	assert.NotEqual(t, before.External, after.External, "the driven nodes' reaction worked")
	assert.InDelta(t, before.Balance(), after.Balance(), 1e-12*after.Kinetic, "the ledger across an impact")
}

// TestDrivenRefused: driving a component the space leaves free, one
// driven twice, an unknown group, and a NaN velocity are refused naming
// what.
func TestDrivenRefused(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{}, 1, 0.1, 4, 1, mesh.Q4)
	require.NoError(t, err)
	s, err := assemble.NewSpace(m, assemble.Fix{Group: "left", Comp: assemble.XY})
	require.NoError(t, err)
	mat := element.Elastic{E: 1e7, Nu: 0.3, Rho: 1000}
	still := contact.Fixed{}
	for _, tc := range []struct {
		name   string
		opt    BodyOptions
		errMsg string
	}{
		{"free", BodyOptions{Driven: []Driven{{Group: "right", Comp: assemble.X, Motion: still}}}, "x is free in the body's space: fix it (assemble.Fix) to drive it"},
		{"twice", BodyOptions{Driven: []Driven{{Group: "left", Comp: assemble.X, Motion: still}, {Group: "left", Comp: assemble.XY, Motion: still}}}, "node 0's x is driven by another group too"},
		{"unknown", BodyOptions{Driven: []Driven{{Group: "nowhere", Comp: assemble.X, Motion: still}}}, "driven group: "},
		{"no motion", BodyOptions{Driven: []Driven{{Group: "left", Comp: assemble.X}}}, "driven group \"left\": no motion"},
	} {
		_, err := NewBody("b", s, mat, tc.opt)
		assert.ErrorContains(t, err, tc.errMsg, tc.name)
	}
	b, err := NewBody("b", s, mat, BodyOptions{Driven: []Driven{{Group: "left", Comp: assemble.Y, Motion: velocityOf(func(t float64) float64 { return t })}}})
	require.NoError(t, err)
	b.drive.motion[0] = contact.ConstantVelocity{V: [2]float64{0, math.NaN()}}
	st, err := NewStepper(1e-3, 0.5, b)
	require.NoError(t, err)
	assert.ErrorContains(t, st.Step(), "body b: node 0's driven y velocity at t = 0.001 is NaN")
}

// TestDrivenHyperelasticBar: a neo-Hookean bar (nu 0: no lateral strain)
// whose end is driven along it quasi-statically to a stretch of 1.2, then
// held: it stores mu/2 (l^2 - 1) - mu ln l a unit volume, the large-strain
// law's (the small-strain E (l - 1)^2 / 2 is 10 % off there), within 1 %;
// the end is at the velocity's integral; the ledger, the whole body's
// against the reaction's work, closes to 1e-9 at every step, with full and
// with modified Newton, damped by alpha and by beta; and a state saved
// mid-run goes on bit for bit.
func TestDrivenHyperelasticBar(t *testing.T) {
	if testing.Short() {
		t.Skip("about 4 s")
	}
	const L, A, E, h = 1.0, 0.05, 1e7, 2e-4
	const T = 10 * 4 * L / 100
	const stretch = 0.2
	v := velocityOf(func(t float64) float64 {
		if t >= T {
			return 0
		}
		s := math.Sin(math.Pi * t / T)
		return 2 * stretch * L / T * s * s // its integral over T: stretch L
	})
	mu := E / 2
	l := 1 + stretch
	want := (mu/2*(l*l-1) - mu*math.Log(l)) * L * A
	for _, tc := range []struct {
		name     string
		damping  Rayleigh
		modified bool
	}{{"alpha, full Newton", Rayleigh{Alpha: 2}, false}, {"beta, modified Newton", Rayleigh{Beta: 1e-5}, true}} {
		build := func() (*Body, *Stepper) {
			m, err := mesh.Rectangle([2]float64{}, L, A, 40, 1, mesh.Q4)
			require.NoError(t, err)
			s, err := assemble.NewSpace(m, assemble.Fix{Group: "left", Comp: assemble.X}, assemble.Fix{Group: "right", Comp: assemble.X})
			require.NoError(t, err)
			b, err := NewBody("bar", s, element.Elastic{E: E, Nu: 0, Rho: 1000}, BodyOptions{Law: element.NeoHookean, Damping: tc.damping,
				Driven: []Driven{{Group: "right", Comp: assemble.X, Motion: v}}})
			require.NoError(t, err)
			st, err := NewStepper(h, 0.5, b)
			require.NoError(t, err)
			st.SetModifiedNewton(tc.modified)
			return b, st
		}
		b, s := build()
		steps := int(math.Round(1.2 * T / h))
		var half bytes.Buffer
		for k := range steps {
			require.NoError(t, s.Step(), "%s: step %d", tc.name, k+1)
			e := s.TotalEnergy()
			require.InDelta(t, 0, e.Balance(), 1e-9*math.Max(e.External, 1e-6*want), "%s: step %d: ledger", tc.name, k+1)
			if k+1 == steps/2 {
				require.NoError(t, gob.NewEncoder(&half).Encode(s.state()))
			}
		}
		u := b.Displacement()
		for n, x := range b.Space.Mesh.Nodes {
			if x[0] == L {
				assert.InDelta(t, stretch*L, u[2*n], 1e-9, "%s: the driven end", tc.name)
			}
		}
		e := s.TotalEnergy()
		t.Logf("%s: stored %.6g J against %.6g (small strain %.6g), kinetic %.3g J, the reaction's work %.6g J", tc.name, e.Elastic, want, E*A*stretch*stretch/(2*L), e.Kinetic, e.External)
		assert.InEpsilon(t, want, e.Elastic, 0.01, "%s: stored energy", tc.name)

		c, sc := build()
		var st stepperState
		require.NoError(t, gob.NewDecoder(&half).Decode(&st))
		require.NoError(t, sc.setState(st))
		for range steps - steps/2 {
			require.NoError(t, sc.Step())
		}
		assert.Equal(t, b.Q, c.Q, "%s: resumed bit for bit", tc.name)
		assert.Equal(t, s.TotalEnergy(), sc.TotalEnergy(), "%s: resumed bit for bit", tc.name)
	}
}
