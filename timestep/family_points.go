package timestep

import (
	"encoding/gob"
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
)

// pointFamily drives the components of a discrete.System (masses that
// springs join) through the contact step (family); a nil system has none.
// Each component is one body, its DOFs its masses' x and y.
type pointFamily struct {
	sys *discrete.System
}

// newPointFamily fixes the system's step and factorises its components.
func newPointFamily(sys *discrete.System, h, theta float64) (pointFamily, error) {
	if sys != nil {
		if err := sys.Prepare(h, theta); err != nil {
			return pointFamily{}, err
		}
	}
	return pointFamily{sys}, nil
}

func (f pointFamily) len() int {
	if f.sys == nil {
		return 0
	}
	return f.sys.Len()
}

func (f pointFamily) name(k int) string {
	return fmt.Sprintf("masses of %q", f.sys.Masses[f.sys.Component(k)[0]].Name)
}

func (f pointFamily) dofs(k int) int { return 2 * len(f.sys.Component(k)) }

func (f pointFamily) compliance(k int) Compliance {
	eqs, c := f.sys.Compliance(k)
	return Compliance{Eqs: eqs, C: c}
}

func (f pointFamily) massCompliance(k int) (Compliance, error) {
	eqs, c := f.sys.MassCompliance(k)
	return Compliance{Eqs: eqs, C: c}, nil
}

// place has nothing to write: masses touch obstacles, which the contact
// configuration does not hold.
func (f pointFamily) place(k, global int, cfg *placement) {}

func (f pointFamily) motion(int) contact.Motion { return nil }
func (f pointFamily) carries() bool             { return false }

func (f pointFamily) begin(t, h, th float64) error {
	if f.sys == nil {
		return nil
	}
	return f.sys.Begin(t)
}

func (f pointFamily) start(k int) (v0, vfree []float64) {
	return f.sys.Velocity(k), f.sys.FreeVelocity(k)
}

func (f pointFamily) current(k int) []float64 { return f.sys.Current(k) }

func (f pointFamily) impact(k int, r []float64) error {
	f.sys.Impact(k, r)
	return nil
}

// predict gives the end velocity of the impulse through the exact
// compliance; the masses' units are kept from the start (pointSource), so
// no configuration is written.
func (f pointFamily) predict(k, global int, v, r []float64, t, h, th float64, cfg *placement) {
	_, c := f.sys.Compliance(k)
	n := len(v)
	for i := range n {
		for j := range n {
			v[i] += c[i*n+j] * r[j]
		}
	}
}

// advance has nothing to iterate: the components are linear.
func (f pointFamily) advance(r [][]float64, loaded bool) (bool, error) { return true, nil }

// finish applies the impulses, ends the step and refuses a state out of
// range.
func (f pointFamily) finish(r, shift [][]float64, loaded bool, step int) error {
	if f.sys == nil {
		return nil
	}
	return finishSystem(f.sys, r, shift, loaded, step)
}

func (f pointFamily) energy(e Energy) Energy {
	for k := range f.len() {
		p := f.sys.Energy(k)
		e = e.Add(Energy{Kinetic: p.Kinetic, Elastic: p.Elastic, External: p.External, Damping: p.Damping, Numerical: p.Numerical, Contact: p.Contact})
	}
	return e
}

func (f pointFamily) save(enc *gob.Encoder) error {
	return saveState(enc, f.sys != nil, func() discrete.SystemState { return f.sys.State() })
}

func (f pointFamily) load(dec *gob.Decoder) error {
	return loadState(dec, "point masses", f.sys != nil, func(st discrete.SystemState) error { return f.sys.SetState(st) })
}
