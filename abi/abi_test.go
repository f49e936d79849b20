package abi

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// diskScene is a rigid disk rolling onto a rough floor, a point mass
// falling on it, and a driven plate: one body of each kind a step moves.
const diskScene = `
[time]
h = 1e-3
duration = 0.5

[[rigid]]
name = "floor"
rectangle = [2.0, 0.1]
position = [0.0, -0.05]
motion = { type = "fixed" }

[[rigid]]
name = "disk"
radius = 0.1
position = [0.0, 0.12]
velocity = [1.0, 0.0]
rho = 1000
gravity = [0.0, -9.81]

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3

[[obstacle]]
name = "plane"
points = [[-1.0, 0.0], [1.0, 0.0]]

[[mass]]
name = "m"
mass = 0.5
position = [0.5, 0.05]
gravity = [0.0, -9.81]

[[point_contact]]
name = "m on plane"
obstacle = "plane"
mu = 0.5
`

func opened(t *testing.T, src Source) Handle {
	t.Helper()
	h, code := Open(src)
	require.Equal(t, OK, code, Message(0))
	t.Cleanup(func() { Free(h) })
	return h
}

// The colliding blocks stepped through handles are the run's: the same
// ledger and states bit for bit, and the upper block leaves at the
// README's (-65.4, 39.9) m/s.
func TestStepsAsTheRunDoes(t *testing.T) {
	sc, err := scene.Example("colliding-blocks")
	require.NoError(t, err)
	rep, err := run.Scene(context.Background(), sc, run.Options{Dir: t.TempDir(), Overwrite: true})
	require.NoError(t, err)

	h := opened(t, Source{Example: "colliding-blocks"})
	start, _ := Ledger(h)
	require.Equal(t, OK, StepTo(h, 0.75e-3), Message(h))
	now, _ := Time(h)
	assert.InDelta(t, 0.75e-3, now, 1e-12)
	en, code := Ledger(h)
	require.Equal(t, OK, code)
	want := rep.Sim.TotalEnergy()
	assert.Equal(t, [7]float64{want.Kinetic, want.Elastic, want.External, want.Damping, want.Numerical, want.Contact, want.Balance()},
		[7]float64{en.Kinetic, en.Elastic, en.External, en.Damping, en.Numerical, en.Contact, en.TotalEnergy})
	assert.Equal(t, en.TotalEnergy-start.TotalEnergy, en.BalanceError)
	assert.InDelta(t, 0, en.BalanceError, 1e-14*50700)
	assert.Equal(t, rep.Sim.FrictionWork, en.FrictionWork)
	assert.InDelta(t, -7259, en.FrictionWork, 1)

	n, _ := Bodies(h)
	require.Equal(t, 2, n)
	b, code := BodyInfo(h, 1)
	require.Equal(t, OK, code)
	assert.Equal(t, Body{Name: "upper", Kind: "finite-element bodies", NQ: 2 * 121, NV: 2 * 121}, b)
	q, v, m := make([]float64, b.NQ), make([]float64, b.NV), make([]float64, b.NV)
	require.Equal(t, OK, GetState(h, 1, q, v))
	require.Equal(t, OK, Masses(h, 1, m))
	assert.Equal(t, rep.Sim.Stepper.Body(1).Velocity(), v)
	var p, mass [2]float64
	for i := range v {
		p[i%2] += m[i] * v[i]
		mass[i%2] += m[i]
	}
	assert.InDelta(t, -65.4, p[0]/mass[0], 0.05)
	assert.InDelta(t, 40.0, p[1]/mass[1], 0.05)
	assert.InDelta(t, 0.04*0.04*7800, mass[0], 1e-9, "the nodes' masses sum to the block's")

	st, code := LastStep(h)
	require.Equal(t, OK, code)
	assert.Equal(t, int32(750), st.Step)
	assert.Equal(t, int32(1), st.Converged)
}

// A velocity and a force set between steps act from the next step on, and
// the ledger still closes: the energy they change is the caller's work.
func TestSetStateAndForceKeepTheLedger(t *testing.T) {
	h := opened(t, Source{Text: diskScene, Name: "disk.toml"})
	require.Equal(t, OK, Step(h, 50), Message(h))
	e0, _ := Ledger(h)
	n, _ := Bodies(h)
	require.Equal(t, 3, n)
	disk, _ := BodyInfo(h, 1)
	require.Equal(t, Body{Name: "disk", Kind: "rigid bodies", NQ: 3, NV: 3, NF: 3}, disk)
	v := make([]float64, 3)
	require.Equal(t, OK, GetState(h, 1, nil, v))
	v[0] = -2
	require.Equal(t, OK, SetState(h, 1, nil, v), Message(h))
	require.Equal(t, OK, SetForce(h, 1, []float64{5, 0, 0}), Message(h))
	mass, _ := BodyInfo(h, 2)
	require.Equal(t, Body{Name: `masses of "m"`, Kind: "point masses", NQ: 2, NV: 2, NF: 2}, mass)
	require.Equal(t, OK, SetState(h, 2, nil, []float64{0, 3}), Message(h))
	require.Equal(t, OK, Step(h, 200), Message(h))
	e1, _ := Ledger(h)
	assert.InDelta(t, e0.TotalEnergy, e1.TotalEnergy, 1e-12*math.Abs(e0.External-e1.External+1), "the ledger closes over a velocity and a force set by hand")
	assert.InDelta(t, 0, e1.BalanceError, 1e-12*math.Abs(e1.External))
	assert.Greater(t, e1.External, e0.External, "the force and the new velocities did work")
	assert.LessOrEqual(t, e1.Contact, e0.Contact, "contact creates no energy")
	require.Equal(t, OK, GetState(h, 1, nil, v))
	assert.Less(t, v[0], 0.0, "the disk goes the way it was set")
	c, _ := Contacts(h)
	cs := make([]Contact, c)
	require.Equal(t, OK, ContactsTo(h, cs))
	var rolling bool
	for _, u := range cs {
		rolling = rolling || u.Body == 1 && u.Status != 0 && u.Force[1] > 0
	}
	assert.True(t, rolling, "the disk presses on the floor: %+v", cs)
}

// A state saved and restored goes on bit for bit.
func TestSaveRestore(t *testing.T) {
	h := opened(t, Source{Text: diskScene})
	require.Equal(t, OK, Step(h, 100))
	path := filepath.Join(t.TempDir(), "state.gob")
	require.Equal(t, OK, Save(h, path), Message(h))
	require.Equal(t, OK, Step(h, 100))
	q1 := make([]float64, 3)
	require.Equal(t, OK, GetState(h, 1, q1, nil))
	e1, _ := Ledger(h)
	require.Equal(t, OK, Restore(h, path), Message(h))
	now, _ := Time(h)
	assert.InDelta(t, 0.1, now, 1e-12)
	require.Equal(t, OK, Step(h, 100))
	q2 := make([]float64, 3)
	require.Equal(t, OK, GetState(h, 1, q2, nil))
	e2, _ := Ledger(h)
	assert.Equal(t, q1, q2)
	assert.Equal(t, e1, e2)

	other := opened(t, Source{Example: "point-impact"})
	assert.Equal(t, ErrFile, Restore(other, path))
	assert.Contains(t, Message(other), "not this simulation's")
	assert.Equal(t, OK, Step(other, 1), "a refused state leaves the simulation as it was")
}

// Every refusal is a code and a message naming what and the fix, never a
// panic; nothing changes.
func TestRefusals(t *testing.T) {
	h := opened(t, Source{Text: diskScene})
	cb := opened(t, Source{Example: "colliding-blocks"})
	nan := math.NaN()
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		do   func() Code
		h    Handle
		code Code
		msg  string
	}{
		{"handle 0", func() Code { return Step(0, 1) }, 0, ErrHandle, "handle 0: no simulation"},
		{"never opened", func() Code { _, c := Time(99999); return c }, 0, ErrHandle, "handle 99999: no such simulation"},
		{"no steps", func() Code { return Step(h, 0) }, h, ErrArgument, "0 steps: expected 1"},
		{"time past", func() Code { return StepTo(h, -1) }, h, ErrArgument, "expected a time at or after"},
		{"too many steps", func() Code { return Step(h, 100_000_001) }, h, ErrArgument, "100000001 steps: expected 1 to 100000000"},
		{"too far", func() Code { return StepTo(h, 1e300) }, h, ErrArgument, "expected at most 100000000 in one call"},
		{"time NaN", func() Code { return StepTo(h, nan) }, h, ErrArgument, "step to t = NaN"},
		{"body -1", func() Code { _, c := BodyInfo(h, -1); return c }, h, ErrArgument, "body -1: expected 0 to 2"},
		{"body 3", func() Code { return GetState(h, 3, nil, nil) }, h, ErrArgument, "body 3: expected 0 to 2"},
		{"length", func() Code { return GetState(h, 1, make([]float64, 2), nil) }, h, ErrArgument, "2 positions and 0 velocities given: expected 3 and 3"},
		{"NaN velocity", func() Code { return SetState(h, 1, nil, []float64{0, nan, 0}) }, h, ErrState, `rigid body "disk": velocity[1] = NaN`},
		{"driven", func() Code { return SetState(h, 0, nil, []float64{1, 0, 0}) }, h, ErrState, `rigid body "floor" is driven`},
		{"force on driven", func() Code { return SetForce(h, 0, []float64{1, 0, 0}) }, h, ErrState, "takes no applied force"},
		{"force length", func() Code { return SetForce(h, 1, []float64{1}) }, h, ErrArgument, "1 force components given: expected 3"},
		{"force Inf", func() Code { return SetForce(h, 2, []float64{math.Inf(1), 0}) }, h, ErrState, "force[0] = +Inf"},
		{"fixed node", func() Code {
			v := make([]float64, 2*31*11)
			v[0] = 1
			return SetState(cb, 0, nil, v)
		}, cb, ErrState, `body "lower": velocity 1 of node 0's x: the node is fixed`},
		{"FE force", func() Code { return SetForce(cb, 0, []float64{1}) }, cb, ErrState, "takes no applied force here"},
		{"contacts room", func() Code { return ContactsTo(h, make([]Contact, 5)) }, h, ErrArgument, "room for 5 given"},
		{"save to a folder", func() Code { return Save(h, dir) }, h, ErrFile, dir},
		{"save to a device", func() Code { return Save(h, os.DevNull) }, h, ErrFile, os.DevNull},
		{"restore nothing", func() Code { return Restore(h, filepath.Join(dir, "none")) }, h, ErrFile, "no such file"},
		{"restore a device", func() Code { return Restore(h, os.DevNull) }, h, ErrFile, os.DevNull},
		{"caller's refusal", func() Code { return Invalid(h, "fec_get_state: arrays of %d", -5) }, h, ErrArgument, "arrays of -5"},
		{"caller's refusal, no handle", func() Code { return Invalid(0, "fec_open_file: the path is NULL") }, 0, ErrArgument, "the path is NULL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := Ledger(h)
			assert.Equal(t, tc.code, tc.do())
			assert.Contains(t, Message(tc.h), tc.msg)
			after, _ := Ledger(h)
			assert.Equal(t, before, after)
		})
	}
	for _, src := range []Source{{}, {Path: "a", Example: "b"}, {Example: "no-such"}, {Text: "[time]\nh = -1\n", Name: "bad.toml"}, {Example: "pillar", Refine: -1}} {
		hd, code := Open(src)
		assert.Zero(t, hd)
		assert.NotEqual(t, OK, code)
		assert.NotEmpty(t, Message(0), "%+v", src)
	}
	_, code := Open(Source{Text: "[time]\nh = -1\n", Name: "bad.toml"})
	assert.Equal(t, ErrScene, code)
	assert.Contains(t, Message(0), "bad.toml")
}

// A step that fails leaves the simulation failed until a state is
// restored.
func TestFailedStepStaysFailed(t *testing.T) {
	h := opened(t, Source{Text: diskScene})
	path := filepath.Join(t.TempDir(), "s.gob")
	require.Equal(t, OK, Save(h, path))
	// Through the floor in one step: the step refuses the tunnelling.
	require.Equal(t, OK, SetState(h, 1, nil, []float64{0, -1e4, 0}))
	require.Equal(t, ErrStep, Step(h, 1))
	assert.NotEmpty(t, Message(h))
	assert.Equal(t, ErrFailed, Step(h, 1))
	assert.Contains(t, Message(h), "restore a checkpoint or free it")
	assert.Equal(t, ErrFailed, SetState(h, 1, nil, []float64{0, 0, 0}))
	require.Equal(t, OK, Restore(h, path), Message(h))
	assert.Equal(t, OK, Step(h, 1), Message(h))
}

// Handles freed are dead, and open/free cycles hold no memory.
func TestFreeCycles(t *testing.T) {
	live := Live()
	cycles := 2000
	if testing.Short() {
		cycles = 200
	}
	for range cycles {
		h, code := Open(Source{Text: diskScene})
		require.Equal(t, OK, code)
		require.Equal(t, OK, Step(h, 1))
		require.Equal(t, OK, Free(h))
		require.Equal(t, ErrHandle, Free(h))
	}
	assert.Equal(t, live, Live())
}

// A force on a falling point mass equal and opposite to its weight makes
// it weightless: it keeps its fall's speed, and pushed along by 1 N it
// speeds up at 2 m/s^2 (v = a t, x = a t^2 / 2 under theta 1/2).
func TestForceOnAMass(t *testing.T) {
	h := opened(t, Source{Text: diskScene})
	require.Equal(t, OK, Step(h, 10))
	q0 := make([]float64, 2)
	require.Equal(t, OK, GetState(h, 2, q0, nil))
	require.Equal(t, OK, SetForce(h, 2, []float64{1, 0.5 * 9.81}), Message(h))
	require.Equal(t, OK, Step(h, 100))
	q, v := make([]float64, 2), make([]float64, 2)
	require.Equal(t, OK, GetState(h, 2, q, v))
	assert.InDelta(t, 0.2, v[0], 1e-12)
	assert.InDelta(t, 0.01, q[0]-q0[0], 1e-12)
	assert.InDelta(t, -9.81*0.01, v[1], 1e-12)
}

// Calls from several threads at once: on one simulation they take turns
// (its lock), distinct simulations step side by side, and a handle freed
// while others use theirs leaves them whole; the race detector (go test
// -race) sees no race, and each simulation ends where one thread alone
// takes it.
func TestConcurrentCalls(t *testing.T) {
	alone := opened(t, Source{Text: diskScene})
	require.Equal(t, OK, Step(alone, 200))
	want := make([]float64, 3)
	require.Equal(t, OK, GetState(alone, 1, want, nil))

	a, b := opened(t, Source{Text: diskScene}), opened(t, Source{Text: diskScene})
	done := make(chan Code, 8)
	for _, h := range []Handle{a, a, b, b} { // two threads per simulation
		go func() {
			for range 100 {
				if c := Step(h, 1); c != OK {
					done <- c
					return
				}
				q := make([]float64, 3)
				if c := GetState(h, 1, q, nil); c != OK {
					done <- c
					return
				}
			}
			done <- OK
		}()
	}
	go func() { // a third simulation opened and freed meanwhile
		for range 50 {
			h, c := Open(Source{Text: diskScene})
			if c == OK {
				c = Free(h)
			}
			if c != OK {
				done <- c
				return
			}
		}
		done <- OK
	}()
	for range 5 {
		assert.Equal(t, OK, <-done)
	}
	for _, h := range []Handle{a, b} {
		got := make([]float64, 3)
		require.Equal(t, OK, GetState(h, 1, got, nil))
		assert.Equal(t, want, got, "200 steps, whichever thread took them")
	}
}
