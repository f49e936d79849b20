package signorini

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/internal/team"
)

// diagonal returns W's diagonal blocks: a BlockSparse's own, or copied
// into res (a sweep would otherwise make an interface call per contact).
func (r *Result) diagonal(W Delassus) [][4]float64 {
	if w, ok := W.(*BlockSparse); ok {
		return w.diag
	}
	r.diag = reuse.Zeroed(r.diag, W.Contacts())
	for a := range r.diag {
		r.diag[a] = W.Diag(a)
	}
	return r.diag
}

// ordered returns the visiting order of a sweep that is not natural.
func (r *Result) ordered(n int) []int {
	r.order = reuse.Zeroed(r.order, n)
	for i := range r.order {
		r.order[i] = i
	}
	return r.order
}

// stallEvery, stallRate and stallAfter make NLGS's stalling (Auto):
// after stallAfter sweeps, a measure that fell by less than a factor
// stallRate over the last stallEvery sweeps. NLGS's linear rate on the
// pillar's hard steps is about 0.9997 a sweep (0.97 over 100); a
// converging NLGS is left alone for its first 500 sweeps, where its
// measure may pause. A problem beyond denseLimit is left alone for
// 10 000 (largeStallAfter, NLGS's own default budget): Newton's iterations
// there cost a hundred sweeps each and take a hundred or more on a pile,
// which pays where NLGS would not converge at all (fc2d's granular
// flows) but not on a flow NLGS gets through slowly (slope-flow, handed
// over after 500: 2.5 times the run's time).
const (
	stallEvery      = 100
	stallRate       = 0.8
	stallAfter      = 500
	largeStallAfter = 10000
)

// errStalled is NLGS stopped by its stalling (Auto).
var errStalled = errors.New("NLGS stalled")

// NLGS solves the problem by nonlinear Gauss-Seidel: each contact in turn
// is solved exactly (Single) with the others' current impulses, then
// optionally relaxed and projected back on the cone. It stops when the
// residual is below Tol and the relative change of r over a sweep below
// ChangeTol (see Options).
func NLGS(p *Problem, opt Options) (*Result, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	n := p.W.Contacts()
	tol, maxSweeps, omega := opt.Tol, opt.MaxSweeps, opt.Omega
	if tol == 0 {
		tol = 1e-8
	}
	if maxSweeps == 0 {
		maxSweeps = 10000
	}
	if omega == 0 {
		omega = 1
	}
	changeTol := opt.ChangeTol
	if changeTol == 0 {
		changeTol = tol
	}
	if !(omega > 0 && omega < 2) {
		return nil, fmt.Errorf("signorini: relaxation omega = %g must lie in (0, 2)", omega)
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return nil, fmt.Errorf("signorini: tolerance %g: expected a positive, finite value (0 means 1e-8)", tol)
	}
	if maxSweeps < 0 {
		return nil, fmt.Errorf("signorini: %d sweeps at most: expected a positive number (0 means 10 000)", maxSweeps)
	}
	var rng *rand.Rand
	if opt.Order == Random || opt.Order == Shuffled || opt.Start == RandomBox {
		rng = rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	}
	res := opt.result(n)
	if err := initial(res.R, p, opt, rng); err != nil {
		return nil, err
	}
	if w, ok := p.W.(*BlockSparse); ok && opt.Order == Shuffled {
		return shuffled(p, w, opt, rng, res)
	}
	if w, ok := p.W.(*BlockSparse); ok && opt.Order == Coloured && opt.colours == nil {
		return coloured(p, w, opt, res)
	}
	diag := res.diagonal(p.W)
	var order []int
	if opt.Order != Natural && opt.Order != Coloured {
		order = res.ordered(n)
	}
	// The sweeper lives in res: a coloured sweep's team holds it, which
	// would otherwise move it to the heap at every solve.
	sw := &res.sweeper
	*sw = sweeper{p: p, diag: diag, r: res.R, status: res.Status, omega: omega}
	if opt.colours != nil {
		sw.team = team.New()
		defer sw.team.Stop()
	}
	r := res.R
	var qq float64
	for _, q := range p.Q {
		qq += q * q
	}
	// After a residual check fails, the next one waits twice as long (up to
	// 16 sweeps): a residual costs a sweep, and on slowly converging
	// problems the change is below the tolerance long before the residual
	// is. The stop comes at most 16 sweeps late.
	nextCheck, wait := 1, 1
	var change, norm float64
	velocity := opt.Measure == VelocityChange
	res.VelocityChange = 0
	lastStall := math.Inf(1)
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		arrange(order, opt.Order, sweep, rng)
		var sums sweepSums
		if opt.colours != nil {
			sums = sw.coloured(opt.colours, &res.chunks, velocity)
		} else {
			sums = sw.sweep(0, n, order, velocity)
		}
		change, norm = sums.change, sums.norm
		dv2, wr2 := sums.dv2, sums.wr2
		res.Sweeps = sweep
		if opt.Progress != nil && sweep%100 == 0 {
			opt.Progress(sweep)
		}
		if opt.stallAfter > 0 && sweep%stallEvery == 0 && sweep >= opt.stallAfter {
			m := res.VelocityChange
			if !velocity {
				m = Residual(p, r, res.U)
			}
			if m > stallRate*lastStall {
				res.Change, res.Residual = relativeChange(change, norm, qq), Residual(p, r, res.U)
				settle(p, res)
				return res, fmt.Errorf("%w: %w after %d sweeps", ErrNotConverged, errStalled, sweep)
			}
			lastStall = m
		}
		if velocity {
			res.VelocityChange = math.Sqrt(dv2) / scaleOf(math.Sqrt(wr2))
			if res.VelocityChange <= tol {
				res.Change = relativeChange(change, norm, qq)
				res.Residual = Residual(p, r, res.U)
				settle(p, res)
				return res, nil
			}
			if sweep == maxSweeps {
				res.Residual = Residual(p, r, res.U)
			}
			continue
		}
		// The change is scaled like the residual: by max(||r||, ||q||),
		// floored at 1 when both vanish, so that r ~ 0 (q ~ 0) does not
		// make a round-off change look large. It is compared in squares: two
		// square roots and a division cost a sixth of a sweep over two
		// contacts.
		s2 := max(norm, qq)
		if s2 <= tiny*tiny {
			s2 = 1
		}
		small := change <= tol*tol*s2 || (changeTol >= 0 && change <= changeTol*changeTol*s2) || (changeTol < 0 && sweep%10 == 0)
		if (small && sweep >= nextCheck) || sweep == maxSweeps {
			res.Change = relativeChange(change, norm, qq)
			res.Residual = Residual(p, r, res.U)
			if res.Residual <= tol && (changeTol < 0 || res.Change <= changeTol) {
				settle(p, res)
				return res, nil
			}
			nextCheck, wait = sweep+wait, min(2*wait, 16)
		}
	}
	res.Change = relativeChange(change, norm, qq)
	settle(p, res)
	if velocity {
		return res, fmt.Errorf("%w: NLGS in %d sweeps: velocity change %.3g (tolerance %.3g), residual %.3g", ErrNotConverged, res.Sweeps, res.VelocityChange, tol, res.Residual)
	}
	return res, fmt.Errorf("%w: NLGS in %d sweeps: residual %.3g, relative change %.3g (tolerance %.3g)", ErrNotConverged, res.Sweeps, res.Residual, res.Change, tol)
}

// shuffled solves p in one random order by renumbering it first, so that
// every sweep streams W in memory order: on 30 000 contacts a sweep in a
// scattered order costs 2.4 times as much. res holds the initial guess.
func shuffled(p *Problem, w *BlockSparse, opt Options, rng *rand.Rand, res *Result) (*Result, error) {
	perm := make([]int, w.Contacts())
	for i := range perm {
		perm[i] = i
	}
	arrange(perm, Shuffled, 1, rng)
	opt.Order = Natural
	return renumbered(p, w, perm, opt, res)
}

// renumbered solves p with contact perm[i] as contact i, warm-started from
// res, in opt's order, and writes the result back into res in p's
// numbering.
func renumbered(p *Problem, w *BlockSparse, perm []int, opt Options, res *Result) (*Result, error) {
	n := w.Contacts()
	pp := &Problem{W: w.Renumbered(perm), Q: make([]float64, 2*n), Mu: make([]float64, n)}
	if p.Shift != nil {
		pp.Shift = make([]float64, n)
	}
	if p.RollOf != nil {
		inv := make([]int, n)
		for i, a := range perm {
			inv[a] = i
		}
		pp.RollOf = make([]int, n)
		for i, a := range perm {
			pp.RollOf[i] = -1
			if c := p.RollOf[a]; c >= 0 {
				pp.RollOf[i] = inv[c]
			}
		}
	}
	warm := make([]float64, 2*n)
	for i, a := range perm {
		pp.Q[2*i], pp.Q[2*i+1] = p.Q[2*a], p.Q[2*a+1]
		warm[2*i], warm[2*i+1] = res.R[2*a], res.R[2*a+1]
		pp.Mu[i] = p.Mu[a]
		if p.Shift != nil {
			pp.Shift[i] = p.Shift[a]
		}
	}
	opt.Start, opt.Warm, opt.Reuse = Warm, warm, nil
	out, err := NLGS(pp, opt)
	if out == nil {
		return nil, err
	}
	for i, a := range perm {
		res.R[2*a], res.R[2*a+1] = out.R[2*i], out.R[2*i+1]
		res.U[2*a], res.U[2*a+1] = out.U[2*i], out.U[2*i+1]
		res.Status[a] = out.Status[i]
	}
	res.Sweeps, res.Residual, res.Change, res.VelocityChange = out.Sweeps, out.Residual, out.Change, out.VelocityChange
	return res, err
}

func initial(r []float64, p *Problem, opt Options, rng *rand.Rand) error {
	switch opt.Start {
	case Zero:
	case Warm:
		if len(opt.Warm) != len(r) {
			return fmt.Errorf("signorini: warm start has %d impulses, want %d", len(opt.Warm), len(r))
		}
		for a := 0; a < len(r)/2; a++ {
			if p.rollOf(a) >= 0 { // its bound is its contact's, met at its first update
				r[2*a], r[2*a+1] = opt.Warm[2*a], 0
				continue
			}
			w := projectCone([2]float64{opt.Warm[2*a], opt.Warm[2*a+1]}, p.Mu[a])
			r[2*a], r[2*a+1] = w[0], w[1]
		}
	case RandomBox:
		if !(opt.Box > 0) {
			return fmt.Errorf("signorini: random start needs a positive Box, got %g", opt.Box)
		}
		for a := 0; a < len(r)/2; a++ {
			rn := opt.Box * rng.Float64()
			r[2*a], r[2*a+1] = rn, p.Mu[a]*rn*(2*rng.Float64()-1)
			if p.rollOf(a) >= 0 {
				r[2*a], r[2*a+1] = 0, 0
			}
		}
	default:
		return fmt.Errorf("signorini: unknown start %d", opt.Start)
	}
	return nil
}

// arrange sets the visiting order of a sweep.
func arrange(order []int, o Order, sweep int, rng *rand.Rand) {
	switch o {
	case Alternating:
		for i := range order {
			order[i] = i
			if sweep%2 == 0 {
				order[i] = len(order) - 1 - i
			}
		}
	case Random:
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	case Shuffled:
		if sweep == 1 {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
	}
}
