package signorini

import (
	"fmt"
	"math"
)

// Rolling rows (Problem.RollOf): a contact's resistance to rolling, a
// moment impulse r_R bounded by mu_r r_N of the contact it belongs to,
// against the relative angular velocity u_R of its two bodies (Siconos'
// 2D rolling friction, on velocities as the Coulomb law is):
//
//	|r_R| <= mu_r r_N,   u_R = 0 where |r_R| < mu_r r_N,
//	r_R = -mu_r r_N sign(u_R) where u_R != 0.
//
// A rolling row is a contact of the problem of its own, whose first
// component is (u_R, r_R) and whose second is unused (its rows of W and q
// zero, its r zero): W's 2x2 blocks, NLGS's sweep, its colours and the
// exchange format take it as they are. NLGS solves it after or before its
// contact like any other pair of coupled contacts (a block Gauss-Seidel
// over the two, the bound taken from the contact's current r_N); the
// certificate, the residual and the statuses judge it by its own law.
// Newton's method does not take rolling rows.

// rollOf is contact a's contact when a is a rolling row, -1 otherwise.
func (p *Problem) rollOf(a int) int {
	if p.RollOf == nil {
		return -1
	}
	return p.RollOf[a]
}

// rolls reports whether the problem has a rolling row.
func (p *Problem) rolls() bool {
	for _, c := range p.RollOf {
		if c >= 0 {
			return true
		}
	}
	return false
}

// checkRolling checks RollOf: a rolling row belongs to a contact that is
// not one, and its unused component is zero.
func (p *Problem) checkRolling() error {
	n := p.W.Contacts()
	if p.RollOf == nil {
		return nil
	}
	if len(p.RollOf) != n {
		return fmt.Errorf("signorini: RollOf has %d entries for %d contacts", len(p.RollOf), n)
	}
	for a, c := range p.RollOf {
		switch {
		case c < -1 || c >= n || c == a:
			return fmt.Errorf("signorini: contact %d: RollOf = %d: expected -1 (a contact) or the index of the contact it is the rolling row of", a, c)
		case c >= 0 && p.RollOf[c] >= 0:
			return fmt.Errorf("signorini: contact %d: the rolling row of contact %d, itself a rolling row", a, c)
		case c >= 0 && p.Q[2*a+1] != 0:
			return fmt.Errorf("signorini: rolling row %d: q[1] = %g: its second component is unused (expected 0)", a, p.Q[2*a+1])
		}
	}
	return nil
}

// bound is rolling row a's bound mu_r r_N for impulses r.
func (p *Problem) bound(a, c int, r []float64) float64 {
	return p.Mu[a] * max(r[2*c], 0)
}

// settle ends an NLGS solve: with rolling rows, each moment impulse is
// put back within the bound of its contact's final r_N (a row updated
// before its contact's last update, in an alternating or coloured sweep,
// may exceed it by that update: a cone violation of 0.9 % on a heap's
// step), and u = W r + q and the residual follow; then the statuses.
func settle(p *Problem, res *Result) {
	if p.rolls() {
		moved := false
		for a, c := range p.RollOf {
			if c < 0 {
				continue
			}
			b := p.bound(a, c, res.R)
			if r := min(max(res.R[2*a], -b), b); r != res.R[2*a] {
				res.R[2*a], moved = r, true
			}
		}
		if moved {
			res.Residual = Residual(p, res.R, res.U)
		}
	}
	statuses(p, res)
}

// rollSingle solves one rolling row: given its own compliance w, its free
// rolling velocity uf (with the other contacts' impulses) and its bound
// b, the moment impulse that stops it if one within the bound can, the
// bound against its rolling otherwise.
func rollSingle(w, uf, b float64) (r float64, st Status) {
	switch {
	case b <= 0:
		return 0, Open
	case uf == 0:
		return 0, Stick
	}
	r = -uf / w
	switch {
	case r > b:
		return b, SlideBackward
	case r < -b:
		return -b, SlideForward
	}
	return r, Stick
}

// rollResidual1 is a rolling row's squared natural-map residual: r_R
// against its projection of r_R - u_R on [-b, b].
func rollResidual1(r, u, b float64) float64 {
	d := r - min(max(r-u, -b), b)
	return d * d
}

// rollStatus classifies a rolling row's solution.
func rollStatus(r, u, b float64) Status {
	switch {
	case b <= 0 && r == 0:
		return Open
	case math.Abs(r) < b*(1-1e-9) || u == 0:
		return Stick
	case u > 0:
		return SlideForward
	}
	return SlideBackward
}

// rollCertify is a rolling row's part of the certificate: its
// complementarity |r_R u_R + b |u_R||, its scale |r_R| (|u_R| + |q_R|)
// and its violation of the bound as an impulse, (|r_R| - b)/mu_r.
func rollCertify(r, u, q, b, mu float64) (gap, scale, violation float64) {
	gap = math.Abs(r*u + b*math.Abs(u))
	scale = math.Abs(r) * (math.Abs(u) + math.Abs(q))
	switch {
	case mu > 0:
		violation = (math.Abs(r) - b) / mu
	case r != 0:
		violation = math.Inf(1)
	}
	return gap, scale, violation
}

// links are, per contact, the contacts a rolling row ties it to beyond
// W's pattern (its contact, or its rolling rows): the colouring keeps
// them apart, since a row reads its contact's r_N. nil without rolling
// rows.
func (p *Problem) links() [][]int {
	if !p.rolls() {
		return nil
	}
	l := make([][]int, len(p.RollOf))
	for a, c := range p.RollOf {
		if c >= 0 {
			l[a] = append(l[a], c)
			l[c] = append(l[c], a)
		}
	}
	return l
}
