package abi

import (
	"github.com/fecontact/fecontact/kind"
)

// Bodies is the number of bodies of every kind (timestep.Simulation's
// global index: finite-element bodies, rigid bodies, point-mass
// components).
func Bodies(h Handle) (n int, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		n = e.sim.NumBodies()
		return OK, nil
	})
	return n, code
}

// Body is body i's name, its kind's name ("rigid bodies") and the lengths
// of its positions and velocities (kind.Stated) and of its applied force
// (kind.Forced; 0 when it takes none).
type Body struct {
	Name, Kind string
	NQ, NV, NF int
}

// BodyInfo describes body i.
func BodyInfo(h Handle, i int) (b Body, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		f, k, err := e.body(i)
		if err != nil {
			return ErrArgument, err
		}
		b = Body{Name: f.BodyName(k), Kind: f.Name()}
		if s, ok := f.(kind.Stated); ok {
			b.NQ, b.NV = s.StateLen(k)
		}
		if s, ok := f.(kind.Forced); ok {
			b.NF = s.ForceLen(k)
		}
		return OK, nil
	})
	return b, code
}

func (e *entry) body(i int) (kind.Family, int, error) {
	f, k, ok := e.sim.BodyOf(i)
	if !ok {
		_, err := refuse(ErrArgument, "body %d: expected 0 to %d (the simulation has %d bodies)", i, e.sim.NumBodies()-1, e.sim.NumBodies())
		return nil, 0, err
	}
	return f, k, nil
}

// stated is body i's family as kind.Stated, with its lengths checked
// against q's and v's (nil: not asked).
func (e *entry) stated(i int, q, v []float64) (kind.Stated, int, Code, error) {
	f, k, err := e.body(i)
	if err != nil {
		return nil, 0, ErrArgument, err
	}
	s, ok := f.(kind.Stated)
	if !ok {
		c, err := refuse(ErrState, "body %d (%s of %s) has no state a program reads or sets", i, f.BodyName(k), f.Name())
		return nil, 0, c, err
	}
	nq, nv := s.StateLen(k)
	if q != nil && len(q) != nq || v != nil && len(v) != nv {
		c, err := refuse(ErrArgument, "body %d (%s): %d positions and %d velocities given: expected %d and %d (or none)", i, f.BodyName(k), len(q), len(v), nq, nv)
		return nil, 0, c, err
	}
	return s, k, OK, nil
}

// GetState writes body i's positions into q and velocities into v, each
// nil or of the body's length (Body.NQ, NV).
func GetState(h Handle, i int, q, v []float64) Code {
	return call(h, func(e *entry) (Code, error) {
		s, k, c, err := e.stated(i, q, v)
		if err != nil {
			return c, err
		}
		s.State(k, q, v)
		return OK, nil
	})
}

// SetState sets body i's positions from q and velocities from v (nil:
// left as they are), from the next step on; the energy it changes is
// booked as external work. A failed simulation takes no state: Restore.
func SetState(h Handle, i int, q, v []float64) Code {
	return call(h, func(e *entry) (Code, error) {
		if e.failed != "" {
			return refuse(ErrFailed, "the simulation failed earlier (%s): restore a checkpoint or free it", e.failed)
		}
		s, k, c, err := e.stated(i, q, v)
		if err != nil {
			return c, err
		}
		if err := s.SetState(k, q, v); err != nil {
			return ErrState, err
		}
		return OK, nil
	})
}

// SetForce sets body i's applied force (Body.NF numbers: a rigid body's
// force and moment, a component's masses' forces), acting from the next
// step on, its work booked as external work.
func SetForce(h Handle, i int, load []float64) Code {
	return call(h, func(e *entry) (Code, error) {
		f, k, err := e.body(i)
		if err != nil {
			return ErrArgument, err
		}
		s, ok := f.(kind.Forced)
		if !ok || s.ForceLen(k) == 0 {
			return refuse(ErrState, "body %d (%s of %s) takes no applied force here (a finite-element body's loads are the scene's tractions; a driven rigid body's motion is prescribed)", i, f.BodyName(k), f.Name())
		}
		if n := s.ForceLen(k); len(load) != n {
			return refuse(ErrArgument, "body %d (%s): %d force components given: expected %d", i, f.BodyName(k), len(load), n)
		}
		if err := s.SetForce(k, load); err != nil {
			return ErrState, err
		}
		return OK, nil
	})
}

// Masses writes the mass each of body i's velocities carries into m (NV
// numbers; kind.Stated): sum m_i v_i over a direction is its momentum.
func Masses(h Handle, i int, m []float64) Code {
	return call(h, func(e *entry) (Code, error) {
		s, k, c, err := e.stated(i, nil, m)
		if err != nil {
			return c, err
		}
		if m == nil {
			return refuse(ErrArgument, "body %d: no room for its masses given", i)
		}
		s.Masses(k, m)
		return OK, nil
	})
}
