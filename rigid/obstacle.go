package rigid

import (
	"fmt"

	"github.com/fecontact/fecontact/contact"
)

// ObstacleBodies returns an obstacle (contact.Obstacle, not carried) as
// driven bodies that rigid bodies can touch, in the obstacle's group (its
// name) and with its motion: a disc is a disk; each segment of a polyline
// is a quadrilateral that extends it into the obstacle's side (its right)
// by the segment's length, so that a body above the polyline meets only
// its surface (a convex kink's side faces lie under the next segment).
// The bodies are named NAME[k], k from 1.
func ObstacleBodies(o *contact.Obstacle) ([]*Body, error) {
	var motion contact.Motion = contact.Fixed{}
	if o.Motion != nil {
		motion = o.Motion
	}
	driven := func(b *Body, k int) *Body {
		b.Name, b.Group, b.Motion = fmt.Sprintf("%s[%d]", o.Name, k), o.Name, motion
		return b
	}
	if o.Radius > 0 {
		b, err := NewBody(o.Name, Disk{R: o.Radius}, o.Center, 0)
		if err != nil {
			return nil, err
		}
		return []*Body{driven(b, 1)}, nil
	}
	var out []*Body
	for k := 0; k+1 < len(o.Points); k++ {
		a, b := o.Points[k], o.Points[k+1]
		r := [2]float64{b[1] - a[1], a[0] - b[0]} // into the obstacle, as long as the segment
		p, c, err := NewPolygon([][2]float64{{a[0] + r[0], a[1] + r[1]}, {b[0] + r[0], b[1] + r[1]}, b, a})
		if err != nil {
			return nil, fmt.Errorf("obstacle %q: segment %d: %w", o.Name, k+1, err)
		}
		body, err := NewBody(o.Name, p, c, 0)
		if err != nil {
			return nil, err
		}
		body.Surface = []int{2} // from b to a: the segment
		out = append(out, driven(body, k+1))
	}
	return out, nil
}
