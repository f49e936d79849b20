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
// package documentation) or, when Radius > 0, a disc of centre Center (free
// space outside).
type Obstacle struct {
	Name   string
	Points [][2]float64
	Center [2]float64
	Radius float64
	Motion Motion // nil means Fixed
}

func (o *Obstacle) check() error {
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

func (o *Obstacle) motion() Motion {
	if o.Motion == nil {
		return Fixed{}
	}
	return o.Motion
}
