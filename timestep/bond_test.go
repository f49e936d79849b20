package timestep_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/internal/toy"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
	"github.com/fecontact/fecontact/timestep"
)

// overshooting is a kind whose step, as a hyperelastic body's Newton
// iterations do, first asks for the contact problem on a free velocity
// whose x component (its first body's first equation: a bead's pull
// along its rail, a point mass's push along a plane) overshoots the true
// one twice, then, on its update, for the problem again on the true one:
// the step applies the second solve. Its units take a cohesion where it
// gives one.
type overshooting struct {
	kind.Kind
	cohesion float64
	first    bool // the step has not updated its free velocity yet
}

// Begin starts the step on the overshooting free velocity.
func (o *overshooting) Begin(c kind.Clock) error {
	if err := o.Kind.Begin(c); err != nil {
		return err
	}
	v0, vfree := o.Start(0)
	vfree[0] = v0[0] + 2*(vfree[0]-v0[0])
	o.first = true
	return nil
}

// Advance puts the free velocity back to the true one once, asking for
// the contact problem to be solved again.
func (o *overshooting) Advance(r [][]float64, loaded bool) (bool, error) {
	if !o.first {
		return o.Kind.Advance(r, loaded)
	}
	v0, vfree := o.Start(0)
	vfree[0] = v0[0] + (vfree[0]-v0[0])/2
	o.first = false
	return false, nil
}

// Source is the kind's, its units with the cohesion where there is one.
func (o *overshooting) Source(base int, at *kind.Placement) kind.Source {
	src := o.Kind.Source(base, at)
	if o.cohesion == 0 {
		return src
	}
	return gluedSource{src, o.cohesion}
}

type gluedSource struct {
	kind.Source
	cohesion float64
}

func (g gluedSource) Laws(units []contact.Unit, laws []kind.Law, ids []kind.ID) {
	g.Source.Laws(units, laws, ids)
	for i := range laws {
		laws[i].Cohesion = g.cohesion
	}
}

// TestBondBrokenByTheSolveApplied: a bond breaks by the solve its step
// applies, not by one the step solves again. A bead of 1 kg/m touching
// its stop, glued to it with a cohesion of 1.5 N/m and pulled off by 1
// N/m, holds (at rest, its bond kept, the contact doing no work), though
// each step first solves its problem on twice the pull, which breaks the
// bond; it broke there, for good, and the bead left. Pulled by 2 N/m, the
// bond breaks in the first step, having held the bead back by its
// strength through it, and the bead leaves at 2 m/s^2.
func TestBondBrokenByTheSolveApplied(t *testing.T) {
	const h, stop, radius = 1e-3, 1.0, 0.05
	for _, tc := range []struct {
		name  string
		pull  float64
		holds bool
	}{
		{"pulled below its strength", 1, true},
		{"pulled beyond it", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			beads := toy.New(1, stop-radius, 1, radius, -tc.pull, stop)
			s, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h,
				Kinds: []kind.Kind{&overshooting{Kind: beads.Kind(), cohesion: 1.5}}})
			require.NoError(t, err)
			e0 := s.TotalEnergy()
			for range 100 {
				st, err := s.Step()
				require.NoError(t, err)
				require.Equal(t, 1, st.Solves[timestep.NewtonTangent].Solves, "step %d solved again", st.Step)
			}
			e := s.TotalEnergy()
			assert.InDelta(t, e0.Balance(), e.Balance(), 1e-12, "the ledger closes: %+v", e)
			assert.LessOrEqual(t, e.Contact, 1e-12, "contact creates no energy")
			if tc.holds {
				assert.Equal(t, 1, s.Bonds(), "the bond holds")
				assert.InDelta(t, stop-radius, beads.X[0], 1e-12, "at the stop")
				assert.InDelta(t, 0, beads.V[0], 1e-12, "at rest")
				return
			}
			assert.Zero(t, s.Bonds(), "the bond broke")
			assert.InDelta(t, -(tc.pull*100*h - 1.5*h), beads.V[0], 1e-12, "pulled off from the first step, which its bond held back with its strength")
		})
	}
}

// TestNewtonKindBesideFiniteElementBodies: a kind that asks for the
// contact problem again (its Advance returns false) steps beside a
// finite-element body that the new solve leaves as it was: the body,
// flying free at 1 m/s, moves 1 mm a step, its step taken once (the
// finite-element bodies refuse a new solve that changes their impulses,
// fe's TestFamilyAdvanceAfterItsStep), and the glued bead holds.
func TestNewtonKindBesideFiniteElementBodies(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{3, 0}, 0.1, 0.1, 2, 2, mesh.Q4)
	require.NoError(t, err)
	sp, err := assemble.NewSpace(m)
	require.NoError(t, err)
	block, err := fe.NewBody("block", sp, element.Elastic{E: 1e9, Nu: 0.3, Rho: 1000}, fe.BodyOptions{})
	require.NoError(t, err)
	block.SetVelocity(func([2]float64) [2]float64 { return [2]float64{1, 0} })
	beads := toy.New(1, 0.95, 1, 0.05, -1, 1)
	s, err := timestep.NewSimulation([]*fe.Body{block}, nil, timestep.SimOptions{H: 1e-3,
		Kinds: []kind.Kind{&overshooting{Kind: beads.Kind(), cohesion: 1.5}}})
	require.NoError(t, err)
	for range 10 {
		st, err := s.Step()
		require.NoError(t, err)
		require.Equal(t, 1, st.Solves[timestep.NewtonTangent].Solves)
	}
	for i := 0; i < len(block.Q); i += 2 {
		assert.InDelta(t, 0.01, block.Q[i], 1e-12, "x of node %d", i/2)
		assert.InDelta(t, 0, block.Q[i+1], 1e-12, "y of node %d", i/2)
	}
	assert.Equal(t, 1, s.Bonds())
	assert.InDelta(t, 0.95, beads.X[0], 1e-12)
}

// TestFrictionOfTheStepNotOfASolveReplaced: a unit's coefficient (mu or
// mu_dynamic) follows its slip in the step before, not in a solve its
// step replaces. A mass of 1 kg/m at rest on a plane, mu 0.5, mu_dynamic
// 0.2, each step of which first solves on twice its push along the plane:
// pushed by 0.4 of its weight, it stays at rest (static friction holds
// it), where the replaced solve's slip gave the solve applied mu_dynamic
// and it slid off at 0.2 g; pushed by 0.6, it slides, at 0.1 g in its
// first step (mu) and 0.4 g after (mu_dynamic).
func TestFrictionOfTheStepNotOfASolveReplaced(t *testing.T) {
	const g, h, steps = 9.81, 1e-3, 100
	for _, tc := range []struct {
		name    string
		push    float64 // of the weight
		v       float64 // after the steps, m/s
		dynamic int     // unit-steps at mu_dynamic
	}{
		{"below static friction", 0.4, 0, 0},
		{"beyond it", 0.6, h * g * (0.1 + (steps-1)*0.4), steps - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plane := &contact.Obstacle{Name: "plane", Points: [][2]float64{{-10, 0}, {10, 0}}}
			dynamic := 0.2
			mass := &discrete.Mass{Name: "m", M: 1, Gravity: [2]float64{0, -g}, Force: [2]float64{tc.push * g, 0}}
			sys, err := discrete.NewSystem([]*discrete.Mass{mass}, nil, []discrete.Contact{{Name: "plane", Obstacle: plane, Mu: 0.5, MuDynamic: &dynamic}})
			require.NoError(t, err)
			points, err := discrete.NewKind(sys, h, 0.5)
			require.NoError(t, err)
			s, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: h, Kinds: []kind.Kind{&overshooting{Kind: points}}})
			require.NoError(t, err)
			e0 := s.TotalEnergy()
			dynamicSteps := 0
			for range steps {
				st, err := s.Step()
				require.NoError(t, err)
				require.Equal(t, 1, st.Solves[timestep.NewtonTangent].Solves, "step %d solved again", st.Step)
				dynamicSteps += st.Dynamic
			}
			assert.Equal(t, tc.dynamic, dynamicSteps, "unit-steps at mu_dynamic")
			assert.InDelta(t, tc.v, mass.V[0], 1e-12)
			e := s.TotalEnergy()
			assert.InDelta(t, e0.Balance(), e.Balance(), 1e-12, "the ledger closes: %+v", e)
			assert.LessOrEqual(t, e.Contact, 1e-12, "contact creates no energy")
		})
	}
}
