package signorini

import (
	"errors"
	"fmt"
)

// Solve solves the problem by opt.Method: NLGS, Newton, or (Auto, the
// default) NLGS handing the problem to Newton's method when it stalls
// (its measure falls by less than a fifth over 100 sweeps) on a problem
// without rolling rows (Newton has not their law: ErrRolling): after 500
// sweeps on a problem small enough for Newton's dense solves (denseLimit
// contacts), after 10 000 on a larger one with a block-sparse W (Newton's
// sparse factorisation; stallAfterOf says why so late), never on a
// larger one with a dense W (Newton's GMRES iterations cost more than the
// sweeps they would save). Newton starts from NLGS's iterate, and from
// zero if it stagnates there; if Newton stagnates short of the tolerance
// from both (an active set that admits no Newton step: a pillar's joints
// sliding under a hyperstatic load), NLGS goes on from its own iterate,
// up to MaxSweeps in all (AutoSweeps when zero). The result says how many
// sweeps and Newton iterations it took.
func Solve(p *Problem, opt Options) (*Result, error) {
	if opt.MaxSweeps < 0 {
		return nil, fmt.Errorf("signorini: %d sweeps at most: expected a positive number (0 means 10 000)", opt.MaxSweeps)
	}
	switch opt.Method {
	case NLGSMethod:
		return NLGS(p, opt)
	case NewtonMethod:
		return Newton(p, opt)
	}
	stall := opt
	stall.stallAfter = stallAfterOf(p)
	if stall.MaxSweeps == 0 {
		// Auto's budget from the first sweep: a problem NLGS goes on
		// alone with (one too large for Newton, or with rolling rows)
		// stopped at NLGS's 10 000 (a heap of disks' collapse, 3 of its
		// 3 750 steps).
		stall.MaxSweeps = AutoSweeps
	}
	res, err := NLGS(p, stall)
	if !errors.Is(err, errStalled) {
		return res, err
	}
	tol, iters, err := newtonLimits(opt, p.W.Contacts())
	if err != nil {
		return nil, err
	}
	sweeps := res.Sweeps
	stalled := append([]float64(nil), res.R...)
	if res, err = newtonFrom(p, res, tol, iters, true); err == nil || !errors.Is(err, ErrNotConverged) {
		res.Sweeps = sweeps
		return polished(p, opt, res, err)
	}
	// From zero: NLGS's stalled iterate of a hyperstatic set can lie where
	// Newton's active set admits no step (a pillar's step: 10 iterations
	// from it to nowhere, 11 from zero to 1e-9; NLGS took 394 000 sweeps).
	// The retry has the whole budget of iterations; the result counts
	// both runs once.
	newtons := res.NewtonIterations
	clear(res.R)
	res.NewtonIterations = 0
	res, err = newtonFrom(p, res, tol, iters, true)
	newtons += res.NewtonIterations
	if err == nil || !errors.Is(err, ErrNotConverged) {
		res.Sweeps, res.NewtonIterations = sweeps, newtons
		return polished(p, opt, res, err)
	}
	// On from NLGS's own iterate: Newton's, distributed otherwise over a
	// hyperstatic set, took NLGS 95 000 sweeps on a pillar's step where
	// NLGS's own took 65 000.
	copy(res.R, stalled)
	rest := opt
	rest.Start, rest.Warm, rest.Reuse = Warm, res.R, res
	if rest.MaxSweeps == 0 {
		rest.MaxSweeps = AutoSweeps
	}
	rest.MaxSweeps = max(rest.MaxSweeps-sweeps, 1)
	res, err = NLGS(p, rest)
	if res != nil {
		res.Sweeps += sweeps
		res.NewtonIterations = newtons
	}
	return res, err
}

// stallAfterOf is the sweeps after which Auto's NLGS may hand problem p
// to Newton (nlgs.go's stallAfter and largeStallAfter), 0 for never.
func stallAfterOf(p *Problem) int {
	_, sparse := p.W.(*BlockSparse)
	switch {
	case p.rolls():
		return 0
	case p.W.Contacts() <= denseLimit:
		return stallAfter
	case sparse:
		return largeStallAfter
	}
	return 0
}

// polished is Newton's solution taken on by NLGS to NLGS's own stop test
// (its residual and, where the options set one, its change over a
// sweep), within polishSweeps: Newton stops on the residual alone, and
// on the colliding blocks at refine 8 its solutions, at the tolerance,
// led the run to a node 153 um inside the other block where NLGS's led
// to 39.7 um (and 46.7 sweeps a step against 32.4); polished, 39.7 um
// again. A polish that does not converge leaves Newton's solution.
func polished(p *Problem, opt Options, res *Result, err error) (*Result, error) {
	if err != nil {
		return res, err
	}
	o := opt
	o.Start, o.Warm, o.Reuse, o.MaxSweeps = Warm, append([]float64(nil), res.R...), nil, polishSweeps
	pr, perr := NLGS(p, o)
	if perr != nil {
		return res, nil
	}
	pr.Sweeps += res.Sweeps
	pr.NewtonIterations = res.NewtonIterations
	return pr, nil
}

// polishSweeps bounds the sweeps of NLGS after Newton (polished): from a
// solution at the tolerance it takes one to a few.
const polishSweeps = 100

// AutoSweeps is Auto's sweep budget when the options set none (NLGS's
// own is 10 000): the pillar's hardest steps, where Newton stagnates,
// take NLGS 65 000 sweeps (0.17 s) to a residual of 1e-8.
const AutoSweeps = 100000
