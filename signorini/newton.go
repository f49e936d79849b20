package signorini

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/fecontact/fecontact/internal/reuse"
)

// Newton solves the problem by a semismooth Newton method on Alart and
// Curnier's function (design.md section 7c): with u~_N = u_N + s,
//
//	Phi_N = r_N - max(0, r_N - rho_N u~_N)
//	Phi_T = r_T - proj[-mu max(0, r_N - rho_N u~_N), +mu max(...)](r_T - rho_T u_T)
//
// vanishes exactly where the Signorini-Coulomb law holds (rho_a = 1/W_aa,
// per component). A Newton step on Phi, eliminating the contacts it finds
// open (r goes to 0) and the sliding ones' tangential impulses (on the
// cone's edge), asks the closed contacts' normal velocities, and the
// sticking ones' tangential velocities, to vanish: a linear system on W's
// rows and columns of those contacts. It is solved densely (LU) when small,
// by restarted GMRES on W's blocks otherwise, regularised (Levenberg-
// Marquardt) where W is singular (more contacts than degrees of freedom: a
// pillar, a pile); a backtracking line search on |Phi|^2 / 2 makes it
// globally convergent, and a step the search cannot take is replaced by an
// NLGS sweep. It stops on the natural-map residual (Residual) at opt.Tol
// (at opt.Tol / 100 under the VelocityChange measure, a sweep's measure
// that Newton has not: see newtonLimits), after at most
// opt.NewtonIterations iterations; the impulses returned are in the
// Coulomb cone.
func Newton(p *Problem, opt Options) (*Result, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if p.rolls() {
		return nil, ErrRolling
	}
	tol, iters, err := newtonLimits(opt, p.W.Contacts())
	if err != nil {
		return nil, err
	}
	res := opt.result(p.W.Contacts())
	var rng *rand.Rand
	if opt.Start == RandomBox {
		rng = rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	}
	if err := initial(res.R, p, opt, rng); err != nil {
		return nil, err
	}
	return newtonFrom(p, res, tol, iters, false)
}

// ErrRolling is Newton's method given a problem with rolling rows, whose
// law its semismooth formulation does not have: NLGS solves those.
var ErrRolling = errors.New("signorini: Newton's method does not take rolling resistance (Problem.RollOf): solve by NLGS (method nlgs, or auto, which then runs NLGS alone)")

// newtonLimits are the tolerance and iteration limit of Newton's method.
// Newton measures the natural-map residual; under the VelocityChange
// measure, a sweep's, its tolerance is the measure's a hundredth (NLGS's
// velocity change of 1e-4 meant a residual of 7e-7 on a pillar's step),
// alone and within Auto alike (a Newton run ignored the measure: its
// histories were the residual measure's to the byte). A problem of n
// contacts beyond denseLimit may take 500 iterations unless opt says
// otherwise: its nonmonotone search takes more of them, each one sparse
// factorisation (fc2d's granular 02020: 120).
func newtonLimits(opt Options, n int) (tol float64, iters int, err error) {
	tol, iters = opt.Tol, opt.NewtonIterations
	if tol == 0 {
		tol = 1e-8
	}
	if iters == 0 {
		iters = 100
		if n > denseLimit {
			iters = 500
		}
	}
	switch {
	case !(tol > 0) || math.IsInf(tol, 0):
		return 0, 0, fmt.Errorf("signorini: tolerance %g: expected a positive, finite value (0 means 1e-8)", tol)
	case iters < 0:
		return 0, 0, fmt.Errorf("signorini: %d Newton iterations at most: expected a positive number (0 means 100, or 500 beyond %d contacts)", iters, denseLimit)
	}
	if opt.Measure == VelocityChange {
		tol /= 100
	}
	return tol, iters, nil
}

// newtonFrom runs Newton's method from the impulses in res.R; with
// giveUp, it stops where it stagnates (Auto has another way on).
func newtonFrom(p *Problem, res *Result, tol float64, iters int, giveUp bool) (*Result, error) {
	nw := newNewton(p, res.R)
	res.Residual = Residual(p, res.R, res.U)
	best := math.Inf(1)
	// A residual that is not a number (an overflow) is never converged.
	for !(res.Residual <= tol) && res.NewtonIterations < iters {
		res.NewtonIterations++
		nw.iterate(res)
		res.Residual = Residual(p, res.R, res.U)
		// Stagnation: an active set that admits no Newton step (a
		// degenerate hyperstatic contact) leaves only damped steps; stop
		// when a window of them has not halved the residual. Not under
		// the nonmonotone search: on a pile its residual lies on a
		// plateau for a hundred iterations before the active set is
		// found (fc2d's granular 02020: 7e-7 to 1e-6 from the 25th
		// iteration to the 115th, 2e-14 at the 120th); an iteration
		// costs about a hundred sweeps there (3 ms against NLGS's 32
		// us), and NLGS's sweeps do not get there at all.
		if giveUp && nw.memory == 1 && res.NewtonIterations%stagnationWindow == 0 {
			if res.Residual > best/2 {
				break
			}
			best = res.Residual
		}
	}
	projectAll(p, res)
	statuses(p, res)
	if !(res.Residual <= tol) {
		return res, fmt.Errorf("%w: Newton's method in %d iterations: residual %.3g (tolerance %.3g)", ErrNotConverged, res.NewtonIterations, res.Residual, tol)
	}
	return res, nil
}

// projectAll puts the impulses in the Coulomb cone (a Newton iterate may
// lie a round-off outside it) and computes u and the residual again.
func projectAll(p *Problem, res *Result) {
	moved := false
	for a := range p.Mu {
		c := projectCone([2]float64{res.R[2*a], res.R[2*a+1]}, p.Mu[a])
		if c[0] != res.R[2*a] || c[1] != res.R[2*a+1] {
			res.R[2*a], res.R[2*a+1], moved = c[0], c[1], true
		}
	}
	if moved {
		res.Residual = Residual(p, res.R, res.U)
	}
}

// newton is the state of Newton's method on one problem.
type newton struct {
	p         *Problem
	n         int
	rho       [][2]float64 // per contact: 1/W_NN, 1/W_TT
	wd        []float64    // W's diagonal (2n), the scaling of the reduced system
	dense     *mat.Dense   // W, 2n x 2n, for a dense inner solve
	sparse    *BlockSparse // W, for a sparse direct inner solve (neither: GMRES)
	scale     []float64    // with sparse: 1/sqrt(W_ii) (2n), the reduced system's scaling
	slu       sparseLU
	node      []int32      // per contact: its node in slu, -1 where open
	closed    []int        // per node: its contact
	z         [][2]float64 // per node: the sparse solve's vector
	phi, dr   []float64    // Phi(r) and the step (2n)
	trial, ut []float64    // a trial point and its velocities
	tphi      []float64    // Phi at the trial point
	cur       []float64    // u = W r + q at the current iterate
	class     []classOf    // per contact, at the current iterate
	idx       []int        // per reduced unknown: its component in r (2a or 2a+1)
	pos       []int        // per component of r: its reduced unknown, or -1
	lambda    float64      // the regularisation, relative to the scaled diagonal
	sweeper   sweeper      // the fallback sweep
	gmres     gmres
	kb, ky    []float64
	kr, kt    []float64
	pre       [][4]float64 // the inverse diagonal blocks of the reduced system
	psi0      float64      // the merit where Newton started
	memory    int          // the merits the line search may return to (1: monotone)
	recent    []float64    // the merits of the last iterates, at most memory
	lastGM    float64      // the relative residual of K^ x = b^ the solve reached
}

// classOf is a contact's case in Newton's linearisation.
type classOf struct {
	closed, slide bool
	sign          float64 // of the tangential trial, for a sliding contact
}

// denseLimit bounds the contacts solved by a dense LU; more go to GMRES.
const denseLimit = 400

func newNewton(p *Problem, r []float64) *newton {
	n := p.W.Contacts()
	nw := &newton{p: p, n: n, rho: make([][2]float64, n), wd: make([]float64, 2*n), phi: make([]float64, 2*n), dr: make([]float64, 2*n),
		trial: make([]float64, 2*n), ut: make([]float64, 2*n), tphi: make([]float64, 2*n), class: make([]classOf, n), pos: make([]int, 2*n)}
	for a := range n {
		d := p.W.Diag(a)
		nw.wd[2*a], nw.wd[2*a+1] = positive(d[0]), positive(d[3])
		nw.rho[a] = [2]float64{1 / nw.wd[2*a], 1 / nw.wd[2*a+1]}
	}
	nw.memory = 1
	if n > denseLimit {
		nw.memory = nonmonotoneMemory
	}
	if w, ok := p.W.(*BlockSparse); ok && n > denseLimit {
		nw.sparse, nw.scale = w, make([]float64, 2*n)
		for i, d := range nw.wd {
			nw.scale[i] = 1 / math.Sqrt(d)
		}
	} else if n <= denseLimit {
		nw.dense = denseOf(p.W)
	}
	return nw
}

// positive is x, or 1 where a degenerate W has no positive diagonal
// entry to scale by.
func positive(x float64) float64 {
	if x > 0 && !math.IsInf(x, 0) {
		return x
	}
	return 1
}

// denseOf is W as a dense 2n x 2n matrix.
func denseOf(W Delassus) *mat.Dense {
	n := W.Contacts()
	m := mat.NewDense(2*n, 2*n, nil)
	switch w := W.(type) {
	case *Dense:
		copy(m.RawMatrix().Data, w.Data)
	case *BlockSparse:
		for a := range n {
			setBlock(m, a, a, w.diag[a])
			for k := w.Ptr[a]; k < w.Ptr[a+1]; k++ {
				setBlock(m, a, w.Col[k], w.Blocks[k])
			}
		}
	default:
		e := make([]float64, 2*n)
		col := make([]float64, 2*n)
		for j := range 2 * n {
			e[j] = 1
			mulW(W, e, col)
			e[j] = 0
			for i := range 2 * n {
				m.Set(i, j, col[i])
			}
		}
	}
	return m
}

func setBlock(m *mat.Dense, a, b int, blk [4]float64) {
	m.Set(2*a, 2*b, blk[0])
	m.Set(2*a, 2*b+1, blk[1])
	m.Set(2*a+1, 2*b, blk[2])
	m.Set(2*a+1, 2*b+1, blk[3])
}

// mulW sets y = W x.
func mulW(W Delassus, x, y []float64) {
	for a := range W.Contacts() {
		on, ot := W.OffDiag(a, x)
		d := W.Diag(a)
		y[2*a] = on + d[0]*x[2*a] + d[1]*x[2*a+1]
		y[2*a+1] = ot + d[2]*x[2*a] + d[3]*x[2*a+1]
	}
}

// velocities sets u = W r + q.
func (nw *newton) velocities(r, u []float64) {
	mulW(nw.p.W, r, u)
	for i, q := range nw.p.Q {
		u[i] += q
	}
}

// merit evaluates Phi at r (u = W r + q) into phi, classifies the
// contacts when class is not nil, and returns |Phi|^2 / 2, each
// component scaled by sqrt(W_aa) so that it is a velocity-like quantity
// of one scale for every contact.
func (nw *newton) merit(r, u, phi []float64, class []classOf) float64 {
	var psi float64
	for a := range nw.n {
		rn, rt := r[2*a], r[2*a+1]
		un := u[2*a] + nw.p.shift(a)
		tn := rn - nw.rho[a][0]*un
		c := classOf{}
		var fn, ft float64
		if tn <= 0 || math.IsNaN(tn) {
			fn, ft = rn, rt
		} else {
			c.closed = true
			fn = rn - tn
			bound := nw.p.Mu[a] * tn
			tt := rt - nw.rho[a][1]*u[2*a+1]
			switch {
			case tt > bound:
				c.slide, c.sign = true, 1
				ft = rt - bound
			case tt < -bound:
				c.slide, c.sign = true, -1
				ft = rt + bound
			default:
				ft = rt - tt
			}
		}
		if class != nil {
			class[a] = c
		}
		phi[2*a], phi[2*a+1] = fn, ft
		psi += fn*fn*nw.wd[2*a] + ft*ft*nw.wd[2*a+1]
	}
	return psi / 2
}

// iterate takes one Newton step from res.R (res.U holds W r + q) with a
// line search, or an NLGS sweep when no step decreases the merit. The
// reduced system is regularised (Levenberg-Marquardt) by a lambda that
// follows the merit down and grows where the search finds no decrease;
// close to the solution the regularised solve is refined into Newton's
// step itself (iterated Tikhonov), whose convergence is then fast where
// W is singular too.
func (nw *newton) iterate(res *Result) {
	r, u := res.R, res.U
	nw.cur = u
	psi := nw.merit(r, u, nw.phi, nw.class)
	if nw.psi0 == 0 {
		nw.psi0 = psi
	}
	ref := nw.reference(psi)
	nw.reduce()
	rel := math.Sqrt(psi / nw.psi0)
	nw.lambda = min(max(nw.lambda, 1e-3*rel), 1)
	for range 6 {
		refine := 1
		if rel < 1e-4 && nw.lambda < 1e-2 {
			refine = 40
		}
		if nw.direction(psi, refine) && nw.search(r, u, psi, ref) {
			nw.lambda /= 100
			return
		}
		nw.lambda *= 100
		if nw.lambda > 1e4 {
			break
		}
	}
	nw.sweep(res)
}

// reduce numbers the unknowns of the reduced system: the normal impulse
// of every closed contact and the tangential one of every sticking
// contact.
func (nw *newton) reduce() {
	nw.idx = nw.idx[:0]
	for i := range nw.pos {
		nw.pos[i] = -1
	}
	for a, c := range nw.class {
		if !c.closed {
			continue
		}
		nw.pos[2*a] = len(nw.idx)
		nw.idx = append(nw.idx, 2*a)
		if !c.slide {
			nw.pos[2*a+1] = len(nw.idx)
			nw.idx = append(nw.idx, 2*a+1)
		}
	}
}

// expand sets the full step dr from the reduced unknowns x (scaled: the
// impulse of unknown j is x_j / sqrt(W_jj)): an open contact's impulse goes
// to 0, a sliding one's tangential impulse follows its normal one along
// the cone's edge.
func (nw *newton) expand(x, dr []float64) {
	for a, c := range nw.class {
		switch {
		case !c.closed:
			dr[2*a], dr[2*a+1] = -nw.phi[2*a], -nw.phi[2*a+1]
		case c.slide:
			dn := x[nw.pos[2*a]] / math.Sqrt(nw.wd[2*a])
			dr[2*a] = dn
			dr[2*a+1] = c.sign*nw.p.Mu[a]*(dn+nw.phi[2*a]) - nw.phi[2*a+1]
		default:
			dr[2*a] = x[nw.pos[2*a]] / math.Sqrt(nw.wd[2*a])
			dr[2*a+1] = x[nw.pos[2*a+1]] / math.Sqrt(nw.wd[2*a+1])
		}
	}
}

// rhs is the reduced system's right-hand side, scaled: the closed
// contacts' normal velocities and the sticking ones' tangential ones must
// vanish after the step, given what the open and sliding contacts' known
// changes add: b = -(u~ + W d)_S / sqrt(W_SS).
func (nw *newton) rhs(b []float64) {
	zero := make([]float64, len(nw.idx))
	nw.expand(zero, nw.dr) // d: the step's part that the unknowns do not set
	mulW(nw.p.W, nw.dr, nw.ut)
	for j, i := range nw.idx {
		u := nw.cur[i]
		if i%2 == 0 {
			u += nw.p.shift(i / 2)
		}
		b[j] = -(u + nw.ut[i]) / math.Sqrt(nw.wd[i])
	}
}

// direction solves the reduced system K^ x = b^ with Newton's step's
// accuracy (Eisenstat and Walker's forcing term: relative to how far the
// merit still is from 0) and sets the step dr; false when it could not.
// K^ may be singular (more contacts than degrees of freedom): the solves
// are of K^ + lambda I, refined (iterated Tikhonov: x_k+1 = (K^ +
// lambda)^-1 (b^ + lambda x_k)) up to refine times, which converges to a
// solution of the consistent singular system.
func (nw *newton) direction(psi float64, refine int) bool {
	m := len(nw.idx)
	nw.kb = reuse.Zeroed(nw.kb, m)
	nw.ky = reuse.Zeroed(nw.ky, m)
	nw.kr = reuse.Zeroed(nw.kr, m)
	nw.kt = reuse.Zeroed(nw.kt, m)
	nw.rhs(nw.kb)
	if m == 0 { // every contact open: the impulses go to 0
		nw.expand(nw.ky, nw.dr)
		return true
	}
	eta := min(0.1, max(1e-12, math.Sqrt(psi/nw.psi0)))
	bn := norm2(nw.kb)
	var lu *mat.LU
	switch {
	case nw.dense != nil:
		if lu = nw.factorDense(); lu == nil {
			return false
		}
	case nw.sparse != nil:
		switch nw.factorSparse() {
		case singular:
			return false
		case tooDense: // GMRES from now on
			nw.sparse = nil
			nw.precondition()
		}
	default:
		nw.precondition()
	}
	nw.lastGM = 1
	for range refine {
		for j := range nw.kr { // b^ + lambda x_k
			nw.kr[j] = nw.kb[j] + nw.lambda*nw.ky[j]
		}
		if lu != nil {
			x := mat.NewVecDense(m, nw.ky)
			if lu.SolveVecTo(x, false, mat.NewVecDense(m, nw.kr)) != nil {
				return false
			}
		} else if nw.sparse != nil {
			nw.solveSparse(nw.kr, nw.ky)
		} else if nw.gmres.solve(nw.applyReduced, nw.applyPre, nw.kr, nw.ky, eta, 10) > 0.5 {
			return false // the regularised system is out of GMRES's reach too
		}
		nw.applyReduced(nw.ky, nw.kt) // (K^ + lambda) x: the residual of K^ x = b^
		var r2 float64
		for j := range nw.kt {
			d := nw.kt[j] - nw.lambda*nw.ky[j] - nw.kb[j]
			r2 += d * d
		}
		if nw.lastGM = math.Sqrt(r2) / max(bn, tiny); nw.lastGM <= eta {
			break
		}
	}
	if math.IsNaN(nw.lastGM) {
		return false
	}
	nw.expand(nw.ky, nw.dr)
	return true
}

// precondition inverts the diagonal blocks of the reduced system: 2 x 2
// for a sticking contact, 1 x 1 for a sliding one.
func (nw *newton) precondition() {
	nw.pre = reuse.Zeroed(nw.pre, nw.n)
	for a, c := range nw.class {
		if !c.closed {
			continue
		}
		d := nw.p.W.Diag(a)
		sn, st := math.Sqrt(nw.wd[2*a]), math.Sqrt(nw.wd[2*a+1])
		if c.slide {
			v := (d[0]+c.sign*nw.p.Mu[a]*d[1])/(sn*sn) + nw.lambda
			if v == 0 {
				v = 1
			}
			nw.pre[a] = [4]float64{1 / v}
			continue
		}
		b := [4]float64{d[0]/(sn*sn) + nw.lambda, d[1] / (sn * st), d[2] / (sn * st), d[3]/(st*st) + nw.lambda}
		det := b[0]*b[3] - b[1]*b[2]
		if math.Abs(det) <= 1e-12*(math.Abs(b[0]*b[3])+math.Abs(b[1]*b[2])) {
			nw.pre[a] = [4]float64{1, 0, 0, 1}
			continue
		}
		nw.pre[a] = [4]float64{b[3] / det, -b[1] / det, -b[2] / det, b[0] / det}
	}
}

// applyPre sets z = M^-1 v with the inverse diagonal blocks.
func (nw *newton) applyPre(v, z []float64) {
	for a, c := range nw.class {
		if !c.closed {
			continue
		}
		j := nw.pos[2*a]
		p := &nw.pre[a]
		if c.slide {
			z[j] = p[0] * v[j]
			continue
		}
		k := nw.pos[2*a+1]
		z[j], z[k] = p[0]*v[j]+p[1]*v[k], p[2]*v[j]+p[3]*v[k]
	}
}

// applyReduced sets y = (K^ + lambda I) x, K^ the scaled reduced matrix.
func (nw *newton) applyReduced(x, y []float64) {
	clear(nw.trial)
	for a, c := range nw.class {
		if !c.closed {
			continue
		}
		dn := x[nw.pos[2*a]] / math.Sqrt(nw.wd[2*a])
		nw.trial[2*a] = dn
		if c.slide {
			nw.trial[2*a+1] = c.sign * nw.p.Mu[a] * dn
		} else {
			nw.trial[2*a+1] = x[nw.pos[2*a+1]] / math.Sqrt(nw.wd[2*a+1])
		}
	}
	mulW(nw.p.W, nw.trial, nw.ut)
	for j, i := range nw.idx {
		y[j] = nw.ut[i]/math.Sqrt(nw.wd[i]) + nw.lambda*x[j]
	}
}

// factorDense factorises K^ + lambda I by LU; nil where it is singular.
func (nw *newton) factorDense() *mat.LU {
	m := len(nw.idx)
	if m == 0 {
		return nil
	}
	K := mat.NewDense(m, m, nil)
	W := nw.dense
	for j, i := range nw.idx {
		a := i / 2
		sj := math.Sqrt(nw.wd[i])
		for k, l := range nw.idx {
			v := W.At(l, i)
			if c := nw.class[a]; i%2 == 0 && c.slide {
				v += c.sign * nw.p.Mu[a] * W.At(l, i+1)
			}
			K.Set(k, j, v/(sj*math.Sqrt(nw.wd[l])))
		}
		K.Set(j, j, K.At(j, j)+nw.lambda)
	}
	var lu mat.LU
	lu.Factorize(K)
	if c := lu.Cond(); math.IsInf(c, 0) || math.IsNaN(c) || c > 1e15 {
		return nil
	}
	return &lu
}

// factorSparse factorises K^ + lambda I on W's blocks (sparseLU).
func (nw *newton) factorSparse() factorEnd {
	nw.node = reuse.Zeroed(nw.node, nw.n)
	nw.closed = nw.closed[:0]
	for a, c := range nw.class {
		nw.node[a] = -1
		if c.closed {
			nw.node[a] = int32(len(nw.closed))
			nw.closed = append(nw.closed, a)
		}
	}
	nw.slu.build(nw, nw.sparse, nw.node, nw.closed)
	return nw.slu.factor()
}

// solveSparse sets x = (K^ + lambda I)^-1 b with the factors of
// factorSparse.
func (nw *newton) solveSparse(b, x []float64) {
	nw.z = reuse.Zeroed(nw.z, len(nw.closed))
	for v, a := range nw.closed {
		nw.z[v] = [2]float64{b[nw.pos[2*a]], 0}
		if !nw.class[a].slide {
			nw.z[v][1] = b[nw.pos[2*a+1]]
		}
	}
	nw.slu.solve(nw.z)
	for v, a := range nw.closed {
		x[nw.pos[2*a]] = nw.z[v][0]
		if !nw.class[a].slide {
			x[nw.pos[2*a+1]] = nw.z[v][1]
		}
	}
}

// scaled is W's block (a, b) as a block of K^: rows and columns scaled by
// 1/sqrt(W_ii), a sliding contact's tangential row dropped and its
// tangential column folded into its normal one along the cone's edge
// (dr_T = sign mu dr_N), as applyReduced does.
func (nw *newton) scaled(a, b int, w [4]float64) [4]float64 {
	ra, cb := nw.scale[2*a:2*a+2], nw.scale[2*b:2*b+2]
	var k [4]float64
	if c := nw.class[b]; c.slide {
		e := c.sign * nw.p.Mu[b]
		k[0] = (w[0] + e*w[1]) * cb[0]
		k[2] = (w[2] + e*w[3]) * cb[0]
	} else {
		k = [4]float64{w[0] * cb[0], w[1] * cb[1], w[2] * cb[0], w[3] * cb[1]}
	}
	k[0], k[1] = k[0]*ra[0], k[1]*ra[0]
	k[2], k[3] = k[2]*ra[1], k[3]*ra[1]
	if nw.class[a].slide {
		k[2], k[3] = 0, 0
	}
	return k
}

// nonmonotoneMemory is the number of iterates whose largest merit the
// line search of a problem beyond denseLimit must fall below (Grippo,
// Lampariello and Lucidi's nonmonotone rule). On a pile, the active set
// changes inside a full Newton step at nearly every iterate, the merit
// |Phi|^2 / 2 rises across the kink before it falls, and a monotone search
// cuts the step to the kink: fc2d's granular 02020 stalled at 7.9e-3 after
// 100 iterations with the exact inner solve (6.6e-3 after 2 000), and
// reaches 2e-14 in 120 with this rule and a memory of 5 (3 to 20 were
// measured: docs/performance.md). The smaller problems keep the
// monotone search their histories were validated with (the rule there
// changes which solution within the tolerance a step ends at, and the
// chaotic pillars' motions with it).
const nonmonotoneMemory = 5

// reference remembers the merit psi of the current iterate and returns
// the largest of the last nw.memory, the line search's reference.
func (nw *newton) reference(psi float64) float64 {
	if len(nw.recent) == nw.memory {
		nw.recent = append(nw.recent[:0], nw.recent[1:]...)
	}
	nw.recent = append(nw.recent, psi)
	return slices.Max(nw.recent)
}

// search backtracks along dr from r until the merit falls enough below
// ref, the largest merit of the recent iterates (psi's own under the
// monotone rule) (Armijo); it keeps the point found in r and u.
func (nw *newton) search(r, u []float64, psi, ref float64) bool {
	const sigma = 1e-4
	for t := 1.0; t >= 1.0/256; t /= 2 {
		for i := range r {
			nw.trial[i] = r[i] + t*nw.dr[i]
		}
		nw.velocities(nw.trial, nw.ut)
		// ref - psi is exactly 0 under the monotone rule: the test is
		// then the one the validated histories were computed with.
		if trial := nw.merit(nw.trial, nw.ut, nw.tphi, nil); trial <= (1-2*sigma*t)*psi+(ref-psi) {
			copy(r, nw.trial)
			copy(u, nw.ut)
			return true
		}
	}
	return false
}

// sweep is the fallback: one NLGS sweep from r.
func (nw *newton) sweep(res *Result) {
	nw.sweeper = sweeper{p: nw.p, diag: res.diagonal(nw.p.W), r: res.R, status: res.Status, omega: 1}
	nw.sweeper.sweep(0, nw.n, nil, false)
	nw.velocities(res.R, res.U)
}

// stagnationWindow is the number of Newton iterations that must halve
// the residual for Auto's Newton to go on. Damped steps on a degenerate
// pile creep and still get there: a step of disks-28 went from 2.7e-7 to
// 1e-8 in 38 iterations, halving it every 20 (ten iterations that did not
// divide it by ten stopped them, and NLGS took 63 000 sweeps instead).
const stagnationWindow = 20
