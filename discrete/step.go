package discrete

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fecontact/fecontact/internal/reuse"
)

// Energy is a component's account, per m of thickness: Kinetic and
// Elastic are current values, the others accumulate (see the package
// documentation). Kinetic + Elastic + Damping + Numerical - External -
// Contact stays at its initial value.
type Energy struct {
	Kinetic, Elastic, External, Damping, Numerical, Contact float64
}

// component is masses that springs join: one body of the contact step.
type component struct {
	masses  []int
	m       []float64 // the mass of each DOF
	k, c    []float64 // stiffness and damping, n x n row-major
	g       []float64 // the preloads' force on the DOFs (the gradient of their energy at u = 0)
	e0      float64   // the preloads' energy at u = 0
	f       []float64 // gravity and applied forces
	x0      []float64 // the positions the masses were given
	w       []float64 // (M + h theta C + h^2 theta^2 K)^-1, n x n row-major
	v0, r   []float64
	shift   []float64 // impulses whose time in the step moves the position (AddShift)
	vfree   []float64
	u0      []float64
	energy  Energy
	scratch []float64
	// Finish's end velocity, v_theta, dv and du, reused step to step.
	v1, vt, dv, du []float64
}

func (c *component) n() int { return len(c.m) }

// group finds the components (union of the masses springs join, in the
// order of their first mass) and assembles each one's M, K, C and forces.
func (s *System) group() error {
	root := make([]int, len(s.Masses))
	for i := range root {
		root[i] = i
	}
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	for _, sp := range s.springs {
		if sp.B != Anchored {
			a, b := find(sp.A), find(sp.B)
			root[max(a, b)] = min(a, b)
		}
	}
	s.of, s.at = make([]int, len(s.Masses)), make([]int, len(s.Masses))
	index := map[int]int{}
	for i := range s.Masses {
		r := find(i)
		k, ok := index[r]
		if !ok {
			k = len(s.comps)
			index[r] = k
			s.comps = append(s.comps, &component{})
		}
		c := s.comps[k]
		s.of[i], s.at[i] = k, len(c.masses)
		c.masses = append(c.masses, i)
	}
	for _, c := range s.comps {
		if len(c.masses) > MaxComponent {
			return fmt.Errorf("springs join %d masses into one body (mass %q among them), more than %d: its compliance is a dense matrix of (2n)^2 numbers", len(c.masses), s.Masses[c.masses[0]].Name, MaxComponent)
		}
	}
	for _, c := range s.comps {
		s.assemble(c)
	}
	return nil
}

// MaxComponent is the most masses springs may join into one body: its
// matrices are dense, (2n)^2 numbers each (8 MB at this bound).
const MaxComponent = 500

// assemble builds a component's matrices and constant forces.
func (s *System) assemble(c *component) {
	n := 2 * len(c.masses)
	c.m, c.f, c.g, c.x0 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	c.k, c.c = make([]float64, n*n), make([]float64, n*n)
	for l, i := range c.masses {
		m := s.Masses[i]
		for d := range 2 {
			c.m[2*l+d] = m.M
			c.f[2*l+d] = m.M*m.Gravity[d] + m.Force[d]
			c.x0[2*l+d] = m.X[d]
		}
	}
	for si, sp := range s.springs {
		if s.of[sp.A] != s.of[c.masses[0]] {
			continue
		}
		k, d, pre, e0 := s.ref[si].k, s.ref[si].d, s.ref[si].pre, s.ref[si].e0
		ends := []int{2 * s.at[sp.A]}
		if sp.B != Anchored {
			ends = append(ends, 2*s.at[sp.B])
		}
		// The relative displacement is u_B - u_A (u_A alone, negated, for
		// an anchored spring: the anchor's is 0 and its matrix acts on
		// A's displacement, which the two signs leave as it is).
		sign := []float64{-1, 1}
		if sp.B == Anchored {
			sign = []float64{1}
		}
		for a, ea := range ends {
			for b, eb := range ends {
				for p := range 2 {
					for q := range 2 {
						c.k[(ea+p)*n+eb+q] += sign[a] * sign[b] * k[p][q]
						c.c[(ea+p)*n+eb+q] += sign[a] * sign[b] * d[p][q]
					}
				}
			}
			for p := range 2 {
				c.g[ea+p] += sign[a] * pre[p]
			}
		}
		c.e0 += e0
	}
	for _, v := range []*[]float64{&c.v0, &c.r, &c.vfree, &c.u0, &c.scratch, &c.v1, &c.vt, &c.dv, &c.du} {
		*v = make([]float64, n)
	}
}

// springRef is a spring's stiffness and dashpot matrices on the relative
// displacement d, its preload's force on d and its energy at d = 0: the
// energy is (k/2)(n.d + L - rest)^2 along the line.
type springRef struct {
	k, d [2][2]float64
	pre  [2]float64
	e0   float64
}

// stiffness is the spring's springRef with the masses where they are.
func (sp *Spring) stiffness(masses []*Mass) springRef {
	iso := func(x float64) [2][2]float64 { return [2][2]float64{{x, 0}, {0, x}} }
	if sp.Matrix != nil {
		return springRef{k: *sp.Matrix, d: iso(sp.Damping)}
	}
	l := sp.length(masses)
	if l == 0 {
		return springRef{k: iso(sp.K), d: iso(sp.Damping)}
	}
	var k, d [2][2]float64
	var pre [2]float64
	var e0 float64
	a, b := sp.ends(masses)
	nv := [2]float64{(b[0] - a[0]) / l, (b[1] - a[1]) / l}
	if sp.B == Anchored {
		nv = [2]float64{-nv[0], -nv[1]} // from the anchor to the mass: along the mass's own displacement
	}
	for p := range 2 {
		for q := range 2 {
			k[p][q] = sp.K * nv[p] * nv[q]
			d[p][q] = sp.Damping * nv[p] * nv[q]
		}
	}
	if sp.Rest != nil {
		stretch := l - *sp.Rest
		pre = [2]float64{sp.K * stretch * nv[0], sp.K * stretch * nv[1]}
		e0 = sp.K * stretch * stretch / 2
	}
	return springRef{k, d, pre, e0}
}

// Prepare fixes the step h and theta and factorises each component's
// M + h theta C + h^2 theta^2 K; the simulation calls it once, before the
// first step. A System is one simulation's: a second Prepare (a second
// simulation given the same System, which stepped its masses on its own
// clock) is refused.
func (s *System) Prepare(h, theta float64) error {
	if !(h > 0) || !(theta >= 0.5 && theta <= 1) {
		return fmt.Errorf("discrete: step %g s, theta %g: expected h > 0 and theta in [1/2, 1]", h, theta)
	}
	if s.h != 0 {
		return fmt.Errorf("discrete: the point masses are a simulation's already (step %g s): make a System for each simulation", s.h)
	}
	s.h, s.theta = h, theta
	for k, c := range s.comps {
		n := c.n()
		a := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				v := h*theta*c.c[i*n+j] + h*h*theta*theta*c.k[i*n+j]
				if i == j {
					v += c.m[i]
				}
				a.SetSym(i, j, v)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(a) {
			return fmt.Errorf("discrete: the masses of %q: M + h theta C + h^2 theta^2 K is not positive definite", s.Masses[c.masses[0]].Name)
		}
		var inv mat.SymDense
		if err := ch.InverseTo(&inv); err != nil {
			return fmt.Errorf("discrete: the masses of %q: M + h theta C + h^2 theta^2 K cannot be inverted to working precision (condition number %.2g): stiffnesses or dashpots far beyond the masses' scale at this h; give them of one scale", s.Masses[c.masses[0]].Name, ch.Cond())
		}
		c.w = make([]float64, n*n)
		for i := range n {
			for j := range n {
				c.w[i*n+j] = inv.At(i, j)
			}
		}
		s.state(k)
	}
	return nil
}

// state reads component k's displacement and velocity from its masses and
// sets its current energies.
func (s *System) state(k int) {
	c := s.comps[k]
	for l, i := range c.masses {
		m := s.Masses[i]
		for d := range 2 {
			c.u0[2*l+d] = m.X[d] - c.x0[2*l+d]
			c.v0[2*l+d] = m.V[d]
		}
	}
	c.energy.Kinetic = kinetic(c.m, c.v0)
	c.energy.Elastic = c.elastic(c.u0)
}

// restate is state at a step's start: a position or velocity the caller
// set between steps changes the energies, and the change is booked as
// external work, so that the ledger still closes (the caller did that
// work).
func (s *System) restate(k int) {
	e := &s.comps[k].energy
	before := e.Kinetic + e.Elastic
	s.state(k)
	if d := e.Kinetic + e.Elastic - before; d != 0 {
		e.External += d
	}
}

func kinetic(m, v []float64) float64 {
	var e float64
	for i := range m {
		e += m[i] * v[i] * v[i] / 2
	}
	return e
}

// elastic is u'Ku/2 + g'u + e0: the springs' energy at displacement u.
func (c *component) elastic(u []float64) float64 {
	return c.quad(c.k, u, u)/2 + dot(c.g, u) + c.e0
}

// quad is a'Ab for a row-major n x n matrix A.
func (c *component) quad(a, x, y []float64) float64 {
	n := c.n()
	var q float64
	for i := range n {
		var row float64
		for j := range n {
			row += a[i*n+j] * y[j]
		}
		q += x[i] * row
	}
	return q
}

func dot(a, b []float64) float64 {
	var d float64
	for i := range a {
		d += a[i] * b[i]
	}
	return d
}

// mulAdd sets dst = x + A y for a row-major n x n A.
func mulAdd(dst, x, a, y []float64) {
	n := len(x)
	for i := range n {
		v := x[i]
		for j := range n {
			v += a[i*n+j] * y[j]
		}
		dst[i] = v
	}
}

// Len is the number of components: the bodies of the contact step.
func (s *System) Len() int { return len(s.comps) }

// Masses of component k, by index.
func (s *System) Component(k int) []int { return s.comps[k].masses }

// Of returns the component of mass i and i's index in it (its DOFs there
// are 2 index and 2 index + 1).
func (s *System) Of(i int) (k, index int) { return s.of[i], s.at[i] }

// Compliance returns component k's compliance on its DOFs, row-major:
// exact, since the springs are linear.
func (s *System) Compliance(k int) (eqs []int, c []float64) {
	comp := s.comps[k]
	eqs = make([]int, comp.n())
	for i := range eqs {
		eqs[i] = i
	}
	return eqs, comp.w
}

// MassCompliance returns component k's M^-1 (the response to an impulse
// that lasts no time), row-major.
func (s *System) MassCompliance(k int) (eqs []int, c []float64) {
	comp := s.comps[k]
	n := comp.n()
	eqs, c = make([]int, n), make([]float64, n*n)
	for i := range n {
		eqs[i], c[i*n+i] = i, 1/comp.m[i]
	}
	return eqs, c
}

// Begin starts a step from time t: the free velocities, those the masses
// would have at the end without contact (an error when they overflow),
// v_free = v0 + W h (f - g - C v0 - K (u0 + h theta v0)).
func (s *System) Begin(t float64) error {
	s.t = t
	h, th := s.h, s.theta
	for k, c := range s.comps {
		s.restate(k)
		s.timedForces(c, t)
		n := c.n()
		rhs := c.scratch
		for i := range n {
			var kv, cv float64
			for j := range n {
				kv += c.k[i*n+j] * (c.u0[j] + h*th*c.v0[j])
				cv += c.c[i*n+j] * c.v0[j]
			}
			rhs[i] = h * (c.f[i] - c.g[i] - cv - kv)
			c.r[i] = 0
		}
		c.shift = reuse.Zeroed(c.shift, n)
		mulAdd(c.vfree, c.v0, c.w, rhs)
	}
	return s.checkFree()
}

// Velocity is component k's velocity at the start of the step.
func (s *System) Velocity(k int) []float64 { return s.comps[k].v0 }

// FreeVelocity is component k's free velocity.
func (s *System) FreeVelocity(k int) []float64 { return s.comps[k].vfree }

// Current is component k's velocity now (a copy).
func (s *System) Current(k int) []float64 {
	c := s.comps[k]
	v := make([]float64, c.n())
	for l, i := range c.masses {
		v[2*l], v[2*l+1] = s.Masses[i].V[0], s.Masses[i].V[1]
	}
	return v
}

// AddImpulse adds a contact impulse (N s per m on each DOF) to component
// k's step.
func (s *System) AddImpulse(k int, r []float64) {
	for i, x := range r {
		s.comps[k].r[i] += x
	}
}

// Free reports whether component k is free masses: a mass that no spring
// or dashpot joins to anything, whose position a shift (AddShift) can
// move without changing any stored energy.
func (s *System) Free(k int) bool {
	c := s.comps[k]
	for i := range c.k {
		if c.k[i] != 0 || c.c[i] != 0 {
			return false
		}
	}
	return true
}

// AddShift adds to free component k's step (Free) the impulse r of
// impacts that came at other times in the step than the theta-method
// assumes: its position moves by M^-1 r on top of the theta-method's, its
// velocity not; the shift's work against the constant forces is booked
// as theirs and taken from the contact work, so that the ledger holds.
func (s *System) AddShift(k int, r []float64) {
	for i, x := range r {
		s.comps[k].shift[i] += x
	}
}

// Impact applies an impulse r to component k between steps, v += M^-1 r,
// and books its work r . (v- + v+)/2 as contact work.
func (s *System) Impact(k int, r []float64) {
	c := s.comps[k]
	for l, i := range c.masses {
		m := s.Masses[i]
		for d := range 2 {
			dv := r[2*l+d] / m.M
			c.energy.Contact += r[2*l+d] * (m.V[d] + dv/2)
			m.V[d] += dv
		}
	}
	s.state(k)
}

// Finish ends the step: v1 = v_free + W r, u1 = u0 + h v_theta, and the
// energy accounts.
func (s *System) Finish() {
	h, th := s.h, s.theta
	for _, c := range s.comps {
		n := c.n()
		v1, vt, dv, du := c.v1, c.vt, c.dv, c.du
		mulAdd(v1, c.vfree, c.w, c.r)
		for i := range n {
			vt[i] = th*v1[i] + (1-th)*c.v0[i]
			dv[i], du[i] = v1[i]-c.v0[i], h*vt[i]
		}
		e := &c.energy
		e.External += dot(c.f, du)
		e.Damping += h * c.quad(c.c, vt, vt)
		e.Numerical += (th - 0.5) * (kinetic(c.m, dv)*2 + c.quad(c.k, du, du))
		e.Contact += dot(c.r, vt)
		for i, x := range c.shift {
			if x != 0 {
				du[i] += x / c.m[i]
				w := c.f[i] * x / c.m[i]
				e.External += w
				e.Contact -= w
			}
		}
		for l, i := range c.masses {
			m := s.Masses[i]
			for d := range 2 {
				m.X[d] += du[2*l+d]
				m.V[d] = v1[2*l+d]
			}
		}
	}
	s.t += h
	for k := range s.comps {
		s.state(k)
	}
}

// Energy returns component k's account.
func (s *System) Energy(k int) Energy { return s.comps[k].energy }

// CheckState refuses a mass whose position or velocity is no longer a
// finite number.
func (s *System) CheckState() error {
	for i, m := range s.Masses {
		if !inRange(m.X) || !inRange(m.V) {
			return fmt.Errorf("mass %d %q at t = %g s: position %v, velocity %v: out of range (+-%g): the run diverged; a smaller h, or stiffnesses and forces of the masses' scale", i+1, m.Name, s.t, m.X, m.V, MaxCoordinate)
		}
	}
	return nil
}

// checkFree refuses free velocities that are not finite numbers: a
// stiffness, mass or force so large that the step's products overflow.
func (s *System) checkFree() error {
	for _, c := range s.comps {
		for i, v := range c.vfree {
			if !(math.Abs(v) < math.Inf(1)) {
				m := s.Masses[c.masses[i/2]]
				return fmt.Errorf("mass %q at t = %g s: its free velocity is %g: its springs' stiffness (or its mass or force) overflows the step's arithmetic; give values of the masses' scale", m.Name, s.t, v)
			}
		}
	}
	return nil
}

// timedForces sets the constant force of a component whose masses' forces
// vary in time (Mass.ForceTime) to their values over the step from t,
// theta-weighted over its ends: what its free velocity takes and what
// Finish books as their work.
func (s *System) timedForces(c *component, t float64) {
	for l, i := range c.masses {
		m := s.Masses[i]
		if m.ForceTime == nil {
			continue
		}
		f := s.theta*m.ForceTime(t+s.h) + (1-s.theta)*m.ForceTime(t)
		for d := range 2 {
			c.f[2*l+d] = m.M*m.Gravity[d] + m.Force[d]*f
		}
	}
}

// setForce sets the applied forces of component k's masses (x and y per
// mass) and the constant force its step takes, whose work Finish books.
func (s *System) setForce(k int, f []float64) {
	c := s.comps[k]
	for l, i := range c.masses {
		m := s.Masses[i]
		for d := range 2 {
			m.Force[d] = f[2*l+d]
			c.f[2*l+d] = m.M*m.Gravity[d] + m.Force[d]
		}
	}
}
