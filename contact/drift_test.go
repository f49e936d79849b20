package contact

import (
	"math"
	"testing"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAllNodesTakeTheFlanks: a side's contact rows may involve its flanks
// (AllNodes, the nodes a stepper places at a predicted end and Drift
// compares): the 7 top nodes of a 6 x 2 block and its flanks' lower ends,
// not the bottom corners below them.
func TestAllNodesTakeTheFlanks(t *testing.T) {
	_, sides := twoBlocks(t, mesh.Q4, Nodal)
	b := sides[1]
	got := b.AllNodes()
	assert.Len(t, got, 9)
	for _, x := range [][2]float64{{0, 0.02}, {0.12, 0.02}, {0.06, 0.04}} {
		assert.Contains(t, got, nodeAt(t, b.Mesh, x), "node at %v", x)
	}
	for _, x := range [][2]float64{{0, 0}, {0.12, 0}} {
		assert.NotContains(t, got, nodeAt(t, b.Mesh, x), "node at %v", x)
	}
}

// nodeAt is the node of m at x.
func nodeAt(t *testing.T, m *mesh.Mesh, x [2]float64) int {
	for n, p := range m.Nodes {
		if math.Abs(p[0]-x[0]) < 1e-12 && math.Abs(p[1]-x[1]) < 1e-12 {
			return n
		}
	}
	t.Fatalf("no node at %v", x)
	return -1
}

// TestDrift: a configuration's drift from a traced one is the largest move
// of a node the pairs read, relative to its side's shortest edge; a moved
// obstacle, a changed pair or a NaN makes it infinite, and a node no side
// reads moves nothing.
func TestDrift(t *testing.T) {
	d, sides := twoBlocks(t, mesh.Q4, Nodal)
	a, b := sides[0], sides[1]
	ua, ub := make([]float64, 2*len(a.Mesh.Nodes)), make([]float64, 2*len(b.Mesh.Nodes))
	cfg := Config{Disp: [][]float64{ua, ub}}
	var tr Trace
	d.Trace(&tr, cfg)
	read := b.AllNodes()[3]
	far := nodeAt(t, b.Mesh, [2]float64{0.06, 0})
	edgeA, edgeB := 0.04/3, 0.02 // the shortest edges of the sides, flanks included
	for _, c := range []struct {
		name   string
		change func(c Config) Config
		want   float64
	}{
		{"the same configuration", func(c Config) Config { return c }, 0},
		{"a read node of b moved by 3e-7 m", func(c Config) Config { return moved(c, 1, read, [2]float64{3e-7, 0}) }, 3e-7 / edgeB},
		{"a node of a moved by (3, 4) um", func(c Config) Config { return moved(c, 0, a.AllNodes()[0], [2]float64{3e-6, 4e-6}) }, 5e-6 / edgeA},
		{"a node no side reads", func(c Config) Config { return moved(c, 1, far, [2]float64{1, 1}) }, 0},
		{"a NaN", func(c Config) Config { return moved(c, 1, read, [2]float64{math.NaN(), 0}) }, math.Inf(1)},
		{"b in its reference (nil displacement)", func(c Config) Config { return Config{Disp: [][]float64{c.Disp[0], nil}} }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.want, d.Drift(&tr, c.change(cfg)), 1e-12*math.Max(1, c.want))
		})
	}
	d.Pairs[0].Mu = 0.2
	assert.Equal(t, math.Inf(1), d.Drift(&tr, cfg), "a pair's friction changed")
}

// moved is c with node n of body k displaced by dx more, on copies.
func moved(c Config, k, n int, dx [2]float64) Config {
	disp := make([][]float64, len(c.Disp))
	for i, u := range c.Disp {
		disp[i] = append([]float64(nil), u...)
	}
	disp[k][2*n] += dx[0]
	disp[k][2*n+1] += dx[1]
	return Config{Time: c.Time, Disp: disp, Poses: c.Poses, Driven: c.Driven}
}

// TestDriftOfObstacles: a fixed obstacle never drifts; one with a motion
// drifts at another time, one a body carries at another pose.
func TestDriftOfObstacles(t *testing.T) {
	m, err := mesh.Rectangle([2]float64{0, 0.001}, 0.1, 0.05, 4, 2, mesh.Q4)
	require.NoError(t, err)
	dofs, err := assemble.NewDOFMap(m, nil)
	require.NoError(t, err)
	detector := func(o *Obstacle) *Detector {
		side, err := NewSide(0, m, dofs, "bottom", 1)
		require.NoError(t, err)
		d, err := NewDetector(&Pair{Name: "floor", Candidate: side, Obstacle: o, Alert: 2e-3, OneWay: true})
		require.NoError(t, err)
		return d
	}
	floor := [][2]float64{{-1, 0}, {1, 0}}
	at := func(time float64, pose [3]float64) Config {
		return Config{Time: time, Disp: [][]float64{nil, nil}, Poses: [][3]float64{{}, pose}}
	}
	for _, c := range []struct {
		name     string
		obstacle *Obstacle
		then     Config
		want     float64
	}{
		{"fixed, later", &Obstacle{Name: "fixed", Points: floor}, at(1, [3]float64{}), 0},
		{"moving, same time", &Obstacle{Name: "sine", Points: floor, Motion: Sine{Amplitude: 1e-3, Period: 0.1, Direction: [2]float64{1, 0}}}, at(0, [3]float64{}), 0},
		{"moving, later", &Obstacle{Name: "sine", Points: floor, Motion: Sine{Amplitude: 1e-3, Period: 0.1, Direction: [2]float64{1, 0}}}, at(1e-9, [3]float64{}), math.Inf(1)},
		{"carried, same pose", &Obstacle{Name: "carried", Points: floor, Carried: true, Body: 1}, at(1, [3]float64{}), 0},
		{"carried, turned", &Obstacle{Name: "carried", Points: floor, Carried: true, Body: 1}, at(0, [3]float64{0, 0, 1e-12}), math.Inf(1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := detector(c.obstacle)
			var tr Trace
			d.Trace(&tr, at(0, [3]float64{}))
			assert.Equal(t, c.want, d.Drift(&tr, c.then))
		})
	}
}

// TestTraceState: a trace saved as data (TraceState) and set again
// (SetTrace) drifts as the trace itself; set on a Detector whose pair
// changed, or from damaged data, it drifts by +Inf.
func TestTraceState(t *testing.T) {
	d, sides := twoBlocks(t, mesh.Q4, Nodal)
	ua, ub := make([]float64, 2*len(sides[0].Mesh.Nodes)), make([]float64, 2*len(sides[1].Mesh.Nodes))
	cfg := Config{Disp: [][]float64{ua, ub}}
	var tr Trace
	d.Trace(&tr, cfg)
	read := sides[1].AllNodes()[3]
	nudged := moved(cfg, 1, read, [2]float64{3e-7, 0})
	set := func(s TraceState) *Trace {
		var got Trace
		d.SetTrace(&got, s)
		return &got
	}
	s := d.TraceState(&tr)
	assert.Equal(t, 0.0, d.Drift(set(s), cfg))
	assert.Equal(t, d.Drift(&tr, nudged), d.Drift(set(s), nudged))
	for _, c := range []struct {
		name   string
		change func(s *TraceState)
	}{
		{"a pair more", func(s *TraceState) { s.Mu, s.Alert = append(s.Mu, 0.1), append(s.Alert, 1e-3) }},
		{"no pairs", func(s *TraceState) { s.Mu, s.Alert = nil, nil }},
		{"an alert short", func(s *TraceState) { s.Alert = nil }},
		{"another friction", func(s *TraceState) { s.Mu = []float64{0.5} }},
		{"a node short", func(s *TraceState) { s.Pos = s.Pos[:len(s.Pos)-1] }},
		{"a NaN position", func(s *TraceState) { s.Pos[0][0] = math.NaN() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := d.TraceState(&tr)
			c.change(&s)
			assert.Equal(t, math.Inf(1), d.Drift(set(s), cfg))
		})
	}
	// A trace of a pair the Detector no longer has is saved as one no
	// pair matches.
	old := *d.Pairs[0]
	d.Pairs[0] = &old
	assert.Equal(t, math.Inf(1), d.Drift(set(d.TraceState(&tr)), cfg))
}
