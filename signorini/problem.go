package signorini

import (
	"errors"
	"fmt"
	"math"

	"github.com/fecontact/fecontact/internal/friction"
	"github.com/fecontact/fecontact/internal/reuse"
)

// The solver's vocabulary, shared by NLGS, Newton and Solve: the problem,
// the options of a solve, its result and the residual that measures it.

// Problem is one frictional contact problem: u = W r + Q, laws per contact.
type Problem struct {
	W     Delassus
	Q     []float64 // 2n free local velocities, normal then tangent per contact
	Mu    []float64 // n friction coefficients
	Shift []float64 // n normal shifts s (nil: all zero, the velocity law)
	// RollOf, when set, makes contact a the rolling row of contact
	// RollOf[a] where that is not -1: Mu[a] is its rolling coefficient
	// mu_r (a length) and its first component the rolling velocity and
	// moment impulse (rolling.go). nil: no rolling rows.
	RollOf []int
}

// MaxMu is the largest friction coefficient a contact takes: 1000, which
// sticks for any practical purpose (internal/friction says why no more).
const MaxMu = friction.MaxMu

func (p *Problem) check() error {
	n := p.W.Contacts()
	switch {
	case len(p.Q) != 2*n:
		return fmt.Errorf("signorini: q has %d entries for %d contacts (want %d)", len(p.Q), n, 2*n)
	case len(p.Mu) != n:
		return fmt.Errorf("signorini: mu has %d entries for %d contacts", len(p.Mu), n)
	case p.Shift != nil && len(p.Shift) != n:
		return fmt.Errorf("signorini: shift has %d entries for %d contacts", len(p.Shift), n)
	}
	if err := p.checkRolling(); err != nil {
		return err
	}
	for a, m := range p.Mu {
		if !(m >= 0 && m <= MaxMu) {
			return fmt.Errorf("signorini: contact %d: mu = %g: expected a friction coefficient in [0, %g] (%g already sticks)", a, m, MaxMu, MaxMu)
		}
	}
	for i, q := range p.Q {
		if math.IsNaN(q) || math.IsInf(q, 0) {
			return fmt.Errorf("signorini: contact %d: q[%d] = %v", i/2, i%2, q)
		}
	}
	return nil
}

func (p *Problem) shift(a int) float64 {
	if p.Shift == nil {
		return 0
	}
	return p.Shift[a]
}

// Order is the order in which a sweep visits the contacts.
type Order int

// Orders.
const (
	Natural     Order = iota // 0, 1, ..., n-1 every sweep
	Alternating              // forwards, then backwards
	Random                   // a new random permutation every sweep (seeded)
	// Shuffled draws one random permutation (seeded) and reviews the
	// contacts cyclically in it: the "random order" modality of [M04]
	// section 3.1.
	Shuffled
	// Coloured visits the contacts colour by colour, a colour being a set
	// of contacts no two of which W couples (greedy, in contact order), so
	// that a colour's updates are independent: with GOMAXPROCS > 1 the
	// cores share each colour. The iterates, the sweeps and the result are
	// the same on any number of cores. It needs a BlockSparse W (others
	// are swept in natural order).
	Coloured
)

// ParseOrder reads an order by its name: natural (or empty), alternating,
// random or coloured.
func ParseOrder(s string) (Order, error) {
	switch s {
	case "", "natural":
		return Natural, nil
	case "alternating":
		return Alternating, nil
	case "random":
		return Random, nil
	case "coloured":
		return Coloured, nil
	}
	return 0, fmt.Errorf("order %q: expected natural, alternating, random or coloured", s)
}

// Start is the initial guess of the impulses.
type Start int

// Initial guesses.
const (
	Zero      Start = iota
	Warm            // Options.Warm, e.g. the previous step's impulses
	RandomBox       // uniform in [0, Box] for r_N, [-mu r_N, mu r_N] for r_T
)

// Measure is what NLGS's tolerance bounds.
type Measure int

// Convergence measures.
const (
	// NaturalResidual is the natural-map residual of the
	// Signorini-Coulomb conditions over max(||r||, ||W r + q||, ||q||)
	// (Siconos' measure), checked every few sweeps: a mix of impulses and
	// velocities, whose meaning depends on the problem's units and scale.
	NaturalResidual Measure = iota
	// VelocityChange is the change of the contacts' local velocities that
	// the last sweep made through their own compliance, W_aa (r_a -
	// r_a,previous), in RMS over the RMS of W_aa r_a: dimensionless and
	// relative to the problem's own velocity scale, so that one tolerance
	// means the same for a block, a pillar and a pile (LMGC90's "Quad"
	// criterion). Checked every sweep at the cost of a few products.
	VelocityChange
)

// Method is how Solve solves a problem.
type Method int

// Methods. The zero value is Auto.
const (
	// Auto runs NLGS and hands a problem on which it stops making
	// progress to Newton's method, warm-started from NLGS's iterate.
	Auto Method = iota
	// NLGSMethod is nonlinear Gauss-Seidel alone (NLGS).
	NLGSMethod
	// NewtonMethod is the semismooth Newton method alone (Newton).
	NewtonMethod
)

// ParseMethod reads a method by its name: auto (or empty), nlgs or
// newton.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "nlgs":
		return NLGSMethod, nil
	case "newton":
		return NewtonMethod, nil
	}
	return 0, fmt.Errorf("method %q: expected auto, nlgs or newton", s)
}

func (m Method) String() string { return [...]string{"auto", "nlgs", "newton"}[m] }

// Options of NLGS. The zero value means: natural order, zero start, no
// relaxation, tolerance 1e-8 on the natural residual, 10 000 sweeps.
type Options struct {
	// Method is how Solve solves (Auto by default); NLGS and Newton
	// ignore it.
	Method Method
	// NewtonIterations bounds Newton's iterations (0 means 100, or 500 on a
	// problem of more than 400 contacts, whose nonmonotone search takes
	// more of them).
	NewtonIterations int
	// Measure is what Tol bounds (NaturalResidual by default).
	Measure Measure
	Order   Order
	Seed    uint64 // for Random order and RandomBox start
	Start   Start
	Warm    []float64 // 2n impulses for Start = Warm
	Box     float64   // for Start = RandomBox
	Omega   float64   // relaxation in (0, 2); 0 means 1
	Tol     float64   // on the residual (and the change); 0 means 1e-8
	// ChangeTol bounds the relative change of r over the last sweep; 0
	// means Tol. A negative value stops on the residual alone (checked every
	// 10 sweeps and whenever the change is below Tol): right for
	// hyperstatic problems, where the impulses may drift along a set of
	// solutions that all satisfy the laws.
	ChangeTol float64
	MaxSweeps int // 0 means 10 000
	// Progress, when set, is called with the sweep count every 100
	// sweeps: a long solve can say that it is alive.
	Progress func(sweeps int)
	// Reuse is a result whose storage NLGS fills and returns instead of
	// allocating a new one (a time stepper solving a problem every step).
	// Warm may be its R: the previous solution as the start.
	Reuse *Result

	// colours are the bounds of the colours of a problem numbered colour
	// by colour (Coloured), set by NLGS itself.
	colours []int
	// stallAfter, when positive, stops NLGS where it stops making
	// progress after that many sweeps (Auto).
	stallAfter int
}

// Result of NLGS.
type Result struct {
	R, U     []float64 // impulses and local velocities (2n)
	Status   []Status
	Sweeps   int
	Residual float64 // natural-map residual, relative
	Change   float64 // relative change of r in the last sweep
	// NewtonIterations counts Newton's iterations (Newton, or Auto after
	// NLGS stalled).
	NewtonIterations int
	// VelocityChange is the last sweep's change of the local velocities
	// relative to their scale (Measure VelocityChange; 0 otherwise).
	VelocityChange float64

	diag    [][4]float64 // W's diagonal blocks
	order   []int        // a sweep's order
	chunks  []sweepSums  // a coloured sweep's sums by chunk
	sweeper sweeper
}

// result is the Result a solve of n contacts fills: Reuse's, or a new
// one, sized, holding the warm start where the options give one.
func (opt Options) result(n int) *Result {
	res := opt.Reuse
	if res == nil {
		res = new(Result)
	}
	var warm []float64
	if opt.Start == Warm {
		warm = opt.Warm
	}
	res.resize(n, warm)
	return res
}

// resize gives r room for n contacts, zeroed, keeping its storage; R
// keeps its values when it is the warm start.
func (r *Result) resize(n int, warm []float64) {
	switch {
	case len(warm) == 2*n && len(r.R) == 2*n && &warm[0] == &r.R[0]:
		r.U = reuse.Zeroed(r.U, 2*n)
	case cap(r.R) == 0 && cap(r.U) == 0:
		// A new result: one allocation where a small problem's solve
		// costs little more than its allocations.
		ru := make([]float64, 4*n)
		r.R, r.U = ru[:2*n:2*n], ru[2*n:]
	default:
		r.R, r.U = reuse.Zeroed(r.R, 2*n), reuse.Zeroed(r.U, 2*n)
	}
	r.Status = reuse.Zeroed(r.Status, n)
	r.Sweeps, r.Residual, r.Change, r.NewtonIterations = 0, 0, 0, 0
}

// ErrNotConverged is wrapped by the error NLGS returns with its last
// iterate when the sweeps run out; the caller decides whether to go on.
var ErrNotConverged = errors.New("signorini: the contact problem's solve did not converge")

// Residual computes u = W r + q into u (2n, may be nil) and returns the
// relative natural-map residual.
func Residual(p *Problem, r, u []float64) float64 {
	n := p.W.Contacts()
	if u == nil {
		u = make([]float64, 2*n)
	}
	var res2, rr, uu, qq float64
	for a := 0; a < n; a++ {
		d := p.W.Diag(a)
		on, ot := p.W.OffDiag(a, r)
		ra := [2]float64{r[2*a], r[2*a+1]}
		ua := [2]float64{p.Q[2*a] + on + d[0]*ra[0] + d[1]*ra[1], p.Q[2*a+1] + ot + d[2]*ra[0] + d[3]*ra[1]}
		u[2*a], u[2*a+1] = ua[0], ua[1]
		if c := p.rollOf(a); c >= 0 {
			res2 += rollResidual1(ra[0], ua[0], p.bound(a, c, r)) + ra[1]*ra[1]
		} else {
			res2 += residual1(ra, ua, p.shift(a), p.Mu[a])
		}
		rr += ra[0]*ra[0] + ra[1]*ra[1]
		uu += ua[0]*ua[0] + ua[1]*ua[1]
		qq += p.Q[2*a]*p.Q[2*a] + p.Q[2*a+1]*p.Q[2*a+1]
	}
	return math.Sqrt(res2) / scaleOf(math.Sqrt(max(rr, max(uu, qq))))
}

// relativeChange is the change of r over a sweep relative to
// max(||r||, ||q||), from their squares.
func relativeChange(change, norm, qq float64) float64 {
	return math.Sqrt(change) / scaleOf(math.Sqrt(max(norm, qq)))
}

// tiny is the round-off level below which a norm does not scale.
const tiny = 2.220446049250313e-16

// scaleOf is the denominator of relative measures: x, or 1 when x is at
// round-off level (as Siconos does).
func scaleOf(x float64) float64 {
	if x <= tiny {
		return 1
	}
	return x
}

// statuses classifies each contact of a solution from r and u.
func statuses(p *Problem, res *Result) {
	for a := range res.Status {
		if c := p.rollOf(a); c >= 0 {
			res.Status[a] = rollStatus(res.R[2*a], res.U[2*a], p.bound(a, c, res.R))
			continue
		}
		rn, rt, ut := res.R[2*a], res.R[2*a+1], res.U[2*a+1]
		switch {
		case rn <= 0:
			res.Status[a] = Open
		case math.Abs(rt) < p.Mu[a]*rn*(1-1e-9) || ut == 0:
			res.Status[a] = Stick
		case ut > 0:
			res.Status[a] = SlideForward
		default:
			res.Status[a] = SlideBackward
		}
	}
}

// Certificate is how well impulses r and velocities u (u = W r + q) hold
// a problem's laws, measured apart from the solver's own stop test:
// Complementarity sum |r_N (u_N + s)| + |r_T u_T + mu r_N |u_T||, the
// power the laws forbid (the units of r times u), ComplementarityRel that
// over sum |r| (|u + s| + |q|), and ConeViolation the largest of -r_N and
// |r_T| - mu r_N over the largest |r|. A rolling row adds |r_R u_R +
// mu_r r_N |u_R|| and (|r_R| - mu_r r_N)/mu_r, an impulse.
type Certificate struct {
	Complementarity    float64 `json:"complementarity"`
	ComplementarityRel float64 `json:"complementarity_rel"`
	ConeViolation      float64 `json:"cone_violation"`
}

// Certify measures r and u against p's laws (Certificate). A contact
// with no impulse (open, or never closing: an infinite shift) adds
// nothing.
func Certify(p *Problem, r, u []float64) Certificate {
	var gap, scale, violation, largest float64
	for a, mu := range p.Mu {
		pn, pt := r[2*a], r[2*a+1]
		if pn == 0 && pt == 0 {
			continue
		}
		if c := p.rollOf(a); c >= 0 {
			g, sc, v := rollCertify(pn, u[2*a], p.Q[2*a], p.bound(a, c, r), mu)
			gap, scale, violation = gap+g, scale+sc, max(violation, v, math.Abs(pt))
			continue
		}
		un, ut := u[2*a]+p.shift(a), u[2*a+1]
		size := math.Hypot(pn, pt)
		gap += math.Abs(pn*un) + math.Abs(pt*ut+mu*pn*math.Abs(ut))
		scale += size * (math.Hypot(un, ut) + math.Hypot(p.Q[2*a], p.Q[2*a+1]))
		violation = max(violation, -pn, math.Abs(pt)-mu*pn)
		largest = max(largest, size)
	}
	c := Certificate{Complementarity: gap}
	if scale > 0 {
		c.ComplementarityRel = gap / scale
	}
	if largest > 0 {
		c.ConeViolation = violation / largest
	}
	return c
}
