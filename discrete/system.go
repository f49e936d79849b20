package discrete

import (
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
)

// Mass is a point mass: two DOFs, its position's x and y.
type Mass struct {
	Name    string
	M       float64    // kg per m of thickness
	X, V    [2]float64 // position (m) and velocity (m/s), updated by the steps
	Gravity [2]float64 // m/s^2
	Force   [2]float64 // an applied force, N per m
	Radius  float64    // of its contact disc, m; 0: a point
	// ForceTime, when set, is the factor of Force at time t (a ramp, a
	// cycle, a table), theta-weighted over each step's ends; nil: Force
	// is constant.
	ForceTime func(t float64) float64
}

// Spring joins mass A to mass B, or to the fixed point Anchor when B is
// Anchored. Its stiffness is K along the line from A to B as the masses
// were given (a zero-length spring, A on its anchor, is isotropic: k I),
// or the given Matrix on the displacement of B relative to A (for an
// anchored spring, of A: Klarbring's K = [[K_t, W], [W, K_n]]). A dashpot
// of coefficient Damping acts along the line (isotropically for a
// zero-length or a matrix spring).
type Spring struct {
	Name    string
	A, B    int
	Anchor  [2]float64
	K       float64        // N/m per m of thickness
	Rest    *float64       // rest length, m; nil: the initial length (no preload)
	Matrix  *[2][2]float64 // N/m per m; instead of K and Rest
	Damping float64        // N s/m per m
}

// Anchored is Spring.B for a spring whose other end is its Anchor.
const Anchored = -1

// Contact makes masses touch an obstacle (fixed, moving, or carried by a
// rigid body) or the side of a finite-element body: one of Obstacle and
// Side. A side or a rigid body must be 1 m thick, since masses are per m
// of thickness.
type Contact struct {
	Name     string
	Masses   []int // nil: every mass (NewSystem lists them)
	Obstacle *contact.Obstacle
	Side     *contact.Side
	Mu       float64     // Coulomb friction coefficient
	Law      contact.Law // zero value: Positional
	// MuDynamic is the coefficient while sliding (contact.Unit.MuDynamic);
	// nil: Mu throughout.
	MuDynamic *float64
	// Restitution e of the Shock law, U_N,end >= -e U_N,start, in [0, 1]
	// (rigid.Restitution of a dissipation index), and of its tangential
	// component unless TangentialRestitution sets that (rigid.Rule's).
	Restitution           float64
	TangentialRestitution *float64
	// Cohesion is the tension (N/m) each mass touching at the run's start
	// holds before its bond breaks for good (kind.Law.Cohesion); 0: none.
	Cohesion float64
	// Alert is the least distance at which a mass is paired with the
	// obstacle, m, and how deep inside it a mass's centre may be found
	// (deeper, it went through); whatever it is, a mass is paired within
	// twice the way it can go in a step. Zero means 1e-3 of the
	// obstacle's extent, or half the side's shortest edge.
	Alert float64
}

// alert is the contact's Alert or its default.
func (c *Contact) alert() float64 {
	if c.Alert > 0 {
		return c.Alert
	}
	return c.defaultAlert()
}

// defaultAlert is 1e-3 of the obstacle's extent, or half the side's
// shortest edge: the scale of a point's contact, which its slop is a
// fraction of.
func (c *Contact) defaultAlert() float64 {
	if c.Side != nil {
		shortest := math.Inf(1)
		for _, e := range c.Side.Edges() {
			shortest = min(shortest, c.Side.Mesh.EdgeLength(e))
		}
		return shortest / 2
	}
	o := c.Obstacle
	if o.Radius > 0 {
		return 2e-3 * o.Radius
	}
	lo, hi := o.Points[0], o.Points[0]
	for _, p := range o.Points {
		lo = [2]float64{min(lo[0], p[0]), min(lo[1], p[1])}
		hi = [2]float64{max(hi[0], p[0]), max(hi[1], p[1])}
	}
	return 1e-3 * math.Hypot(hi[0]-lo[0], hi[1]-lo[1])
}

// System is point masses, the springs between them and their contacts
// with obstacles, stepped by the theta-method (Prepare once, then Begin,
// AddImpulse, Finish each step) inside a simulation that solves their
// contacts.
type System struct {
	Masses []*Mass

	springs  []Spring    // checked by NewSystem
	ref      []springRef // their matrices, from the positions NewSystem saw
	contacts []Contact   // checked by NewSystem
	comps    []*component
	of, at   []int // per mass: its component and its index there
	h, theta float64
	t        float64
	touches  []contact.Touch // Detect's, reused
	discs    []contact.Disc
}

// NewSystem checks the masses, springs and contacts and groups the masses
// that springs join into components.
func NewSystem(masses []*Mass, springs []Spring, contacts []Contact) (*System, error) {
	for i, m := range masses {
		if err := m.check(); err != nil {
			return nil, fmt.Errorf("mass %d %q: %w", i+1, m.Name, err)
		}
	}
	named := map[string]int{}
	for i, sp := range springs {
		if err := sp.check(masses); err != nil {
			return nil, fmt.Errorf("spring %d %q: %w", i+1, sp.Name, err)
		}
		if j, ok := named[sp.Name]; ok && sp.Name != "" {
			return nil, fmt.Errorf("spring %d %q: spring %d has that name: give each spring its own (history.csv names their columns by it)", i+1, sp.Name, j+1)
		}
		named[sp.Name] = i
	}
	for i, c := range contacts {
		if err := c.check(len(masses)); err != nil {
			return nil, fmt.Errorf("point contact %d %q: %w", i+1, c.Name, err)
		}
	}
	s := &System{Masses: masses, springs: append([]Spring(nil), springs...), contacts: append([]Contact(nil), contacts...)}
	for i := range s.contacts {
		c := &s.contacts[i]
		c.Alert = c.alert()
		// The System's own: a caller's change to what it gave after the
		// check reaches no contact.
		c.Masses = slices.Clone(c.Masses)
		if d := c.MuDynamic; d != nil {
			v := *d
			c.MuDynamic = &v
		}
		if et := c.TangentialRestitution; et != nil {
			v := *et
			c.TangentialRestitution = &v
		}
		if c.Masses == nil {
			c.Masses = make([]int, len(masses))
			for k := range c.Masses {
				c.Masses[k] = k
			}
		}
	}
	for k := range s.springs {
		s.ref = append(s.ref, s.springs[k].stiffness(masses))
	}
	if err := s.group(); err != nil {
		return nil, err
	}
	return s, nil
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// MaxRadius bounds a mass's contact disc; maxAlertFactor a point
// contact's alert distance, over its default (Contact.Alert).
const (
	MaxRadius      = 1e6
	maxAlertFactor = 1e3
)

// MaxCoordinate bounds a mass's position and velocity (m, m/s), as
// rigid.MaxCoordinate bounds a rigid body's: beyond, a step's products
// lose every digit of a contact's gap.
const MaxCoordinate = 1e15

func inRange(v [2]float64) bool {
	return math.Abs(v[0]) < MaxCoordinate && math.Abs(v[1]) < MaxCoordinate
}

func (m *Mass) check() error {
	switch {
	case !(m.M > 0) || !finite(m.M):
		return fmt.Errorf("mass %g kg/m: expected a positive number", m.M)
	case !inRange(m.X):
		return fmt.Errorf("position %v m: expected finite numbers within +-%g", m.X, MaxCoordinate)
	case !inRange(m.V):
		return fmt.Errorf("velocity %v m/s: expected finite numbers within +-%g", m.V, MaxCoordinate)
	case !finite(m.Gravity[0], m.Gravity[1]):
		return fmt.Errorf("gravity %v: expected finite numbers", m.Gravity)
	case !finite(m.Force[0], m.Force[1]):
		return fmt.Errorf("force %v: expected finite numbers", m.Force)
	case !(m.Radius >= 0) || !finite(m.Radius):
		return fmt.Errorf("radius %g m: expected 0 (a point) or a positive number", m.Radius)
	case m.Radius > MaxRadius:
		return fmt.Errorf("radius %g m: at most %g m: a mass's contact disc is the size of a body, and beyond it the disc's gaps lose their digits (a mass of radius 1e300 hovered above a plane)", m.Radius, MaxRadius)
	}
	return nil
}

func (sp *Spring) check(masses []*Mass) error {
	n := len(masses)
	switch {
	case sp.A < 0 || sp.A >= n:
		return fmt.Errorf("mass index %d: expected 0 to %d", sp.A, n-1)
	case sp.B != Anchored && (sp.B < 0 || sp.B >= n):
		return fmt.Errorf("mass index %d: expected 0 to %d, or Anchored", sp.B, n-1)
	case sp.B == sp.A:
		return fmt.Errorf("joins mass %d %q to itself", sp.A, masses[sp.A].Name)
	case !(sp.K >= 0) || !finite(sp.K):
		return fmt.Errorf("stiffness %g N/m: expected 0 or a positive number", sp.K)
	case !(sp.Damping >= 0) || !finite(sp.Damping):
		return fmt.Errorf("damping %g N s/m: expected 0 or a positive number", sp.Damping)
	case sp.K == 0 && sp.Matrix == nil && sp.Damping == 0:
		return fmt.Errorf("no stiffness and no damping: it would do nothing; give a stiffness (N/m per m), a stiffness matrix, or a damping")
	case sp.B == Anchored && !finite(sp.Anchor[0], sp.Anchor[1]):
		return fmt.Errorf("anchor %v: expected finite numbers", sp.Anchor)
	}
	if k := sp.Matrix; k != nil {
		if sp.K != 0 || sp.Rest != nil {
			return fmt.Errorf("give either a stiffness matrix or a stiffness and rest length, not both")
		}
		return checkMatrix(*k)
	}
	l := sp.length(masses)
	if r := sp.Rest; r != nil {
		switch {
		case !(*r >= 0) || !finite(*r):
			return fmt.Errorf("rest length %g m: expected 0 or a positive number", *r)
		case l == 0 && *r != 0:
			return fmt.Errorf("its ends are at the same point, so it has no direction for a rest length of %g m: move the anchor or the mass, or leave the rest length out", *r)
		}
	}
	return nil
}

// checkMatrix refuses a stiffness matrix that is not symmetric positive
// semi-definite: its energy would not be one, or would be negative.
func checkMatrix(k [2][2]float64) error {
	if !finite(k[0][0], k[0][1], k[1][0], k[1][1]) {
		return fmt.Errorf("stiffness matrix %v: expected finite numbers", k)
	}
	scale := max(math.Abs(k[0][0]), math.Abs(k[1][1])) + math.Abs(k[0][1])
	if math.Abs(k[0][1]-k[1][0]) > 1e-12*scale {
		return fmt.Errorf("stiffness matrix %v is not symmetric (%g against %g): a spring's stiffness is", k, k[0][1], k[1][0])
	}
	if k[0][0] < 0 || k[1][1] < 0 || k[0][0]*k[1][1]-k[0][1]*k[1][0] < -1e-12*scale*scale {
		return fmt.Errorf("stiffness matrix %v is not positive semi-definite (its energy would be negative along some direction): expected K_t, K_n >= 0 and K_t K_n >= W^2", k)
	}
	return nil
}

func (c *Contact) check(n int) error {
	switch {
	case (c.Obstacle == nil) == (c.Side == nil):
		return fmt.Errorf("give one of an obstacle and a side")
	case c.Side != nil && c.Side.Thickness() != 1:
		return fmt.Errorf("side %q is %g m thick: against masses it must be 1 m thick (masses and their impulses are per m of thickness)", c.Side.Group, c.Side.Thickness())
	case c.Obstacle != nil:
		if err := c.Obstacle.Check(); err != nil {
			return err
		}
	}
	for _, i := range c.Masses {
		if i < 0 || i >= n {
			return fmt.Errorf("mass index %d: expected 0 to %d", i, n-1)
		}
	}
	switch {
	case !(c.Mu >= 0 && c.Mu <= contact.MaxMu):
		return fmt.Errorf("friction coefficient %g: expected 0 or a positive number up to %g (%g already sticks)", c.Mu, contact.MaxMu, contact.MaxMu)
	case contact.CheckDynamic(c.Mu, c.MuDynamic) != nil:
		return contact.CheckDynamic(c.Mu, c.MuDynamic)
	case !(c.Restitution >= 0 && c.Restitution <= 1):
		return fmt.Errorf("restitution %g: expected a number in [0, 1]", c.Restitution)
	case c.TangentialRestitution != nil && !(*c.TangentialRestitution >= 0 && *c.TangentialRestitution <= 1):
		return fmt.Errorf("tangential restitution %g: expected a number in [0, 1]", *c.TangentialRestitution)
	case !(c.Cohesion >= 0) || !finite(c.Cohesion):
		return fmt.Errorf("cohesion %g N/m: expected a finite tension >= 0 (0: no bond)", c.Cohesion)
	case !(c.Alert >= 0) || !finite(c.Alert):
		return fmt.Errorf("alert distance %g m: expected 0 or a positive number", c.Alert)
	case c.Alert > maxAlertFactor*c.defaultAlert():
		return fmt.Errorf("alert distance %g m: at most %g m (%g times its default, 1e-3 of the obstacle's extent or half the side's shortest edge): a mass is paired within it, and the step adds twice the mass's travel to it anyway, so that a larger one finds nothing more", c.Alert, maxAlertFactor*c.defaultAlert(), maxAlertFactor)
	case c.Law != contact.Positional && c.Law != contact.Shock:
		return fmt.Errorf("law %v: expected contact.Positional or contact.Shock", c.Law)
	}
	return nil
}

// ZeroLength reports whether the spring's ends start at one point: a
// spring along its line then has no line, and pulls the same in every
// direction (K times the identity).
func (sp *Spring) ZeroLength(masses []*Mass) bool {
	return sp.Matrix == nil && sp.length(masses) == 0
}

// ends are the spring's end points as the masses are now.
func (sp *Spring) ends(masses []*Mass) (a, b [2]float64) {
	a = masses[sp.A].X
	if sp.B == Anchored {
		return a, sp.Anchor
	}
	return a, masses[sp.B].X
}

func (sp *Spring) length(masses []*Mass) float64 {
	a, b := sp.ends(masses)
	return math.Hypot(b[0]-a[0], b[1]-a[1])
}

// Springs returns the springs (a copy: they are fixed by NewSystem).
func (s *System) Springs() []Spring { return append([]Spring(nil), s.springs...) }

// Contacts returns the contacts (a copy: they are fixed by NewSystem).
func (s *System) Contacts() []Contact { return append([]Contact(nil), s.contacts...) }

// Ends returns spring k's end points now: its first mass, and its second
// mass or its anchor.
func (s *System) Ends(k int) (a, b [2]float64) { return s.springs[k].ends(s.Masses) }

// SpringForce returns the force spring k (with its dashpot) pulls its
// first mass with now, N per m: -(K d + preload + C d'), d the relative
// displacement of its second end (of the mass, for an anchored one).
func (s *System) SpringForce(k int) [2]float64 {
	sp, ref := &s.springs[k], s.ref[k]
	K, C, pre := ref.k, ref.d, ref.pre
	a := s.Masses[sp.A]
	x0 := s.comps[s.of[sp.A]].x0[2*s.at[sp.A]:]
	d := [2]float64{a.X[0] - x0[0], a.X[1] - x0[1]}
	v := a.V
	sign := 1.0 // d is the first mass's displacement: the force on it is -(K d + pre)
	if sp.B != Anchored {
		b := s.Masses[sp.B]
		y0 := s.comps[s.of[sp.B]].x0[2*s.at[sp.B]:]
		d = [2]float64{b.X[0] - y0[0] - d[0], b.X[1] - y0[1] - d[1]}
		v = [2]float64{b.V[0] - v[0], b.V[1] - v[1]}
		sign = -1 // d is the second's relative to the first: the first is pulled by +(K d + pre)
	}
	var f [2]float64
	for p := range 2 {
		f[p] = -sign * (K[p][0]*d[0] + K[p][1]*d[1] + pre[p] + C[p][0]*v[0] + C[p][1]*v[1])
	}
	return f
}
