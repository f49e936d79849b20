package rigid

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
)

// Body is a rigid body: a shape in a pose, with its mass properties and
// velocity. A body with a Motion is driven: it translates by the motion
// from its initial position and does not rotate; the others are free.
type Body struct {
	Name  string
	Group string // the rules' name for it; "" is a group like any other
	Shape Shape
	// Mass (kg) and Inertia (kg m^2, about the centre of mass), per m of
	// thickness: NewBody computes them from a density; set them to give
	// other values.
	Mass, Inertia float64
	Q             [3]float64 // centre of mass x, y (m) and rotation (rad)
	V             [3]float64 // vx, vy (m/s) and angular velocity (rad/s)
	Gravity       [2]float64 // acceleration (m/s^2)
	// Force (N/m) at the centre of mass and Moment (N m/m) on a free
	// body, constant: loads beside gravity, their work booked as external
	// work.
	Force  [2]float64
	Moment float64
	// LoadTime, when set, is the factor of Force and Moment at time t (a
	// ramp, a cycle, a table): the step applies them theta-weighted over
	// its ends, as the finite-element bodies' loads, and books their work.
	LoadTime func(t float64) float64
	Motion   contact.Motion
	// Surface, when set, lists the only faces of a polygon (face k from
	// vertex k to k+1) that other polygons may rest on: a one-sided piece
	// of ground whose other faces lie inside the ground (an obstacle
	// segment's quadrilateral, a base tiled by periodic images), so that a
	// body sliding across the joint between two pieces does not catch on
	// a side face. Nil: every face.
	Surface []int

	start [2]float64 // position at time 0, from which a driven body moves
}

// NewBody places a shape with its centre of mass at center; density
// (kg/m^3) gives the mass and inertia per 1 m of thickness.
func NewBody(name string, shape Shape, center [2]float64, density float64) (*Body, error) {
	if !(density >= 0) || math.IsInf(density, 0) {
		return nil, fmt.Errorf("rigid body %q: density %g: expected a finite, non-negative value", name, density)
	}
	if shape == nil || !(shape.Area() > 0) {
		return nil, fmt.Errorf("rigid body %q: no shape, or a shape without area", name)
	}
	return &Body{
		Name: name, Shape: shape,
		Mass: density * shape.Area(), Inertia: density * shape.PolarMoment(),
		Q: [3]float64{center[0], center[1], 0},
	}, nil
}

// Driven reports whether the body follows a prescribed motion.
func (b *Body) Driven() bool { return b.Motion != nil }

// World returns the position of the material point at r (in the body's
// frame, about its centre of mass).
func (b *Body) World(r [2]float64) [2]float64 {
	s, c := math.Sincos(b.Q[2])
	return [2]float64{b.Q[0] + c*r[0] - s*r[1], b.Q[1] + s*r[0] + c*r[1]}
}

// PointVelocity returns the velocity of the material point now at x.
func (b *Body) PointVelocity(x [2]float64) [2]float64 {
	r := [2]float64{x[0] - b.Q[0], x[1] - b.Q[1]}
	return [2]float64{b.V[0] - b.V[2]*r[1], b.V[1] + b.V[2]*r[0]}
}

// Vertices returns the polygon's vertices in their current position
// (appended to dst), or dst for a disk.
func (b *Body) Vertices(dst [][2]float64) [][2]float64 {
	if p, ok := b.Shape.(*Polygon); ok {
		for _, v := range p.local {
			dst = append(dst, b.World(v))
		}
	}
	return dst
}

func (b *Body) check() error {
	finite := func(x ...float64) bool {
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	switch {
	case b.Shape == nil:
		return fmt.Errorf("rigid body %q: no shape", b.Name)
	case !finite(b.Q[:]...) || !finite(b.V[:]...) || !finite(b.Gravity[:]...):
		return fmt.Errorf("rigid body %q: position %v, velocity %v, gravity %v: expected finite values", b.Name, b.Q, b.V, b.Gravity)
	case !finite(b.Force[0], b.Force[1], b.Moment):
		return fmt.Errorf("rigid body %q: force %v, moment %g: expected finite values", b.Name, b.Force, b.Moment)
	case b.Driven() && b.loaded():
		return fmt.Errorf("rigid body %q: force %v, moment %g on a driven body, whose motion is prescribed: they would do nothing; leave them out, or free the body", b.Name, b.Force, b.Moment)
	case b.Driven():
		return nil
	case !(b.Mass > 0) || !(b.Inertia > 0) || !finite(b.Mass, b.Inertia):
		return fmt.Errorf("rigid body %q: mass %g kg, inertia %g kg m^2: a free body needs both positive (give it a positive density)", b.Name, b.Mass, b.Inertia)
	}
	return nil
}

// Obstacle returns the body's boundary as an obstacle it carries
// (contact.Obstacle.Carried), for finite-element sides and point masses
// to touch, held by the body itself (contact.Obstacle.Owner): the
// simulation numbers it with the body. A polygon's vertices are in its
// frame, clockwise and closed (the obstacle on the polyline's right); a
// disk is its radius.
func (b *Body) Obstacle() *contact.Obstacle {
	o := &contact.Obstacle{Name: b.Name, Carried: true, Owner: b}
	if d, ok := b.Shape.(Disk); ok {
		o.Radius = d.R
		return o
	}
	vs := b.Shape.(*Polygon).Vertices()
	for k := len(vs) - 1; k >= 0; k-- {
		o.Points = append(o.Points, vs[k])
	}
	o.Points = append(o.Points, vs[len(vs)-1])
	return o
}
