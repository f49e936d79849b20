package timestep

import (
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
)

// RigidProblem is the contact problem of one step of length h of the rigid
// bodies from their current state, with the velocity (shock) law at every
// unit, U_end >= 0, and impulses in N s. For bodies at rest under gravity
// its solutions in which no body moves are h times the contact forces that
// hold them in equilibrium: "calculating the values of contact forces in
// such an equilibrium configuration is the matter of a single step of the
// CD algorithm" ([M04] section 3.1). The units and their entries live until the
// system's next detection.
func RigidProblem(sys *rigid.System, h float64) (*signorini.Problem, []contact.Unit, error) {
	units, err := sys.Detect(0)
	if err != nil {
		return nil, nil, err
	}
	comps := make([]Compliance, len(sys.Bodies))
	vfree := make([][]float64, len(sys.Bodies))
	for k, b := range sys.Bodies {
		eqs, c := sys.Compliance(k)
		comps[k] = Compliance{Eqs: eqs, C: c}
		if !b.Driven() {
			vfree[k] = []float64{b.V[0] + h*b.Gravity[0], b.V[1] + h*b.Gravity[1], b.V[2]}
		}
	}
	d, err := NewDelassus(comps...)
	if err != nil {
		return nil, nil, err
	}
	p := &signorini.Problem{Q: make([]float64, 2*len(units)), Mu: make([]float64, len(units))}
	for a := range units {
		u := units[a].Velocity(vfree)
		p.Q[2*a], p.Q[2*a+1], p.Mu[a] = u[0], u[1], units[a].Mu
	}
	if p.W, err = d.Build(units); err != nil {
		return nil, nil, err
	}
	return p, units, nil
}
