package timestep

import (
	"cmp"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
)

// Cohesion: a unit whose law has a cohesion c (kind.Law.Cohesion: the
// mortar of a masonry wall, the bond of a cemented grain) and that touches
// at the run's first step is bonded: while bonded its law holds r_N + h c
// >= 0, tension up to c, and Coulomb's cone is Mohr-Coulomb's, |r_T| <=
// mu (r_N + h c). The step solves it as the plain problem in r' = r + h c
// e_N, whose velocities are W r' + q - W (h c e_N): any solver, its
// certificate unchanged. A bond whose tension reaches its strength (r'_N
// = 0) or that slides, its shear at mu (r_N + h c), breaks for good; a
// unit that comes into contact later has none. The bonds are the
// Simulation's state, kept in a checkpoint.
//
// While it holds, a bond keeps the joint as it is, under either law: its
// law is on the mean velocity, U_N,theta >= 0, neither closing a gap nor
// pushing out a penetration, so that its tension does no work (r'_N > 0
// holds U_N,theta = 0) and at the break, U_N,theta >= 0 with r_N = -h c,
// the work is not positive. Under the positional law a bonded
// finite-element unit's gap of round-off (1e-9 m on a Q8 joint) was
// closed by the tension each step: the glue did positive work.

// bond takes, at the run's first step, every touching unit whose law has
// a cohesion as bonded.
func (s *Simulation) bond(k *step) {
	if k.stats.Step != 1 {
		return
	}
	for a := range k.units {
		u := &k.units[a]
		if l := s.lawOf(a); l.Cohesion > 0 && u.Gap <= l.Bond {
			s.bonded[s.idOf(a)] = true
		}
	}
}

// holds tells whether unit a is bonded.
func (s *Simulation) holds(a int) bool {
	return len(s.bonded) > 0 && s.bonded[s.idOf(a)]
}

// bondShift is the shift of a bonded unit's law, U_N,end + s >= 0, that
// makes it U_N,theta >= 0 for a normal velocity u0 at the step's start.
func bondShift(u0, th float64) float64 { return (1 - th) / th * u0 }

// cohere sets each unit's cohesive impulse h c (0 without a bond) in
// s.work.coh and turns p into the problem in r' (q' = q - W h c e_N).
func (s *Simulation) cohere(units []contact.Unit, p *signorini.Problem, h float64) {
	w := &s.work
	w.coh = reuse.Zeroed(w.coh, len(units))
	if len(s.bonded) == 0 {
		return
	}
	w.cohx = reuse.Zeroed(w.cohx, len(p.Q)) // the units' and the rolling rows'
	x := w.cohx
	any := false
	for a := range units {
		if s.bonded[s.idOf(a)] {
			w.coh[a] = h * s.lawOf(a).Cohesion
			x[2*a], any = w.coh[a], true
		}
	}
	if !any {
		return
	}
	for b := range p.W.Contacts() {
		d := p.W.Diag(b)
		on, ot := p.W.OffDiag(b, x)
		p.Q[2*b] -= d[0]*x[2*b] + d[1]*x[2*b+1] + on
		p.Q[2*b+1] -= d[2]*x[2*b] + d[3]*x[2*b+1] + ot
	}
}

// uncohere turns the solution in r' back into the impulses, r = r' - h c
// e_N, and notes the bonds that reached Mohr-Coulomb's envelope: their
// tension reached their strength (r'_N = 0), or they slid beyond
// round-off, tol (slipTol's; LMGC90's MOHR_DS_CLB: a joint that slips has
// cracked). keepApplied breaks them once the step is done: a solve the
// step replaces (solved again about its predicted end, with its impacts
// at the theta-method's time, on a Newton tangent) breaks none, and the
// next solve sees the bonds it did not.
func (s *Simulation) uncohere(res *signorini.Result, tol float64) {
	s.work.broken = s.work.broken[:0]
	for a, c := range s.work.coh {
		if c == 0 {
			continue
		}
		if res.R[2*a] <= 1e-9*c || slides(res.Status[a], res.U[2*a+1], tol) {
			s.work.broken = append(s.work.broken, s.idOf(a))
		}
		res.R[2*a] -= c
	}
}

// breakBonds breaks for good the bonds the solve the step applied broke.
func (s *Simulation) breakBonds() {
	for _, id := range s.work.broken {
		delete(s.bonded, id)
	}
	s.work.broken = s.work.broken[:0]
}

// Bonds is the number of bonds that hold.
func (s *Simulation) Bonds() int { return len(s.bonded) }

// bondList is the bonds, sorted: a checkpoint's.
func (s *Simulation) bondList() []kind.ID {
	out := make([]kind.ID, 0, len(s.bonded))
	for id := range s.bonded {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, b kind.ID) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Pair, b.Pair), cmp.Compare(a.Node, b.Node),
			compareBool(a.Reverse, b.Reverse), compareBool(a.Valley, b.Valley), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	return out
}
