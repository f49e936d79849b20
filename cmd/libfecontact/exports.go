//go:build cgo

package main

/*
#include <stdint.h>
#include <stddef.h>
#define FEC_TYPES_ONLY
#include "fecontact.h"
*/
import "C"

import (
	"unsafe"

	"github.com/fecontact/fecontact/abi"
)

// maxLength bounds an array length from C: past it the length is a
// mistake (or garbage), not an array.
const maxLength = 1 << 28

func handle(s C.fec_sim) abi.Handle { return abi.Handle(s) }

// doubles is C's array p of n doubles as a slice over it (nil for NULL);
// ok false for a length out of range, or a NULL array of nonzero length.
func doubles(p *C.double, n C.int) (s []float64, ok bool) {
	switch {
	case n < 0 || n > maxLength:
		return nil, false
	case p == nil:
		return nil, n == 0
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), int(n)), true
}

// text copies s into buf (cap bytes, NUL-terminated, cut short when it
// does not fit) and returns its full length.
func text(s string, buf *C.char, capacity C.size_t) C.size_t {
	if buf != nil && capacity > 0 {
		// Only the bytes written are touched: a capacity of SIZE_MAX
		// (a caller's "large enough") is no slice length.
		n := len(s)
		if uint64(capacity) <= uint64(n) {
			n = int(capacity) - 1
		}
		dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), n+1)
		copy(dst, s[:n])
		dst[n] = 0
	}
	return C.size_t(len(s))
}

func code(c abi.Code) C.int { return C.int(c) }

func openWith(src abi.Source, refine C.int, sim *C.fec_sim) C.int {
	if sim == nil {
		return code(abi.Invalid(0, "open: no place for the handle given (sim is NULL)"))
	}
	src.Refine = int(refine)
	h, c := abi.Open(src)
	*sim = C.fec_sim(h)
	return code(c)
}

//export fec_open_file
func fec_open_file(path *C.char, refine C.int, sim *C.fec_sim) C.int {
	if path == nil {
		return code(abi.Invalid(0, "fec_open_file: the path is NULL"))
	}
	return openWith(abi.Source{Path: C.GoString(path)}, refine, sim)
}

//export fec_open_string
func fec_open_string(toml, name *C.char, refine C.int, sim *C.fec_sim) C.int {
	if toml == nil {
		return code(abi.Invalid(0, "fec_open_string: the scene text is NULL"))
	}
	src := abi.Source{Text: C.GoString(toml)}
	if src.Text == "" {
		return code(abi.Invalid(0, "fec_open_string: the scene text is empty"))
	}
	if name != nil {
		src.Name = C.GoString(name)
	}
	return openWith(src, refine, sim)
}

//export fec_open_example
func fec_open_example(name *C.char, refine C.int, sim *C.fec_sim) C.int {
	if name == nil {
		return code(abi.Invalid(0, "fec_open_example: the name is NULL"))
	}
	return openWith(abi.Source{Example: C.GoString(name)}, refine, sim)
}

//export fec_free
func fec_free(sim C.fec_sim) C.int { return code(abi.Free(handle(sim))) }

//export fec_message
func fec_message(sim C.fec_sim, buf *C.char, capacity C.size_t) C.size_t {
	return text(abi.Message(handle(sim)), buf, capacity)
}

//export fec_step
func fec_step(sim C.fec_sim, n C.int) C.int { return code(abi.Step(handle(sim), int(n))) }

//export fec_step_to
func fec_step_to(sim C.fec_sim, t C.double) C.int { return code(abi.StepTo(handle(sim), float64(t))) }

//export fec_time
func fec_time(sim C.fec_sim, t *C.double) C.int {
	if t == nil {
		return code(abi.Invalid(handle(sim), "fec_time: t is NULL"))
	}
	v, c := abi.Time(handle(sim))
	if c == abi.OK {
		*t = C.double(v)
	}
	return code(c)
}

//export fec_last_step
func fec_last_step(sim C.fec_sim, out *C.fec_step_stats) C.int {
	if out == nil {
		return code(abi.Invalid(handle(sim), "fec_last_step: out is NULL"))
	}
	s, c := abi.LastStep(handle(sim))
	if c == abi.OK {
		*out = C.fec_step_stats{step: C.int32_t(s.Step), converged: C.int32_t(s.Converged), time: C.double(s.Time),
			units: C.int32_t(s.Units), open: C.int32_t(s.Open), stick: C.int32_t(s.Stick), slide: C.int32_t(s.Slide),
			sweeps: C.int32_t(s.Sweeps), residual: C.double(s.Residual), complementarity: C.double(s.Complementarity),
			cone_violation: C.double(s.ConeViolation), min_gap: C.double(s.MinGap),
			normal_work: C.double(s.NormalWork), friction_work: C.double(s.FrictionWork)}
	}
	return code(c)
}

//export fec_energy_ledger
func fec_energy_ledger(sim C.fec_sim, out *C.fec_energy) C.int {
	if out == nil {
		return code(abi.Invalid(handle(sim), "fec_energy_ledger: out is NULL"))
	}
	e, c := abi.Ledger(handle(sim))
	if c == abi.OK {
		*out = C.fec_energy{kinetic: C.double(e.Kinetic), elastic: C.double(e.Elastic), external: C.double(e.External),
			damping: C.double(e.Damping), numerical: C.double(e.Numerical), contact: C.double(e.Contact),
			total_energy: C.double(e.TotalEnergy), balance_error: C.double(e.BalanceError), normal_work: C.double(e.NormalWork), friction_work: C.double(e.FrictionWork),
			obstacle_work: C.double(e.ObstacleWork), push_out_work: C.double(e.PushOutWork)}
	}
	return code(c)
}

//export fec_body_count
func fec_body_count(sim C.fec_sim, n *C.int) C.int {
	if n == nil {
		return code(abi.Invalid(handle(sim), "fec_body_count: n is NULL"))
	}
	v, c := abi.Bodies(handle(sim))
	if c == abi.OK {
		*n = C.int(v)
	}
	return code(c)
}

//export fec_body_info
func fec_body_info(sim C.fec_sim, body C.int, name *C.char, nameCap C.size_t, kind *C.char, kindCap C.size_t, nq, nv, nf *C.int) C.int {
	b, c := abi.BodyInfo(handle(sim), int(body))
	if c != abi.OK {
		return code(c)
	}
	text(b.Name, name, nameCap)
	text(b.Kind, kind, kindCap)
	for _, x := range []struct {
		to *C.int
		n  int
	}{{nq, b.NQ}, {nv, b.NV}, {nf, b.NF}} {
		if x.to != nil {
			*x.to = C.int(x.n)
		}
	}
	return code(c)
}

// arrays converts a state call's arrays, refusing a bad length.
func arrays(sim C.fec_sim, what string, q *C.double, nq C.int, v *C.double, nv C.int) ([]float64, []float64, abi.Code) {
	qs, ok1 := doubles(q, nq)
	vs, ok2 := doubles(v, nv)
	if !ok1 || !ok2 {
		return nil, nil, abi.Invalid(handle(sim), "%s: arrays of %d and %d doubles (NULL: %t, %t): expected the body's lengths, an array for a nonzero length", what, nq, nv, q == nil, v == nil)
	}
	return qs, vs, abi.OK
}

//export fec_get_state
func fec_get_state(sim C.fec_sim, body C.int, q *C.double, nq C.int, v *C.double, nv C.int) C.int {
	qs, vs, c := arrays(sim, "fec_get_state", q, nq, v, nv)
	if c != abi.OK {
		return code(c)
	}
	return code(abi.GetState(handle(sim), int(body), qs, vs))
}

//export fec_set_state
func fec_set_state(sim C.fec_sim, body C.int, q *C.double, nq C.int, v *C.double, nv C.int) C.int {
	qs, vs, c := arrays(sim, "fec_set_state", q, nq, v, nv)
	if c != abi.OK {
		return code(c)
	}
	return code(abi.SetState(handle(sim), int(body), qs, vs))
}

//export fec_masses
func fec_masses(sim C.fec_sim, body C.int, m *C.double, nv C.int) C.int {
	ms, ok := doubles(m, nv)
	if !ok || ms == nil {
		return code(abi.Invalid(handle(sim), "fec_masses: an array of %d doubles (NULL: %t): expected the body's nv", nv, m == nil))
	}
	return code(abi.Masses(handle(sim), int(body), ms))
}

//export fec_set_force
func fec_set_force(sim C.fec_sim, body C.int, f *C.double, nf C.int) C.int {
	fs, ok := doubles(f, nf)
	if !ok || fs == nil {
		return code(abi.Invalid(handle(sim), "fec_set_force: an array of %d doubles (NULL: %t): expected the body's nf", nf, f == nil))
	}
	return code(abi.SetForce(handle(sim), int(body), fs))
}

//export fec_contact_count
func fec_contact_count(sim C.fec_sim, n *C.int) C.int {
	if n == nil {
		return code(abi.Invalid(handle(sim), "fec_contact_count: n is NULL"))
	}
	v, c := abi.Contacts(handle(sim))
	if c == abi.OK {
		*n = C.int(v)
	}
	return code(c)
}

//export fec_contacts
func fec_contacts(sim C.fec_sim, dst *C.fec_contact, n C.int) C.int {
	if n < 0 || n > maxLength || dst == nil && n > 0 {
		return code(abi.Invalid(handle(sim), "fec_contacts: room for %d (NULL: %t): expected fec_contact_count's", n, dst == nil))
	}
	cs := make([]abi.Contact, int(n))
	if c := abi.ContactsTo(handle(sim), cs); c != abi.OK {
		return code(c)
	}
	if n == 0 {
		return code(abi.OK)
	}
	out := unsafe.Slice(dst, int(n))
	for i, u := range cs {
		out[i] = C.fec_contact{body: C.int32_t(u.Body), status: C.int32_t(u.Status),
			x: pair(u.X), n: pair(u.N), t: pair(u.T), impulse: pair(u.Impulse), velocity: pair(u.Velocity),
			force: pair(u.Force), mu: C.double(u.Mu), gap: C.double(u.Gap), bonded: C.int32_t(u.Bonded)}
	}
	return code(abi.OK)
}

func pair(p [2]float64) [2]C.double { return [2]C.double{C.double(p[0]), C.double(p[1])} }

//export fec_save
func fec_save(sim C.fec_sim, path *C.char) C.int {
	if path == nil {
		return code(abi.Invalid(handle(sim), "fec_save: the path is NULL"))
	}
	return code(abi.Save(handle(sim), C.GoString(path)))
}

//export fec_restore
func fec_restore(sim C.fec_sim, path *C.char) C.int {
	if path == nil {
		return code(abi.Invalid(handle(sim), "fec_restore: the path is NULL"))
	}
	return code(abi.Restore(handle(sim), C.GoString(path)))
}
