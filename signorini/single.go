package signorini

import "math"

// Status is the state of one contact in a solution.
type Status int8

// Statuses. SlideForward means u_T > 0 (and r_T = -mu r_N).
const (
	Open Status = iota
	Stick
	SlideForward
	SlideBackward
)

func (s Status) String() string {
	return [...]string{"open", "stick", "slide+", "slide-"}[s]
}

// Single solves one contact: given W_aa (row-major 2x2), the free local
// velocity uf (with the other contacts' impulses), the shift s and mu, it
// returns the impulse r, the velocity u = uf + W_aa r and the status.
//
// The cases are tried in the order open, stick, slide forward, slide
// backward, and the first that satisfies the law is returned; for W_aa
// symmetric positive definite exactly one does. When none does (a singular
// or strongly non-symmetric W_aa, with mu |W_nt| >= W_nn), the candidate
// with the smallest natural-map residual is returned.
func Single(W [4]float64, uf [2]float64, s, mu float64) (r, u [2]float64, st Status) {
	r[0], r[1], st = single(&W, uf[0], uf[1], s, mu)
	// Each case's velocity follows from its own equations, exactly: open
	// keeps uf, stick ends at (-s, 0), a slide at u_N = -s.
	switch st {
	case Open:
		u = uf
	case Stick:
		u = [2]float64{-s, 0}
	default:
		u = [2]float64{-s, uf[1] + W[2]*r[0] + W[3]*r[1]}
	}
	return r, u, st
}

// single is Single without the velocity, W by pointer and the vectors by
// component, which the calling convention keeps in registers: the sweep's
// inner loop, where a small problem waits on each contact's result.
func single(W *[4]float64, ufn, uft, s, mu float64) (rn, rt float64, st Status) {
	un := ufn + s
	if un >= 0 {
		return 0, 0, Open
	}
	// Stick: u = (-s, 0).
	if det := W[0]*W[3] - W[1]*W[2]; det > 0 {
		rn, rt = -(W[3]*un-W[1]*uft)/det, -(-W[2]*un+W[0]*uft)/det
		if rn >= 0 && math.Abs(rt) <= mu*rn {
			return rn, rt, Stick
		}
	}
	// Slide in direction sg: r_T = -sg mu r_N, u_N + s = 0.
	for _, sg := range [2]float64{1, -1} {
		if d := W[0] - sg*mu*W[1]; d > 0 {
			rn = -un / d
			rt = -sg * mu * rn
			if ut := uft + W[2]*rn + W[3]*rt; sg*ut >= 0 {
				return rn, rt, slideStatus(sg)
			}
		}
	}
	r, _, st := leastWrong(*W, [2]float64{ufn, uft}, s, mu)
	return r[0], r[1], st
}

func slideStatus(sg float64) Status {
	if sg > 0 {
		return SlideForward
	}
	return SlideBackward
}

// leastWrong is Single's way out when no case satisfies the law exactly:
// of open and the stick and slide candidates that exist, the one with the
// smallest natural-map residual.
func leastWrong(W [4]float64, uf [2]float64, s, mu float64) (r, u [2]float64, st Status) {
	un := uf[0] + s
	velocity := func(r [2]float64) [2]float64 {
		return [2]float64{uf[0] + W[0]*r[0] + W[1]*r[1], uf[1] + W[2]*r[0] + W[3]*r[1]}
	}
	best := residual1([2]float64{}, uf, s, mu)
	r, u, st = [2]float64{}, uf, Open
	try := func(c [2]float64, cst Status) {
		cu := velocity(c)
		if res := residual1(c, cu, s, mu); res < best {
			best, r, u, st = res, c, cu, cst
		}
	}
	if det := W[0]*W[3] - W[1]*W[2]; det > 0 {
		try([2]float64{-(W[3]*un - W[1]*uf[1]) / det, -(-W[2]*un + W[0]*uf[1]) / det}, Stick)
	}
	for _, sg := range [2]float64{1, -1} {
		if d := W[0] - sg*mu*W[1]; d > 0 {
			try([2]float64{-un / d, sg * mu * un / d}, slideStatus(sg))
		}
	}
	return r, u, st
}

// projectCone is the Euclidean projection on K = {|b| <= mu a}.
func projectCone(x [2]float64, mu float64) [2]float64 {
	p0, p1 := project(x[0], x[1], mu)
	return [2]float64{p0, p1}
}

// project is projectCone on the components: the natural-map residual's
// form, which took a third longer through the arrays.
func project(x0, x1, mu float64) (p0, p1 float64) {
	ax := math.Abs(x1)
	if x0 >= 0 && ax <= mu*x0 {
		return x0, x1
	}
	if mu*ax <= -x0 {
		return 0, 0
	}
	a := (x0 + mu*ax) / (1 + mu*mu)
	return a, math.Copysign(mu*a, x1)
}

// residual1 is the squared natural-map residual of one contact.
func residual1(r, u [2]float64, s, mu float64) float64 {
	p0, p1 := project(r[0]-(u[0]+s+mu*math.Abs(u[1])), r[1]-u[1], mu)
	return (r[0]-p0)*(r[0]-p0) + (r[1]-p1)*(r[1]-p1)
}
