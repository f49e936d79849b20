package contact

import (
	"fmt"
	"math"
	"sort"
)

// Record is a translation along a unit Direction whose acceleration is a
// record's, an accelerogram of a shake table or an earthquake: linear
// between its samples (T_i, A_i), and integrated exactly, so that its
// velocity and offset are those of that acceleration to round-off (a
// quadratic and a cubic on each interval), from rest at T_0. Before T_0
// it is at rest; after the last sample it moves on at the last velocity.
// The offset and velocity are what the step reads (Offset, Velocity), so
// the ground a body rests on moves as the record says, not as a
// re-integration by the step would.
type Record struct {
	direction [2]float64
	of        Quantity  // what the samples are
	t, a      []float64 // the times and the samples
	v, x      []float64 // velocity and offset at each sample
}

// Quantity is what a record's samples give.
type Quantity int

const (
	// Acceleration samples, linear between them (an accelerogram).
	Acceleration Quantity = iota
	// Velocity samples, linear between them: the offset is their
	// integral, quadratic on each interval.
	Velocity
	// Displacement samples, linear between them, from 0 at the first:
	// the velocity is constant on each interval.
	Displacement
)

// NewRecord makes a record from its samples (copied): times strictly
// increasing from T_0 >= 0, accelerations finite (m/s^2), and a non-zero
// direction (made a unit vector).
func NewRecord(t, a []float64, direction [2]float64) (*Record, error) {
	return NewRecordOf(Acceleration, t, a, direction)
}

// NewRecordOf is NewRecord of samples of the given quantity (a
// displacement record starts from 0: the place it moves from).
func NewRecordOf(of Quantity, t, a []float64, direction [2]float64) (*Record, error) {
	l := math.Hypot(direction[0], direction[1])
	switch {
	case len(t) < 2 || len(t) != len(a):
		return nil, fmt.Errorf("a record of %d times and %d accelerations: expected two or more samples of each", len(t), len(a))
	case !(l > 0) || math.IsInf(l, 0):
		return nil, fmt.Errorf("record direction %v: expected a non-zero [dx, dy]", direction)
	case !(t[0] >= 0) || math.IsInf(t[0], 0):
		return nil, fmt.Errorf("record: its first time %g: expected a time >= 0 s", t[0])
	}
	if of == Displacement && a[0] != 0 {
		return nil, fmt.Errorf("a displacement record starting at %g m: expected 0 at its first time (the place it moves from)", a[0])
	}
	r := &Record{direction: [2]float64{direction[0] / l, direction[1] / l}, of: of, t: append([]float64(nil), t...), a: append([]float64(nil), a...)}
	r.v, r.x = make([]float64, len(t)), make([]float64, len(t))
	for i := range t {
		if math.IsNaN(a[i]) || math.IsInf(a[i], 0) {
			return nil, fmt.Errorf("record sample %d (t = %g s): %s %g: expected a finite number", i+1, t[i], [...]string{"acceleration", "velocity", "displacement"}[of], a[i])
		}
		if i == 0 {
			if of == Velocity {
				r.v[0] = a[0]
			}
			continue
		}
		dt := t[i] - t[i-1]
		if !(dt > 0) || math.IsInf(t[i], 0) {
			return nil, fmt.Errorf("record sample %d: time %g s after %g s: expected increasing times", i+1, t[i], t[i-1])
		}
		switch of {
		case Acceleration:
			r.v[i] = r.v[i-1] + dt*(a[i-1]+a[i])/2
			r.x[i] = r.x[i-1] + dt*r.v[i-1] + dt*dt*(2*a[i-1]+a[i])/6
		case Velocity:
			r.v[i] = a[i]
			r.x[i] = r.x[i-1] + dt*(a[i-1]+a[i])/2
		case Displacement:
			r.x[i] = a[i]
			r.v[i] = (a[i] - a[i-1]) / dt // over the interval that ends here
		}
	}
	return r, nil
}

// along is the offset and velocity along the direction at time t.
func (r *Record) along(t float64) (x, v float64) {
	n := len(r.t)
	switch {
	case t <= r.t[0]:
		return 0, 0
	case t >= r.t[n-1]:
		return r.x[n-1] + r.v[n-1]*(t-r.t[n-1]), r.v[n-1]
	}
	i := sort.SearchFloat64s(r.t, t) - 1 // r.t[i] < t <= r.t[i+1]
	dt, s := r.t[i+1]-r.t[i], t-r.t[i]
	slope := (r.a[i+1] - r.a[i]) / dt
	switch r.of {
	case Velocity:
		return r.x[i] + r.a[i]*s + slope*s*s/2, r.a[i] + slope*s
	case Displacement:
		return r.a[i] + slope*s, slope
	}
	v = r.v[i] + r.a[i]*s + slope*s*s/2
	x = r.x[i] + r.v[i]*s + r.a[i]*s*s/2 + slope*s*s*s/6
	return x, v
}

// Offset is the record's displacement at t.
func (r *Record) Offset(t float64) [2]float64 {
	x, _ := r.along(t)
	return [2]float64{x * r.direction[0], x * r.direction[1]}
}

// Velocity is the record's velocity at t.
func (r *Record) Velocity(t float64) [2]float64 {
	_, v := r.along(t)
	return [2]float64{v * r.direction[0], v * r.direction[1]}
}
