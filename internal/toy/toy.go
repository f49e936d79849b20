// Package toy is a kind of body written against the seam alone (package
// kind), for the tests that show a fifth kind is one package and one
// registration: beads on a straight horizontal rail, one degree of
// freedom each, pushed by a constant force into a fixed stop at the
// rail's end. It knows nothing of the step that drives it; a program
// has them in its scenes as [[rail]] by one line, scene.Register(Table{}).
package toy

import (
	"encoding/gob"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
)

// Beads are beads of mass M (kg/m) and radius R on the rail y = 0,
// each pushed along x by Force (N/m), in front of a stop at x = Stop
// (the bead's right edge touches it at X = Stop - R).
type Beads struct {
	M, R, Force, Stop float64
	X, V              []float64

	h, theta  float64
	v0, vfree []float64
	energy    []kind.Energy
}

// New makes n beads at rest at x, each 2R apart leftwards.
func New(n int, x, m, r, force, stop float64) *Beads {
	b := &Beads{M: m, R: r, Force: force, Stop: stop}
	for i := range n {
		b.X = append(b.X, x-2*r*float64(i))
		b.V = append(b.V, 0)
	}
	b.v0, b.vfree, b.energy = make([]float64, n), make([]float64, n), make([]kind.Energy, n)
	for i := range n {
		b.energy[i].Kinetic = m * b.V[i] * b.V[i] / 2
	}
	return b
}

// Kind is the beads as a kind of body.
func (b *Beads) Kind() kind.Kind { return family{b} }

type family struct{ b *Beads }

func (f family) Name() string          { return "beads" }
func (f family) Len() int              { return len(f.b.X) }
func (f family) BodyName(k int) string { return fmt.Sprintf("bead %d", k+1) }
func (f family) DOFs(int) int          { return 1 }
func (f family) Compliance(int) kind.Compliance {
	return kind.Compliance{Eqs: []int{0}, C: []float64{1 / f.b.M}}
}
func (f family) MassCompliance(k int) (kind.Compliance, error)  { return f.Compliance(k), nil }
func (f family) Place(int, int, *kind.Placement)                {}
func (f family) Motion(int) contact.Motion                      { return nil }
func (f family) Carries() bool                                  { return false }
func (f family) Current(k int) []float64                        { return f.b.V[k : k+1] }
func (f family) Start(k int) (v0, vfree []float64)              { return f.b.v0[k : k+1], f.b.vfree[k : k+1] }
func (f family) Advance([][]float64, bool) (bool, error)        { return true, nil }
func (f family) Source(base int, _ *kind.Placement) kind.Source { return source{f.b, base} }

// Begin: the free velocity under the force alone.
func (f family) Begin(c kind.Clock) error {
	b := f.b
	b.h, b.theta = c.H, c.Theta
	for k := range b.X {
		b.v0[k] = b.V[k]
		b.vfree[k] = b.V[k] + c.H*b.Force/b.M
	}
	return nil
}

// Impact is a velocity jump, its work booked as contact work.
func (f family) Impact(k int, r []float64) error {
	b := f.b
	dv := r[0] / b.M
	b.energy[k].Contact += r[0] * (b.V[k] + dv/2)
	b.V[k] += dv
	b.energy[k].Kinetic = b.M * b.V[k] * b.V[k] / 2
	return nil
}

func (f family) Predict(k, global int, v, r []float64, c kind.Clock, at *kind.Placement) {
	v[0] += r[0] / f.b.M
}

// Finish: the theta-method's end velocity and position, and the ledger.
func (f family) Finish(r, shift [][]float64, loaded bool, step int) error {
	b := f.b
	for k := range b.X {
		var rk float64
		if loaded {
			rk = r[k][0]
		}
		v1 := b.vfree[k] + rk/b.M
		vt := b.theta*v1 + (1-b.theta)*b.v0[k]
		b.X[k] += b.h * vt
		e := &b.energy[k]
		e.External += b.h * b.Force * vt
		e.Contact += rk * vt
		e.Numerical += (b.theta - 0.5) * b.M * (v1 - b.v0[k]) * (v1 - b.v0[k])
		e.Kinetic = b.M * v1 * v1 / 2
		b.V[k] = v1
		if math.IsNaN(v1) {
			return fmt.Errorf("bead %d after step %d: NaN", k+1, step)
		}
	}
	return nil
}

func (f family) Energy(e kind.Energy) kind.Energy {
	for _, b := range f.b.energy {
		e = e.Add(b)
	}
	return e
}

// state is the section a checkpoint keeps.
type state struct {
	X, V   []float64
	Energy []kind.Energy
}

func (f family) Save(enc *gob.Encoder) error {
	return enc.Encode(state{f.b.X, f.b.V, f.b.energy})
}

func (f family) Load(dec *gob.Decoder) error {
	var st state
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("beads: damaged: %w", err)
	}
	if len(st.X) != len(f.b.X) {
		return fmt.Errorf("beads: %d in the state, %d here", len(st.X), len(f.b.X))
	}
	copy(f.b.X, st.X)
	copy(f.b.V, st.V)
	copy(f.b.energy, st.Energy)
	return nil
}

// source is each bead's unit with the stop, within R of it.
type source struct {
	b    *Beads
	base int
}

func (s source) Detect(contact.Config) ([]contact.Unit, float64, error) {
	var units []contact.Unit
	minGap := math.Inf(1)
	for k, x := range s.b.X {
		g := s.b.Stop - (x + s.b.R)
		minGap = min(minGap, g)
		if g > s.b.R {
			continue
		}
		units = append(units, contact.Unit{
			Key: contact.Key{Node: k}, X: [2]float64{s.b.Stop, 0}, N: [2]float64{-1, 0}, T: [2]float64{0, -1},
			Gap: g, Weight: 1, Entries: []contact.Entry{{Body: s.base + k, Eq: 0, N: -1}},
		})
	}
	return units, minGap, nil
}

func (s source) AtEnd(_ contact.Config, start []contact.Unit, _ float64) ([]contact.Unit, bool, error) {
	return start, false, nil
}

func (s source) Laws(units []contact.Unit, laws []kind.Law, ids []kind.ID) {
	for i := range units {
		laws[i], ids[i] = kind.Law{Law: contact.Positional}.Sized(s.b.R), kind.ID{Node: units[i].Key.Node}
	}
}

func (s source) Body(k contact.Key) int        { return s.base + k.Node }
func (s source) Thickness(contact.Key) float64 { return 1 }
func (s source) Reverse(contact.Key) bool      { return false }

// Series are the beads as dots of their radius, beads.pvd (kind.Drawn):
// what the outputs write of a kind they have never heard of.
func (f family) Series() ([]kind.Series, error) {
	g := &vtk.Grid{}
	var radius, velocity []float64
	for k, x := range f.b.X {
		g.Points = append(g.Points, [2]float64{x, 0})
		radius = append(radius, f.b.R)
		velocity = append(velocity, f.b.V[k], 0)
	}
	g.AddPointScalar("radius", radius)
	g.AddPointVector("velocity", velocity)
	return []kind.Series{{Name: "beads", Style: kind.Dots, Grid: g}}, nil
}

// Shapes are the beads as dots.
func (f family) Shapes(dst []kind.Shape) []kind.Shape {
	for _, x := range f.b.X {
		dst = append(dst, kind.Shape{Form: kind.Dot, Points: [][2]float64{{x, 0}}})
	}
	return dst
}

// Columns are each bead's position and velocity.
func (f family) Columns() []kind.Column {
	var out []kind.Column
	for k := range f.b.X {
		out = append(out, kind.Column{Name: fmt.Sprintf("bead%d_x", k+1), Unit: "m", Digits: 12},
			kind.Column{Name: fmt.Sprintf("bead%d_v", k+1), Unit: "m/s", Digits: 12})
	}
	return out
}

func (f family) Row(dst []float64) []float64 {
	for k, x := range f.b.X {
		dst = append(dst, x, f.b.V[k])
	}
	return dst
}
