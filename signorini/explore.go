package signorini

import (
	"errors"
	"fmt"
)

// Explore solves one problem runs times, each with its own seed (random
// orderings when opt.Order is Random or Shuffled, random starts when opt.Start is
// RandomBox), and returns every converged solution: the sampling of the
// set of admissible impulses of [M04]. Runs that do not converge are
// counted in the error, not returned.
func Explore(p *Problem, opt Options, runs int) ([]*Result, error) {
	var out []*Result
	failed := 0
	for k := 0; k < runs; k++ {
		o := opt
		o.Seed = opt.Seed + uint64(k)*0x9e3779b97f4a7c15
		res, err := NLGS(p, o)
		if errors.Is(err, ErrNotConverged) {
			failed++
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	if failed > 0 {
		return out, fmt.Errorf("signorini: %d of %d exploration runs did not converge", failed, runs)
	}
	return out, nil
}

// Dissipate turns the impulses of the inelastic shock law (dissipation
// index 1) into those of index delta in [0, 1] by [JM91]'s formula
// u_F = [2 solver(u_L) - (1 - delta) u_L]/(1 + delta): since the velocity
// jump is linear in the impulse, the impulses scale by 2/(1 + delta) and
// u = q + W r follows. It applies to problems where every contact uses the
// velocity law (Shift nil) and q is the velocity before the shock.
func Dissipate(p *Problem, res *Result, delta float64) error {
	if !(delta >= 0 && delta <= 1) {
		return fmt.Errorf("signorini: dissipation index %g must lie in [0, 1]", delta)
	}
	if p.Shift != nil {
		return fmt.Errorf("signorini: the dissipation index applies to the velocity (shock) law only")
	}
	f := 2 / (1 + delta)
	for i := range res.R {
		res.R[i] *= f
	}
	res.Residual = Residual(p, res.R, res.U)
	return nil
}
