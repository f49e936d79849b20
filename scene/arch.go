package scene

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/rigid"
)

// Arch builds a masonry arch ring: Voussoirs equal voussoirs between the
// angles From and To (degrees, counter-clockwise from +x about Centre;
// default 0 and 180, a semicircle), their intrados on the circle of
// Radius and their extrados Thickness farther out, their joints radial,
// dry or Joint wide (measured on the intrados). A voussoir is the
// quadrilateral of its four corners. Voussoir K is NAME_vK, from 1 at
// From, of group Group (default Name). The springers' faces are radial:
// a semicircle's stand on the horizontal through Centre, where a ground
// or an abutment goes. Pointed, a length e > 0, makes it a pointed
// (Gothic) arch instead: two halves, each an arc of Radius whose centre is
// e from Centre towards the other side (the left half's at Centre + (e,
// 0)), springing from the horizontal through Centre and meeting at the
// crown, x = Centre's, in a vertical joint; the clear span is 2 (Radius -
// e) (e = Radius / 2: the equilateral arch); Voussoirs, even, are half a
// side, numbered from the right springer as a semicircle's.
type Arch struct {
	Name      string    `toml:"name"`
	Group     string    `toml:"group"`
	Centre    []float64 `toml:"centre"`
	Radius    float64   `toml:"radius"`
	Thickness float64   `toml:"thickness"`
	Voussoirs int       `toml:"voussoirs"`
	From      *float64  `toml:"from"` // degrees
	To        *float64  `toml:"to"`   // degrees
	Joint     float64   `toml:"joint"`
	Pointed   float64   `toml:"pointed"` // m: each half's centre off Centre; 0, a circle
	Rho       float64   `toml:"rho"`
	Gravity   []float64 `toml:"gravity"`
}

// maxVoussoirs bounds an arch before anything is allocated.
const maxVoussoirs = 100000

// span is the arch's angles in radians.
func (a *Arch) span() (from, to float64) {
	from, to = 0, math.Pi
	if a.From != nil {
		from = *a.From * math.Pi / 180
	}
	if a.To != nil {
		to = *a.To * math.Pi / 180
	}
	return from, to
}

func (a *Arch) check(i int) error {
	where := fmt.Sprintf("arch %d", i+1)
	if err := fileName(a.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("arch %q", a.Name)
	from, to := a.span()
	switch {
	case len(a.Centre) != 2 || !bounded(a.Centre...):
		return bad(where, "centre", a.Centre, "expected [x, y], the centre of the intrados' circle, in m")
	case !positive(a.Radius) || !bounded(a.Radius):
		return bad(where, "radius", a.Radius, "expected the intrados' positive radius in m")
	case !positive(a.Thickness) || !bounded(a.Thickness):
		return bad(where, "thickness", a.Thickness, "expected the ring's positive depth in m (extrados minus intrados)")
	case a.Voussoirs < 1 || a.Voussoirs > maxVoussoirs:
		return bad(where, "voussoirs", a.Voussoirs, fmt.Sprintf("expected 1 to %d voussoirs", maxVoussoirs))
	case !finite(from, to) || !(to > from) || to-from > 2*math.Pi:
		return bad(where, "from, to", fmt.Sprintf("%g, %g", from*180/math.Pi, to*180/math.Pi), "expected angles in degrees with from < to, at most 360 apart")
	case !(a.Joint >= 0) || !(a.Joint*float64(a.Voussoirs-1) < a.Radius*(to-from)):
		return bad(where, "joint", a.Joint, "expected a gap between voussoirs in m at the intrados, from 0 (dry) to less than a voussoir")
	case !positive(a.Rho):
		return bad(where, "rho", a.Rho, "expected a positive density in kg/m^3")
	case a.Gravity != nil && (len(a.Gravity) != 2 || !bounded(a.Gravity...)):
		return bad(where, "gravity", a.Gravity, "expected [gx, gy] in m/s^2")
	}
	if a.Pointed != 0 {
		return a.checkPointed(where)
	}
	if w := (to - from - a.Joint/a.Radius*float64(a.Voussoirs-1)) / float64(a.Voussoirs); w >= math.Pi {
		return bad(where, "voussoirs", a.Voussoirs, fmt.Sprintf("a voussoir would span %.4g degrees: expected less than 180 (more voussoirs)", w*180/math.Pi))
	}
	return nil
}

// checkPointed checks a pointed arch's keys.
func (a *Arch) checkPointed(where string) error {
	switch {
	case !(a.Pointed > 0) || !(a.Pointed < a.Radius):
		return bad(where, "pointed", a.Pointed, fmt.Sprintf("expected each half's centre's offset in m, from 0 (a circle) to less than the radius %g", a.Radius))
	case a.From != nil || a.To != nil:
		return fmt.Errorf("%s: a pointed arch springs from the horizontal through its centre: leave from and to out", where)
	case a.Voussoirs%2 != 0 || a.Voussoirs < 2:
		return bad(where, "voussoirs", a.Voussoirs, "expected an even number: a pointed arch has a joint at its crown, half its voussoirs each side")
	case !(a.Joint/2+a.Pointed < a.Radius):
		return bad(where, "joint", a.Joint, "expected a gap that leaves the crown on the intrados")
	}
	crown, _ := a.pointedCrown()
	if w, _ := a.pointedAngles(crown); !(w > 0) {
		return bad(where, "joint", a.Joint, "expected a gap between voussoirs in m at the intrados, from 0 (dry) to less than a voussoir")
	}
	return nil
}

// pointedCrown is the angle about the left half's centre of its intrados'
// point at the crown's joint, and the offset of that joint from Centre.
func (a *Arch) pointedCrown() (angle, half float64) {
	half = a.Joint / 2
	return math.Acos(-(a.Pointed + half) / a.Radius), half
}

// pointedAngles is a half's voussoirs' angle and the gap between them (rad).
func (a *Arch) pointedAngles(crown float64) (w, gap float64) {
	m := float64(a.Voussoirs / 2)
	gap = a.Joint / a.Radius
	return (math.Pi - crown - gap*(m-1)) / m, gap
}

// buildPointed lays a pointed arch's voussoirs: the right half from its
// springer to the crown, then the left from the crown to its springer,
// each crown voussoir cut by the vertical joint.
func (a *Arch) buildPointed() [][][2]float64 {
	crown, half := a.pointedCrown()
	w, gap := a.pointedAngles(crown)
	ri, re := a.Radius, a.Radius+a.Thickness
	cx, cy := a.Centre[0], a.Centre[1]
	ye := cy + math.Sqrt(re*re-(a.Pointed+half)*(a.Pointed+half)) // the extrados at the crown's joint
	m := a.Voussoirs / 2
	var out [][][2]float64
	right := func(r, angle float64) [2]float64 { // about the right half's centre, Centre - (e, 0)
		return [2]float64{cx - a.Pointed + r*math.Cos(angle), cy + r*math.Sin(angle)}
	}
	for k := range m {
		a0 := float64(k) * (w + gap)
		a1 := a0 + w
		top := right(re, a1)
		if k == m-1 {
			a1, top = math.Pi-crown, [2]float64{cx + half, ye}
		}
		out = append(out, [][2]float64{right(ri, a0), right(re, a0), top, right(ri, a1)})
	}
	left := func(r, angle float64) [2]float64 {
		return [2]float64{cx + a.Pointed + r*math.Cos(angle), cy + r*math.Sin(angle)}
	}
	for k := range m {
		lo := crown + float64(k)*(w+gap)
		hi := lo + w
		bottom := left(re, lo)
		if k == 0 {
			bottom = [2]float64{cx - half, ye}
		}
		if k == m-1 {
			hi = math.Pi
		}
		out = append(out, [][2]float64{left(ri, lo), bottom, left(re, hi), left(ri, hi)})
	}
	return out
}

// group is the arch's voussoirs' group.
func (a *Arch) group() string {
	if a.Group != "" {
		return a.Group
	}
	return a.Name
}

// build lays the voussoirs.
func (a *Arch) build() ([]*rigid.Body, error) {
	if a.Pointed != 0 {
		return a.voussoirs(a.buildPointed())
	}
	from, to := a.span()
	gap := a.Joint / a.Radius
	w := (to - from - gap*float64(a.Voussoirs-1)) / float64(a.Voussoirs)
	ri, re := a.Radius, a.Radius+a.Thickness
	at := func(r, angle float64) [2]float64 {
		return [2]float64{a.Centre[0] + r*math.Cos(angle), a.Centre[1] + r*math.Sin(angle)}
	}
	quads := make([][][2]float64, 0, a.Voussoirs)
	for k := range a.Voussoirs {
		a0 := from + float64(k)*(w+gap)
		a1 := a0 + w
		// Counter-clockwise: the intrados' and extrados' corners at a0,
		// then the extrados' and intrados' at a1.
		quads = append(quads, [][2]float64{at(ri, a0), at(re, a0), at(re, a1), at(ri, a1)})
	}
	return a.voussoirs(quads)
}

// voussoirs makes the arch's bodies of their corners, counter-clockwise.
func (a *Arch) voussoirs(quads [][][2]float64) ([]*rigid.Body, error) {
	out := make([]*rigid.Body, 0, len(quads))
	for k, q := range quads {
		shape, centre, err := rigid.NewPolygon(q)
		if err != nil {
			return nil, fmt.Errorf("voussoir %d: %w", k+1, err)
		}
		b, err := rigid.NewBody(fmt.Sprintf("%s_v%d", a.Name, k+1), shape, centre, a.Rho)
		if err != nil {
			return nil, err
		}
		b.Group = a.group()
		if a.Gravity != nil {
			b.Gravity = [2]float64{a.Gravity[0], a.Gravity[1]}
		}
		out = append(out, b)
	}
	return out, nil
}
