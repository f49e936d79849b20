package abi

import "github.com/fecontact/fecontact/signorini"

// Contact is one contact unit after the last step (timestep.ContactState),
// laid out as fecontact.h's fec_contact: its body (the global index the
// force acts on), its status (0 open, 1 stick, 2 slide), the point, the
// normal and tangent, the impulse density (P_N, P_T, Pa s), the local
// velocity (U_N + s, U_T, m/s), the force on the body (N per m), mu, the
// gap (m) and whether a cohesion's bond held through the step (1).
type Contact struct {
	Body, Status      int32
	X, N, T           [2]float64
	Impulse, Velocity [2]float64
	Force             [2]float64
	Mu, Gap           float64
	Bonded            int32
}

// Contacts is the number of contact units of the last step.
func Contacts(h Handle) (n int, code Code) {
	code = call(h, func(e *entry) (Code, error) {
		n = e.sim.ContactCount()
		return OK, nil
	})
	return n, code
}

// ContactsTo writes the last step's units into dst, which must hold them
// all (Contacts).
func ContactsTo(h Handle, dst []Contact) Code {
	return call(h, func(e *entry) (Code, error) {
		cs := e.sim.Contacts()
		if len(dst) != len(cs) {
			return refuse(ErrArgument, "contacts: room for %d given: expected %d (the last step's units)", len(dst), len(cs))
		}
		for i, c := range cs {
			dst[i] = Contact{Body: int32(c.Body), Status: status(c.Status), X: c.X, N: c.N, T: c.T,
				Impulse: c.Impulse, Velocity: c.Velocity, Force: e.sim.Force(c), Mu: c.Mu, Gap: c.Gap, Bonded: flag(c.Bonded)}
		}
		return OK, nil
	})
}

// flag is a C boolean.
func flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// status is 0 open, 1 stick, 2 slide (either way: the tangent velocity's
// sign says which).
func status(s signorini.Status) int32 {
	switch s {
	case signorini.Open:
		return 0
	case signorini.Stick:
		return 1
	}
	return 2
}
