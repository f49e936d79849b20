package contact

import (
	"fmt"
	"math"
)

// Motion is the prescribed rigid translation of an obstacle: its offset
// from the reference position and its velocity at time t.
type Motion interface {
	Offset(t float64) [2]float64
	Velocity(t float64) [2]float64
}

// Fixed is an obstacle that does not move.
type Fixed struct{}

// Offset is zero.
func (Fixed) Offset(float64) [2]float64 { return [2]float64{} }

// Velocity is zero.
func (Fixed) Velocity(float64) [2]float64 { return [2]float64{} }

// ConstantVelocity moves the obstacle by V t.
type ConstantVelocity struct{ V [2]float64 }

// Offset is V t.
func (c ConstantVelocity) Offset(t float64) [2]float64 { return [2]float64{c.V[0] * t, c.V[1] * t} }

// Velocity is V.
func (c ConstantVelocity) Velocity(float64) [2]float64 { return c.V }

// Sine is the translation A sin(2 pi t / T) along a unit direction: the
// shaking ground of [JM91] section 9 (A = 0.075 m for a 15 cm range,
// T = 0.4 s).
type Sine struct {
	Amplitude, Period float64
	Direction         [2]float64
}

// Offset is A sin(2 pi t/T) d.
func (s Sine) Offset(t float64) [2]float64 {
	a := s.Amplitude * math.Sin(2*math.Pi*t/s.Period)
	return [2]float64{a * s.Direction[0], a * s.Direction[1]}
}

// Velocity is the derivative of Offset.
func (s Sine) Velocity(t float64) [2]float64 {
	w := 2 * math.Pi / s.Period
	a := s.Amplitude * w * math.Cos(w*t)
	return [2]float64{a * s.Direction[0], a * s.Direction[1]}
}

// Obstacle is a rigid antagonist with prescribed motion: a polyline (a
// segment when it has two points; the obstacle on its right, see the
// package documentation; closed when its last point is its first) or, when
// Radius > 0, a disc of centre Center (free space outside).
//
// A Carried obstacle is the boundary of a rigid body (package rigid):
// Points and Center are in the body's frame (about its centre of mass),
// Config.Poses[Body] places them, and its units act on the body's three
// DOFs (x, y, rotation: Body is its index in the configuration and in
// Entry.Body), unless Config.Driven gives its body a motion: a driven
// body, whose velocity is the prescribed one and which only translates. A
// carried obstacle's own Motion must be nil: it moves with its body.
type Obstacle struct {
	Name    string
	Points  [][2]float64
	Center  [2]float64
	Radius  float64
	Motion  Motion // nil means Fixed
	Carried bool
	Body    int
	// Owner is the body that carries the obstacle, as its caller holds it
	// (rigid.Body.Obstacle sets it): a simulation gives Body its number for
	// that body. nil: Body as given.
	Owner any
}

// closed reports whether the polyline returns to its first point.
func (o *Obstacle) closed() bool {
	n := len(o.Points)
	return n >= 4 && o.Points[0] == o.Points[n-1]
}

// place returns the placement that puts the obstacle's points where they
// are in the configuration, and the point about which a carried
// obstacle's body rotates.
func (o *Obstacle) place(cfg Config) (placement, [2]float64, error) {
	if !o.Carried {
		return placement{off: o.motion(cfg).Offset(cfg.Time), cos: 1}, [2]float64{}, nil
	}
	if o.Body < 0 || o.Body >= len(cfg.Poses) {
		return placement{}, [2]float64{}, fmt.Errorf("obstacle %q: the configuration has no pose for its body %d", o.Name, o.Body)
	}
	q := cfg.Poses[o.Body]
	s, c := math.Sincos(q[2])
	return placement{off: [2]float64{q[0], q[1]}, sin: s, cos: c}, [2]float64{q[0], q[1]}, nil
}

// discSides is the number of sides of the polygon Outline draws a disc
// with.
const discSides = 64

// Outline returns the obstacle's outline at time t, for drawing as a
// line: a polyline's points where its motion has taken them (a closed one
// returns to its first point), or a disc as a discSides-gon whose last
// point is its first. A carried obstacle is drawn with its rigid body: it
// has none (nil).
func (o *Obstacle) Outline(t float64) [][2]float64 {
	if o.Carried {
		return nil
	}
	pl, _, _ := o.place(Config{Time: t}) // no error without Carried
	var pts [][2]float64
	if o.Radius > 0 {
		for k := range discSides + 1 {
			a := 2 * math.Pi * float64(k%discSides) / discSides
			pts = append(pts, pl.at([2]float64{o.Center[0] + o.Radius*math.Cos(a), o.Center[1] + o.Radius*math.Sin(a)}))
		}
		return pts
	}
	for _, p := range o.Points {
		pts = append(pts, pl.at(p))
	}
	return pts
}

// placement is a rigid motion of the plane: a rotation, then an offset. A
// value, not a closure, so that placing an obstacle allocates nothing.
type placement struct {
	off      [2]float64
	sin, cos float64
}

func (pl placement) at(p [2]float64) [2]float64 {
	return [2]float64{pl.off[0] + pl.cos*p[0] - pl.sin*p[1], pl.off[1] + pl.sin*p[0] + pl.cos*p[1]}
}

// Check refuses an obstacle that is not one: no points or radius, both, a
// zero-length segment, a carried one with a motion of its own.
func (o *Obstacle) Check() error { return o.check() }

func (o *Obstacle) check() error {
	if o.Carried && o.Body < 0 {
		return fmt.Errorf("obstacle %q: carried by body %d: expected a body index >= 0", o.Name, o.Body)
	}
	if o.Carried && o.Motion != nil {
		return fmt.Errorf("obstacle %q: carried by body %d, it moves with it: leave its Motion nil (a driven body's motion is Config.Driven's)", o.Name, o.Body)
	}
	if o.Radius > 0 {
		if len(o.Points) != 0 {
			return fmt.Errorf("obstacle %q: give either points (a polyline) or a radius (a disc), not both", o.Name)
		}
		return nil
	}
	if o.Radius < 0 || math.IsNaN(o.Radius) {
		return fmt.Errorf("obstacle %q: radius %g must be positive", o.Name, o.Radius)
	}
	if len(o.Points) < 2 {
		return fmt.Errorf("obstacle %q: a polyline needs at least 2 points, got %d", o.Name, len(o.Points))
	}
	for k := 0; k+1 < len(o.Points); k++ {
		a, b := o.Points[k], o.Points[k+1]
		if !(math.Hypot(b[0]-a[0], b[1]-a[1]) > 0) {
			return fmt.Errorf("obstacle %q: segment %d from %v to %v has zero length", o.Name, k, a, b)
		}
	}
	return nil
}

// motion is the obstacle's prescribed motion in cfg: its own, or for a
// carried obstacle its driven body's; Fixed for none.
func (o *Obstacle) motion(cfg Config) Motion {
	if m := o.MotionIn(cfg); m != nil {
		return m
	}
	return Fixed{}
}

// freeCarrier is o if it is carried by a free body in cfg (its units act
// on the body's DOFs), else nil.
func (o *Obstacle) freeCarrier(cfg Config) *Obstacle {
	if o != nil && o.Carried && o.MotionIn(cfg) == nil {
		return o
	}
	return nil
}

// drivenIn is the motion the obstacle follows in cfg, nil for a fixed one
// or one carried by a free body (whose DOFs its units act on).
func (o *Obstacle) MotionIn(cfg Config) Motion {
	if !o.Carried {
		return o.Motion
	}
	if o.Body < len(cfg.Driven) {
		return cfg.Driven[o.Body]
	}
	return nil
}
