package fe

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/kind"
)

// largeRotation is the mean rotation (rad) past which a linear body's
// small-strain kinematics no longer hold: a rotation phi moves a point at r
// by r sin(phi) along and r (1 - cos(phi)) across, and the linear model
// keeps only the first, so that at 0.1 rad it strains the body by
// phi^2/2 = 0.5 % that is not there.
const largeRotation = 0.1

// MeanRotation returns the rotation (rad, counter-clockwise) that best
// maps the body's nodes from the reference configuration to the current
// one, about their centres of mass and weighted by the nodal masses (the
// least-squares rigid fit): how far the body has turned as a whole.
func (b *Body) MeanRotation() float64 {
	full := b.Displacement()
	var m, cx, cy, ux, uy float64
	for n, x := range b.Space.Mesh.Nodes {
		u := full[2*n : 2*n+2]
		w := b.masses[n]
		m += w
		cx, cy = cx+w*x[0], cy+w*x[1]
		ux, uy = ux+w*u[0], uy+w*u[1]
	}
	if !(m > 0) {
		return 0
	}
	cx, cy, ux, uy = cx/m, cy/m, ux/m, uy/m
	var dot, cross float64
	for n, x := range b.Space.Mesh.Nodes {
		u := full[2*n : 2*n+2]
		w := b.masses[n]
		rx, ry := x[0]-cx, x[1]-cy
		px, py := rx+u[0]-ux, ry+u[1]-uy
		dot += w * (rx*px + ry*py)
		cross += w * (rx*py - ry*px)
	}
	return math.Atan2(cross, dot)
}

// Warnings warn of each linear body whose mean rotation
// (Body.MeanRotation) has passed 0.1 rad since the simulation started: its
// small-strain model then gives wrong answers without an error (a linear
// disc rolling down an incline rises off it and rolls back). Its key is
// the body's name. It costs one pass over the linear bodies' nodes.
func (f *Family) Warnings(t float64) []kind.Warning {
	var out []kind.Warning
	for i := range f.st.NumBodies() {
		b := f.st.Body(i)
		if b.Law != 0 {
			continue
		}
		if phi := b.MeanRotation(); math.Abs(phi) > largeRotation {
			out = append(out, kind.Warning{Key: b.Name, Text: fmt.Sprintf("body %q has turned by %.3g rad at t = %.6g s: its linear (small-strain) model is wrong past about %g rad (it strains a turned body that is not strained); give it model = \"neohookean\" (or \"stvenant\") for large rotations", b.Name, phi, t, largeRotation)})
		}
	}
	return out
}
