package results

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/fe"
)

// bodyLedger gives a body's centroid, linear momentum and angular momentum
// (about the origin, per m of thickness, as the contact forces) from its
// nodal masses (Body.NodalMasses): exact for the mass, the centroid and
// the linear momentum (M is symmetric); the angular momentum sum m_i x_i x
// v_i is that of the row-sum masses.
type bodyLedger struct {
	body  *fe.Body
	mass  []float64 // per node
	total float64   // the body's mass per m of thickness
	u, v  []float64 // full displacement and velocity, reused every row
}

func newBodyLedger(b *fe.Body) (*bodyLedger, error) {
	mass := b.NodalMasses()
	full := make([]float64, 2*len(b.Space.Mesh.Nodes))
	l := &bodyLedger{body: b, mass: mass, u: full, v: make([]float64, len(full))}
	for _, m := range mass {
		l.total += m
	}
	return l, nil
}

// The units of momenta, per m of thickness.
const (
	momentum        = "kg m/s per m"
	angularMomentum = "kg m^2/s per m"
)

// header writes the ledger's CSV column names.
func (l *bodyLedger) header(w io.Writer) {
	n := l.body.Name
	writeColumns(w, n+"_cx", "m", n+"_cy", "m", n+"_px", momentum, n+"_py", momentum, n+"_L", angularMomentum)
}

// row writes the centroid (m), linear momentum (kg m/s) and angular
// momentum (kg m^2/s), per m of thickness.
func (l *bodyLedger) row(w io.Writer) {
	b := l.body
	b.Space.Expand(l.u, b.Q, nil)
	b.Space.Expand(l.v, b.V, nil)
	u, v := l.u, l.v
	var c, p [2]float64
	var L float64
	for i, mi := range l.mass {
		x := b.Space.Mesh.Nodes[i]
		x[0], x[1] = x[0]+u[2*i], x[1]+u[2*i+1]
		vi := [2]float64{v[2*i], v[2*i+1]}
		c[0], c[1] = c[0]+mi*x[0], c[1]+mi*x[1]
		p[0], p[1] = p[0]+mi*vi[0], p[1]+mi*vi[1]
		L += mi * (x[0]*vi[1] - x[1]*vi[0])
	}
	fmt.Fprintf(w, ",%.12g,%.12g,%.12g,%.12g,%.12g", c[0]/l.total, c[1]/l.total, p[0], p[1], L)
}
