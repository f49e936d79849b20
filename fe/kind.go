package fe

import (
	"encoding/gob"
	"errors"
	"fmt"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/kind"
)

// Family is finite-element bodies, linear and hyperelastic, as a kind of
// body a simulation drives through the contact step (kind.Kind). Its
// bodies' contact units come from a contact.Detector's pairs, which the
// simulation holds (a pair may put a side of one against a rigid body's
// outline): its Source is nil.
type Family struct {
	st     *Stepper
	loaded []int // Predict's columns of a compliance with an impulse
	// What the outputs are drawn with (draw.go): the depths' measure and
	// storage, each body's sides, nodal masses, and full displacement and
	// velocity.
	depths func(dst [][]float64) [][]float64
	depth  [][]float64
	base   int // the first body's global index (Source)
	sides  [][][]int
	masses [][]float64
	u, v   []float64
}

// Touch is a side of a body something touches (a contact pair's side, a
// point contact's), and what, named for messages.
type Touch struct {
	What string
	Side *contact.Side
}

// NewFamily takes bodies into a simulation of step h and theta: it numbers
// each side made from one of them (Body.Side) with the body's place in
// bodies, checks that every side touched belongs to the body it names,
// takes every node of those sides as a contact node of its body (whatever
// Body.ContactNodes says, which it leaves as it is), then factorises the
// bodies (the Stepper, which then steps on the simulation's clock only).
func NewFamily(h, theta float64, bodies []*Body, touched []Touch) (*Family, error) {
	if err := bindSides(bodies, touched); err != nil {
		return nil, err
	}
	nodes, err := contactNodes(bodies, touched)
	if err != nil {
		return nil, err
	}
	st, err := newStepper(h, theta, bodies, nodes)
	if err != nil {
		return nil, err
	}
	st.inSimulation = true
	return &Family{st: st}, nil
}

// Stepper is the family's bodies' stepper: their bodies, factors and
// accounts.
func (f *Family) Stepper() *Stepper { return f.st }

// Name names the family in a checkpoint's sections and in messages.
func (f *Family) Name() string { return "finite-element bodies" }

// Source is nil: the simulation's Detector brings the bodies' units. It
// keeps base, the first body's global index.
func (f *Family) Source(base int, _ *kind.Placement) kind.Source {
	f.base = base
	return nil
}

// bindSides numbers each side made from a body (contact.Side.Owner) with
// that body's place in bodies.
func bindSides(bodies []*Body, touched []Touch) error {
	for _, t := range touched {
		side := t.Side
		if side.Owner == nil {
			continue
		}
		o, _ := side.Owner.(*Body)
		i := slices.Index(bodies, o)
		if i < 0 {
			return fmt.Errorf("simulation: %s: side %q is an edge group of %s, which is not one of the simulation's %s: give it in the list", t.What, side.Group, ownerName(side.Owner), plural.N(len(bodies), "body", "bodies"))
		}
		side.Body = i
	}
	return nil
}

// ownerName names the body a side was made from.
func ownerName(h any) string {
	if b, ok := h.(*Body); ok {
		return fmt.Sprintf("body %q", b.Name)
	}
	return fmt.Sprintf("a body of type %T", h)
}

// contactNodes checks that each side belongs to the body it names and
// collects, per body, the nodes of its sides.
func contactNodes(bodies []*Body, touched []Touch) ([][]int, error) {
	seen, nodes := make([]map[int]bool, len(bodies)), make([][]int, len(bodies))
	for i := range seen {
		seen[i] = map[int]bool{}
	}
	for _, t := range touched {
		side := t.Side
		i := side.Body
		if i < 0 || i >= len(bodies) || bodies[i].Space.Mesh != side.Mesh || bodies[i].Space.DOFs != side.DOFs {
			return nil, fmt.Errorf("simulation: %s: side %q names body %d, %s", t.What, side.Group, i, owner(bodies, side))
		}
		for _, n := range side.AllNodes() {
			if !seen[i][n] {
				seen[i][n] = true
				nodes[i] = append(nodes[i], n)
			}
		}
	}
	return nodes, nil
}

// owner says which of the bodies a side that names the wrong one belongs to.
func owner(bodies []*Body, side *contact.Side) string {
	for i, b := range bodies {
		if b.Space.Mesh == side.Mesh && b.Space.DOFs == side.DOFs {
			return fmt.Sprintf("but it is an edge group of body %d %q: give that index (Body.Side, contact.NewSide)", i, b.Name)
		}
	}
	return "but it belongs to none of the simulation's " + plural.N(len(bodies), "body", "bodies")
}

func (f *Family) Len() int                                      { return f.st.NumBodies() }
func (f *Family) DOFs(k int) int                                { return f.st.Body(k).Space.N() }
func (f *Family) Compliance(k int) kind.Compliance              { return f.st.Compliance(k) }
func (f *Family) MassCompliance(k int) (kind.Compliance, error) { return f.st.massCompliance(k) }
func (f *Family) Start(k int) (v0, vfree []float64)             { return f.st.Body(k).V, f.st.FreeVelocity(k) }
func (f *Family) Current(k int) []float64                       { return f.st.Body(k).V }
func (f *Family) Impact(k int, r []float64) error               { return f.st.impact(k, r) }
func (f *Family) Energy(e kind.Energy) kind.Energy              { return e.Add(f.st.TotalEnergy()) }
func (f *Family) Motion(int) contact.Motion                     { return nil }
func (f *Family) BodyName(k int) string                         { return f.st.Body(k).Name }
func (f *Family) Carries() bool                                 { return false }

// Begin starts the bodies' step over the simulation's clock, whose step
// and theta the bodies were factorised for.
func (f *Family) Begin(c kind.Clock) error {
	if c.H != f.st.h || c.Theta != f.st.theta {
		return fmt.Errorf("finite-element bodies: a step of h = %g, theta = %g for bodies factorised for h = %g, theta = %g", c.H, c.Theta, f.st.h, f.st.theta)
	}
	f.st.time = c.T
	return f.st.Begin()
}

// Iterates, Iterations and Factorisations say whether a body is
// hyperelastic, and the hyperelastic bodies' counts of the step
// (kind.Iterated).
func (f *Family) Iterates() bool {
	for k := range f.Len() {
		if f.st.Body(k).Law != 0 {
			return true
		}
	}
	return false
}
func (f *Family) Iterations() int     { return f.st.Newton() }
func (f *Family) Factorisations() int { return f.st.Factorisations() }

// Steps is the steps the bodies took: the simulation's clock in a
// checkpoint before version 5, kept in this family's section.
func (f *Family) Steps() int { return f.st.Steps() }

// place expands the body's displacement onto its mesh's nodes (a
// placement's first place allots them).
func (f *Family) Place(k, global int, at *kind.Placement) {
	b := f.st.Body(k)
	if at.Disp[global] == nil {
		at.Disp[global] = make([]float64, 2*len(b.Space.Mesh.Nodes))
	}
	b.displacementTo(at.Disp[global])
	if dr := b.drive; dr != nil {
		if at.Moving[global] == nil {
			at.Moving[global] = make([]float64, 2*len(b.Space.Mesh.Nodes))
		}
		dr.fill(at.Moving[global], dr.v)
	}
}

// predict is exact on the contact DOFs, through their compliance, and
// leaves the others free: only the contact nodes' end positions are
// written.
func (f *Family) Predict(k, global int, v, r []float64, clock kind.Clock, at *kind.Placement) {
	h, th := clock.H, clock.Theta
	b := f.st.Body(k)
	c := f.st.Compliance(k)
	nb := len(c.Eqs)
	// Few contact DOFs carry an impulse: sum over those columns only (the
	// same sum, in the same order, less its zero terms).
	loaded := f.loaded[:0]
	for l, e := range c.Eqs {
		if r[e] != 0 {
			loaded = append(loaded, l)
		}
	}
	f.loaded = loaded
	disp := at.Disp[global]
	for i, e := range c.Eqs {
		var dv float64
		row := c.C[i*nb : (i+1)*nb]
		for _, l := range loaded {
			dv += row[l] * r[c.Eqs[l]]
		}
		v[e] += dv
		disp[b.Space.DOFs.DOF[e]] = b.Q[e] + h*(th*v[e]+(1-th)*b.V[e])
	}
}

// Advance adds the impulses and advances the bodies; a hyperelastic body
// that takes a Newton update asks for another contact solve. Their step
// ends here, so that another family's asking for one after it cannot be
// met (kind.Family) where the new solve changed their impulses: refused.
func (f *Family) Advance(r [][]float64, loaded bool) (bool, error) {
	if f.st.stage == 0 {
		if f.tookAll(r, loaded) {
			return true, nil
		}
		return false, errors.New("finite-element bodies: their step has ended, and another kind of body asked for the contact problem to be solved again (its Advance returned false): a kind that takes Newton updates cannot step beside finite-element bodies")
	}
	if loaded {
		for k := range r {
			if err := f.st.AddImpulse(k, r[k]); err != nil {
				return false, err
			}
		}
	}
	return f.st.Advance()
}

// tookAll tells whether the bodies' ended step took the impulses r
// already: those it ended on (none, when not loaded).
func (f *Family) tookAll(r [][]float64, loaded bool) bool {
	for k, st := range f.st.bodies {
		for i, v := range st.r {
			if loaded && r[k][i] != v || !loaded && v != 0 {
				return false
			}
		}
	}
	return true
}

func (f *Family) Finish(r, shift [][]float64, loaded bool, step int) error { return nil }

func (f *Family) Save(enc *gob.Encoder) error { return enc.Encode(f.st.state()) }

func (f *Family) Load(dec *gob.Decoder) error {
	var st stepperState
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("finite-element bodies: damaged: %w", err)
	}
	return f.st.setState(st)
}

// StateLen is the body's nodes' displacements and velocities, x and y per
// node of its mesh (kind.Stated).
func (f *Family) StateLen(k int) (nq, nv int) {
	n := 2 * len(f.st.Body(k).Space.Mesh.Nodes)
	return n, n
}

func (f *Family) State(k int, q, v []float64) {
	b := f.st.Body(k)
	if q != nil {
		b.displacementTo(q)
	}
	if v != nil {
		b.velocityTo(v)
	}
}

// SetState takes the free DOFs' displacements and velocities from the
// nodes' (the ledger books the change at the next step's start); a fixed
// DOF keeps its zero and a driven one its motion's value, and another
// value there is refused.
func (f *Family) SetState(k int, q, v []float64) error {
	b := f.st.Body(k)
	for _, x := range []struct {
		what string
		to   []float64
		now  []float64
	}{{"displacement", q, b.Displacement()}, {"velocity", v, b.Velocity()}} {
		if err := kind.Finite(x.what, x.to); err != nil {
			return fmt.Errorf("body %q: %w", b.Name, err)
		}
		for i, e := range b.Space.DOFs.Eq {
			if x.to != nil && e < 0 && x.to[i] != x.now[i] {
				return fmt.Errorf("body %q: %s %g of node %d's %c: the node is fixed or driven there (the scene's fix): expected %g", b.Name, x.what, x.to[i], i/2, "xy"[i%2], x.now[i])
			}
		}
	}
	for i, e := range b.Space.DOFs.Eq {
		if e < 0 {
			continue
		}
		if q != nil {
			b.Q[e] = q[i]
		}
		if v != nil {
			b.V[e] = v[i]
		}
	}
	return nil
}

// Masses are the nodes' row-sum masses (Body.NodalMasses), for x and y.
func (f *Family) Masses(k int, m []float64) {
	for i, mi := range f.st.Body(k).masses {
		m[2*i], m[2*i+1] = mi, mi
	}
}
