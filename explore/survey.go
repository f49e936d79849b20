package explore

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// Modality is how the Gauss-Seidel runs of a survey differ ([M04]
// section 3.1, Figure 2).
type Modality int

// Modalities.
const (
	// RandomGuess starts each run from impulses drawn uniformly in the
	// cones, P_N in [0, Box] (Box holds every admissible value), and
	// reviews the contacts in their natural order.
	RandomGuess Modality = iota
	// RandomOrder starts each run from zero and reviews the contacts in a
	// random cyclic order, drawn once per run.
	RandomOrder
)

func (m Modality) String() string {
	if m == RandomOrder {
		return "random order"
	}
	return "random guess"
}

// Survey is the one-step contact problem of a rigid assembly at rest and
// the equilibrium conditions of its free bodies.
type Survey struct {
	Sys   *rigid.System
	Units []contact.Unit
	// Kinetic is the bodies' kinetic energy that New set to zero (J per
	// m): a state at rest has next to none.
	Kinetic float64

	h       float64            // s, the step the survey's problem is of (H)
	problem *signorini.Problem // the one-step problem of the state, fixed by New
	box     float64            // N s (Box)
	moving  bool               // NewMoving's (Moving)

	e    []entry   // E, the units' generalised impulses on the free bodies' DOFs
	b    []float64 // E r = b at equilibrium: -(M v0 + h F)
	mv   []float64 // h F, the scale of imbalances
	all  *set      // the admissible set of every contact, once bound computes it
	rows []int     // body*3 + eq of each row of E
}

// entry is a nonzero of E: P_N and P_T of a contact on a row.
type entry struct {
	contact, row int
	n, t         float64
}

// set is an admissible set in the cone coordinates of some contacts:
// P_N = l1 + l2, P_T = mu (l1 - l2), l >= 0 (the cone's two edges), with
// a x = rhs the equilibrium rows, reduced to full row rank (the simplex
// needs it).
type set struct {
	a        *mat.Dense
	rhs      []float64
	contacts []int // the contact of each column pair
	mu       []float64
}

// Solution is the contact forces of one converged run (N/m): R[c] =
// (R_N, R_T) of contact c.
type Solution struct {
	Modality Modality
	Run      int
	R        [][2]float64
	Status   []signorini.Status
	Sweeps   int
	// Imbalance is what the forces leave of the bodies' momentum after the
	// step, relative to the weight's impulse: 0 in equilibrium.
	Imbalance float64
}

// H is the length of the step whose problem the survey solves (s).
func (s *Survey) H() float64 { return s.h }

// Box is the largest admissible P_N of any contact (N s): random guesses
// draw P_N in [0, Box], a domain that contains every admissible value, so
// that every solution can be reached. It is computed (by linear
// programming) by Bound, the first RandomGuess run, or Admissible; zero
// until then.
func (s *Survey) Box() float64 { return s.box }

// Moving tells a survey made by NewMoving: no equilibrium, no exact sets.
func (s *Survey) Moving() bool { return s.moving }

// New builds the survey of the rigid bodies in their current positions,
// taken at rest (it sets their velocities to zero: a deposit's residual
// motion is not part of its equilibrium), with a step of length h.
func New(sys *rigid.System, h float64) (*Survey, error) {
	var kinetic float64
	for _, b := range sys.Bodies {
		if !b.Driven() {
			kinetic += (b.Mass*(b.V[0]*b.V[0]+b.V[1]*b.V[1]) + b.Inertia*b.V[2]*b.V[2]) / 2
			b.V = [3]float64{}
		}
	}
	s, err := newSurvey(sys, h, false)
	if s != nil {
		s.Kinetic = kinetic
	}
	return s, err
}

// NewMoving builds the survey of the step the bodies take from their
// current state, velocities kept: the force fan of a flowing sample at an
// instant ([M04] section 3.2). Its solutions are those of the step, not of
// an equilibrium: Run keeps every converged one (Imbalance then measures
// the momentum they leave the bodies), and the random guesses' Box is not
// known: survey it in RandomOrder.
func NewMoving(sys *rigid.System, h float64) (*Survey, error) {
	return newSurvey(sys, h, true)
}

func newSurvey(sys *rigid.System, h float64, moving bool) (*Survey, error) {
	p, units, err := timestep.RigidProblem(sys, h)
	if err != nil {
		return nil, err
	}
	if len(units) == 0 {
		return nil, errors.New("explore: no contacts")
	}
	s := &Survey{Sys: sys, h: h, problem: p, Units: ownUnits(units), moving: moving}
	index := map[int]int{}
	for k, b := range sys.Bodies {
		if b.Driven() {
			continue
		}
		index[k] = len(s.rows)
		for eq := range 3 {
			s.rows = append(s.rows, 3*k+eq)
			m := [3]float64{b.Mass, b.Mass, b.Inertia}[eq]
			f := [3]float64{b.Mass * b.Gravity[0], b.Mass * b.Gravity[1], 0}[eq]
			s.b = append(s.b, -(m*b.V[eq] + h*f))
			s.mv = append(s.mv, h*f)
		}
	}
	for a, u := range units {
		for _, e := range u.Entries {
			s.e = append(s.e, entry{contact: a, row: index[e.Body] + e.Eq, n: e.N, t: e.T})
		}
	}
	return s, nil
}

// ownUnits copies the units and their entries out of the system's
// detection storage, which its next detection (a step of a simulation on
// it) overwrites.
func ownUnits(units []contact.Unit) []contact.Unit {
	own := slices.Clone(units)
	for a := range own {
		own[a].Entries = slices.Clone(own[a].Entries)
	}
	return own
}

// Bound computes, once, the admissible set of every contact and Box. Its
// linear programs are dense: for samples of up to some hundreds of
// contacts.
func (s *Survey) Bound() error {
	if s.all != nil {
		return nil
	}
	if s.moving {
		return errors.New("explore: a moving sample has no admissible set of equilibrium forces")
	}
	contacts, rows := make([]int, len(s.Units)), make([]int, len(s.rows))
	for c := range contacts {
		contacts[c] = c
	}
	for i := range rows {
		rows[i] = i
	}
	all, err := s.newSet(rows, contacts)
	if err != nil {
		return err
	}
	for c := range s.Units {
		pts, err := s.support(all, c, [][2]float64{{0, 1}})
		if err != nil {
			return err
		}
		s.box = math.Max(s.box, pts[0][1]*s.h)
	}
	s.all = all
	return nil
}

// newSet writes the equilibrium rows (of e) on the cone coordinates of the
// given contacts and keeps an orthonormal basis of their span.
func (s *Survey) newSet(rows, contacts []int) (*set, error) {
	m, n := len(rows), 2*len(contacts)
	st := &set{contacts: contacts}
	A := mat.NewDense(m, n, nil)
	b := make([]float64, m)
	at := map[int]int{} // E's row -> row of A
	for i, row := range rows {
		at[row], b[i] = i, s.b[row]
	}
	col := map[int]int{} // contact -> column pair
	for k, c := range contacts {
		col[c] = k
		st.mu = append(st.mu, s.problem.Mu[c])
	}
	for _, e := range s.e {
		i, ok := at[e.row]
		k, ok2 := col[e.contact]
		if !ok || !ok2 {
			continue
		}
		mu := st.mu[k]
		A.Set(i, 2*k, A.At(i, 2*k)+e.n+mu*e.t)
		A.Set(i, 2*k+1, A.At(i, 2*k+1)+e.n-mu*e.t)
	}
	var svd mat.SVD
	if !svd.Factorize(A, mat.SVDThin) {
		return nil, errors.New("explore: the SVD of the equilibrium rows failed")
	}
	sv := svd.Values(nil)
	var u mat.Dense
	svd.UTo(&u)
	rank := 0
	for _, v := range sv {
		if v > 1e-10*sv[0] {
			rank++
		}
	}
	ur := u.Slice(0, m, 0, rank)
	st.a = mat.NewDense(rank, n, nil)
	st.a.Mul(ur.T(), A)
	bv := mat.NewVecDense(m, b)
	var proj, back mat.VecDense
	proj.MulVec(ur.T(), bv)
	back.MulVec(ur, &proj)
	back.SubVec(&back, bv)
	if mat.Norm(&back, 2) > 1e-9*math.Max(mat.Norm(bv, 2), 1e-300) {
		return nil, errors.New("explore: no contact forces can hold the bodies in equilibrium (a body's weight has no support)")
	}
	st.rhs = proj.RawVector().Data
	return st, nil
}

// support returns, for each direction d = (d_T, d_N), the force (R_T,
// R_N) of contact c (one of st's) that maximises d.(R_T, R_N) over st.
func (s *Survey) support(st *set, c int, dirs [][2]float64) ([][2]float64, error) {
	_, n := st.a.Dims()
	k := slices.Index(st.contacts, c)
	mu := st.mu[k]
	out := make([][2]float64, 0, len(dirs))
	for _, d := range dirs {
		cost := make([]float64, n)
		cost[2*k], cost[2*k+1] = -(d[1] + mu*d[0]), -(d[1] - mu*d[0])
		x, err := simplex(cost, st.a, st.rhs)
		switch {
		case errors.Is(err, lp.ErrUnbounded):
			return nil, fmt.Errorf("explore: contact %d: %w", c, ErrUnbounded)
		case errors.Is(err, lp.ErrInfeasible):
			return nil, errors.New("explore: no contact forces within the friction cones hold the bodies in equilibrium")
		case err != nil:
			return nil, fmt.Errorf("explore: contact %d: %w", c, err)
		}
		pn, pt := x[2*k]+x[2*k+1], mu*(x[2*k]-x[2*k+1])
		out = append(out, [2]float64{pt / s.h, pn / s.h})
	}
	return out, nil
}

// simplex minimises cost.x over a x = b, x >= 0 (gonum's simplex). A
// degenerate vertex can lead it to a singular basis: it then tries again
// with b moved by 1e-10 of its size in a random direction, the classic
// perturbation that breaks degeneracy, which moves the set by as little.
func simplex(cost []float64, a *mat.Dense, b []float64) ([]float64, error) {
	_, x, err := lp.Simplex(cost, a, b, 1e-10, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	size := floats.Norm(b, math.Inf(1))
	for try := 0; try < 5 && err != nil && !errors.Is(err, lp.ErrUnbounded) && !errors.Is(err, lp.ErrInfeasible); try++ {
		moved := slices.Clone(b)
		for i := range moved {
			moved[i] += 1e-10 * size * (2*rng.Float64() - 1)
		}
		_, x, err = lp.Simplex(cost, a, moved, 1e-10, nil)
	}
	return x, err
}

// ErrUnbounded is returned when the admissible forces are unbounded:
// forces in equilibrium among themselves within the cones (a grain
// wedged between two contacts whose normals lie within the friction
// angle of the line joining them).
var ErrUnbounded = errors.New("the admissible forces are unbounded (forces in equilibrium among themselves, within the cones)")

// Admissible returns the exact set of contact c's admissible forces, the
// projection of C cap A: a convex polygon (R_T, R_N), counter-clockwise (a
// segment or a point when it degenerates). Its vertices are supports
// found by linear programming: from the four axis directions, each edge
// of the polygon found so far is tested in its outward normal until no
// support lies beyond any edge, so that the polygon is exact, with two
// programs per vertex or so.
func (s *Survey) Admissible(c int) ([][2]float64, error) {
	if err := s.Bound(); err != nil {
		return nil, err
	}
	return s.polygon(s.all, c)
}

func (s *Survey) polygon(st *set, c int) ([][2]float64, error) {
	tol := 1e-9 * math.Max(s.Weight(), 1e-300)
	pts, err := s.support(st, c, [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}})
	if err != nil {
		return nil, err
	}
	done := map[[2][2]float64]bool{}
	for {
		h := Hull(pts, tol)
		if len(h) == 1 {
			return h, nil
		}
		var added bool
		for i, a := range h {
			b := h[(i+1)%len(h)]
			if len(h) == 2 && i == 1 {
				a, b = h[1], h[0] // a segment: test both sides
			}
			if done[[2][2]float64{a, b}] {
				continue
			}
			l := dist(a, b)
			d := [2]float64{(b[1] - a[1]) / l, -(b[0] - a[0]) / l}
			q, err := s.support(st, c, [][2]float64{d})
			if err != nil {
				return nil, err
			}
			if (q[0][0]-a[0])*d[0]+(q[0][1]-a[1])*d[1] > tol {
				pts, added = append(pts, q[0]), true
				continue
			}
			done[[2][2]float64{a, b}] = true
		}
		if !added {
			return h, nil
		}
	}
}

// Supported is a body held by exactly two contacts and, at each, the
// forces its own equilibrium and the two cones allow: the segment of
// [M04] section 3.1 (opposite forces added along AB so long as they stay
// in the cones). The exact admissible set lies within it (the bodies
// under the supports may restrict it further).
type Supported struct {
	Body     int
	Contacts [2]int
	Segments [2][][2]float64 // (R_T, R_N) ends at each contact
	// Wedged is set when the body's own equilibrium bounds nothing (see
	// ErrUnbounded): no segment then.
	Wedged bool
}

// TwoSupports lists the free bodies held by exactly two contacts.
func (s *Survey) TwoSupports() ([]Supported, error) {
	touching := map[int][]int{}
	for a, u := range s.Units {
		for _, b := range []int{u.Key.A, u.Key.B} {
			if !s.Sys.Bodies[b].Driven() && !slices.Contains(touching[b], a) {
				touching[b] = append(touching[b], a)
			}
		}
	}
	var out []Supported
	for b := range s.Sys.Bodies {
		cs := touching[b]
		if len(cs) != 2 {
			continue
		}
		var rows []int
		for i, r := range s.rows {
			if r/3 == b {
				rows = append(rows, i)
			}
		}
		st, err := s.newSet(rows, cs)
		if err != nil {
			return nil, fmt.Errorf("body %q: %w", s.Sys.Bodies[b].Name, err)
		}
		sp := Supported{Body: b, Contacts: [2]int{cs[0], cs[1]}}
		for k, c := range cs {
			sp.Segments[k], err = s.polygon(st, c)
			if errors.Is(err, ErrUnbounded) {
				sp.Wedged, sp.Segments = true, [2][][2]float64{}
				break
			}
			if err != nil {
				return nil, fmt.Errorf("body %q: %w", s.Sys.Bodies[b].Name, err)
			}
		}
		out = append(out, sp)
	}
	return out, nil
}

// Options of a survey's runs.
type Options struct {
	Solutions int     // runs per modality
	Seed      uint64  // of the first run; each run has its own
	Tol       float64 // NLGS's residual; 0: 1e-8
	MaxSweeps int     // per run; 0: 100 000
	// Accept is the imbalance and the cone violation (relative to the
	// largest R_N) a solution may have; 0: 1e-4. NLGS's residual measures
	// velocities and impulses together: at 1e-8 it leaves imbalances of a
	// few 1e-6 in a deposit of 28 disks.
	Accept float64
}

// Run solves the problem opt.Solutions times in a modality and returns the
// solutions that converged and hold the bodies in equilibrium within the
// cones, with the number of runs left out.
func (s *Survey) Run(m Modality, opt Options) ([]Solution, int, error) {
	opt = opt.defaults()
	if err := opt.Check(); err != nil {
		return nil, 0, err
	}
	nlgs := signorini.Options{Tol: opt.Tol, ChangeTol: -1, MaxSweeps: opt.MaxSweeps}
	if m == RandomGuess && s.moving {
		return nil, 0, errors.New("explore: random guesses need the bound of an equilibrium's forces: survey a moving sample in random order")
	}
	if m == RandomGuess {
		if err := s.Bound(); err != nil {
			return nil, 0, err
		}
		nlgs.Start, nlgs.Box = signorini.RandomBox, s.box
	} else {
		nlgs.Order = signorini.Shuffled
	}
	// The runs are independent: they share the problem read-only and go
	// to the cores in turn; each keeps its seed, so the solutions do not
	// depend on the number of cores.
	sols := make([]*Solution, opt.Solutions)
	errs := make([]error, opt.Solutions)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), opt.Solutions) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				sols[k], errs[k] = s.run(m, nlgs, opt, k)
			}
		}()
	}
	for k := range opt.Solutions {
		next <- k
	}
	close(next)
	wg.Wait()
	var out []Solution
	rejected := 0
	for k, sol := range sols {
		if errs[k] != nil {
			return nil, 0, errs[k]
		}
		if sol == nil {
			rejected++
			continue
		}
		out = append(out, *sol)
	}
	if len(out) == 0 && !s.moving {
		return nil, rejected, fmt.Errorf("explore: none of the %d runs holds the bodies at rest within %g of their weight: they are not at rest (their kinetic energy was %.3g J per m): run the scene longer, start from a later state, or survey the step with --moving (explore.NewMoving)", opt.Solutions, opt.Accept, s.Kinetic)
	}
	return out, rejected, nil
}

// maxSolutions bounds Options.Solutions: each run keeps its impulses.
const maxSolutions = 1000000

// defaults returns o with its zero values replaced by the defaults.
func (o Options) defaults() Options {
	if o.Tol == 0 {
		o.Tol = 1e-8
	}
	if o.MaxSweeps == 0 {
		o.MaxSweeps = 100000
	}
	if o.Accept == 0 {
		o.Accept = 1e-4
	}
	return o
}

// Check reports options that Run refuses (zero values stand for their
// defaults): a caller checks its flags before the survey's set-up.
func (o Options) Check() error {
	o = o.defaults()
	switch {
	case o.Solutions < 1 || o.Solutions > maxSolutions:
		return fmt.Errorf("explore: %d solutions per modality: expected 1 to %d", o.Solutions, maxSolutions)
	case !(o.Tol > 0 && o.Tol < 1):
		return fmt.Errorf("explore: tolerance %g: expected a residual in (0, 1), such as 1e-8", o.Tol)
	case o.MaxSweeps < 0:
		return fmt.Errorf("explore: %d sweeps at most: expected a positive number", o.MaxSweeps)
	case !(o.Accept > 0 && o.Accept < 1):
		return fmt.Errorf("explore: acceptance %g: expected a relative imbalance in (0, 1), such as 1e-4", o.Accept)
	}
	return nil
}

// run is run k: its solution, or nil when it is left out.
func (s *Survey) run(m Modality, nlgs signorini.Options, opt Options, k int) (*Solution, error) {
	nlgs.Seed = opt.Seed + uint64(k)*0x9e3779b97f4a7c15
	res, err := signorini.NLGS(s.problem, nlgs)
	if errors.Is(err, signorini.ErrNotConverged) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sol := s.solution(res.R)
	sol.Modality, sol.Run, sol.Sweeps, sol.Status = m, k, res.Sweeps, res.Status
	if (!s.moving && sol.Imbalance > opt.Accept) || s.coneViolation(sol) > opt.Accept {
		return nil, nil
	}
	return &sol, nil
}

// Weight is the size of the bodies' weights (N/m, the 2-norm over the free
// bodies): imbalances are relative to it, and a dot may lie outside an
// exact set by Accept times it.
func (s *Survey) Weight() float64 { return floats.Norm(s.mv, 2) / s.h }

// solution turns impulses into forces and measures the imbalance.
func (s *Survey) solution(r []float64) Solution {
	n := len(s.Units)
	sol := Solution{R: make([][2]float64, n)}
	for a := range sol.R {
		sol.R[a] = [2]float64{r[2*a] / s.h, r[2*a+1] / s.h}
	}
	res := make([]float64, len(s.b))
	for _, e := range s.e {
		res[e.row] += e.n*r[2*e.contact] + e.t*r[2*e.contact+1]
	}
	floats.Sub(res, s.b)
	sol.Imbalance = floats.Norm(res, 2) / math.Max(floats.Norm(s.mv, 2), 1e-300)
	return sol
}

// coneViolation is the largest excess of |R_T| over mu R_N, or of -R_N,
// relative to the largest R_N of the solution.
func (s *Survey) coneViolation(sol Solution) float64 {
	var worst, big float64
	for a, r := range sol.R {
		worst = math.Max(worst, math.Max(-r[0], math.Abs(r[1])-s.problem.Mu[a]*r[0]))
		big = math.Max(big, r[0])
	}
	return worst / math.Max(big, 1e-300)
}
