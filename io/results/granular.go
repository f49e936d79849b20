package results

import (
	"fmt"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/io/vtk"
)

// SampleOf reads a granular sample from a run's pieces of rigid.pvd and
// contacts.pvd at one time (contacts may be nil: no contact). Only units
// between rigid bodies are contacts of the sample.
func SampleOf(t float64, rigid, contacts *vtk.Piece) (granular.Sample, error) {
	s := granular.Sample{T: t}
	centre, area, radius, driven := rigid.Cell("centre"), rigid.Cell("area"), rigid.Cell("radius"), rigid.Cell("driven")
	if centre == nil || area == nil || radius == nil || driven == nil {
		return s, fmt.Errorf("granular: rigid bodies without centre, area, radius or driven (a run of an older fecontact: run it again)")
	}
	n := len(area.Values)
	s.Grains = make([]granular.Grain, n)
	for i := range s.Grains {
		s.Grains[i] = granular.Grain{X: [2]float64{centre.Values[3*i], centre.Values[3*i+1]}, Area: area.Values[i], Radius: radius.Values[i], Driven: driven.Values[i] != 0}
	}
	if contacts == nil {
		return s, nil
	}
	a, b, f, nrm, mu, per := contacts.Point("rigid_a"), contacts.Point("rigid_b"), contacts.Point("force"), contacts.Point("normal"), contacts.Point("mu"), contacts.Point("periodic")
	if a == nil || b == nil || f == nil || nrm == nil || mu == nil || per == nil {
		return s, fmt.Errorf("granular: contacts without rigid_a, rigid_b, force, normal, mu or periodic (a run of an older fecontact: run it again)")
	}
	for i, x := range contacts.Points {
		ia, ib := int(a.Values[i]), int(b.Values[i])
		if ia < 0 || ib < 0 {
			continue // not between rigid bodies
		}
		if ia >= n || ib >= n {
			return s, fmt.Errorf("granular: contact %d between bodies %d and %d of %d", i, ia, ib, n)
		}
		s.Contacts = append(s.Contacts, granular.Contact{A: ia, B: ib, X: x,
			N: [2]float64{nrm.Values[3*i], nrm.Values[3*i+1]}, F: [2]float64{f.Values[3*i], f.Values[3*i+1]},
			Mu: mu.Values[i], Periodic: per.Values[i] != 0})
	}
	return s, nil
}
