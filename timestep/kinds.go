package timestep

import (
	"fmt"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/rigid"
)

// The one list of the kinds of body a simulation is built with: the only
// file of the package that names them.

// NewSimulation builds a simulation of finite-element bodies (fe.Family),
// the rigid bodies of opt.Rigid (rigid.NewKind), the point masses of
// opt.Points (discrete.NewKind) and the kinds of opt.Kinds, numbered in
// that order, their contact units from the detector's pairs and from the
// kinds' own sources. It takes every node of the detector's sides as a
// contact node of its body (whatever Body.ContactNodes says, which it
// leaves as it is), then factorises the bodies. What it is given is the
// simulation's from then on: it steps the bodies, the rigid system and
// the point masses, and prepares the point masses for its step
// (discrete.System.Prepare), once (a second simulation given the same
// point masses is refused). A velocity or position set by hand after it,
// or between steps, is taken at the next step's start and the change of
// energy it makes booked as external work: the ledger closes. A side made
// from its body (fe.Body.Side) and an obstacle a rigid body carries made
// from it (rigid.Body.Obstacle) are numbered here with their body, which
// must be one of the simulation's; a side or a carried obstacle made with
// an index (contact.NewSide, Obstacle.Body) is checked against it (rigid
// body k is len(bodies) + k). det may be nil (rigid bodies only,
// opt.Rigid).
func NewSimulation(bodies []*fe.Body, det *contact.Detector, opt SimOptions) (*Simulation, error) {
	opt = opt.withDefaults()
	if det == nil {
		det = &contact.Detector{}
	}
	bs := boundaries(det, opt.Points)
	var touched []fe.Touch
	for _, b := range bs {
		for _, side := range b.sides {
			touched = append(touched, fe.Touch{What: b.what, Side: side})
		}
	}
	elastic, err := fe.NewFamily(opt.H, opt.Theta, bodies, touched)
	if err != nil {
		return nil, err
	}
	points, err := discrete.NewKind(opt.Points, opt.H, opt.Theta)
	if err != nil {
		return nil, err
	}
	kinds := append([]kind.Kind{elastic, rigid.NewKind(opt.Rigid), points}, opt.Kinds...)
	s, err := newSimulation(det, opt, bs, kinds)
	if err != nil {
		return nil, err
	}
	s.Stepper, s.Rigid, s.Points = elastic.Stepper(), opt.Rigid, opt.Points
	elastic.SetDepths(s.NodeDepths)
	return s, nil
}

// ownerName names a body given by its handle, for messages.
func ownerName(h any) string {
	switch b := h.(type) {
	case *fe.Body:
		return fmt.Sprintf("body %q", b.Name)
	case *rigid.Body:
		return fmt.Sprintf("rigid body %q", b.Name)
	}
	return fmt.Sprintf("a body of type %T", h)
}
