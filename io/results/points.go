package results

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/discrete"
	"github.com/fecontact/fecontact/io/vtk"
)

// maxMassColumns is the most point masses that get columns of their own in
// history.csv; all of them are in masses.pvd.
const maxMassColumns = 50

// pointLedger gives each point contact's resultant force and each mass's
// position and velocity in history.csv.
type pointLedger struct {
	sys *discrete.System
}

func (l pointLedger) masses() []*discrete.Mass {
	if l.sys == nil || len(l.sys.Masses) > maxMassColumns {
		return nil
	}
	return l.sys.Masses
}

func (l pointLedger) header(w io.Writer) {
	if l.sys != nil {
		for k := 1; k <= len(l.sys.Contacts()); k++ {
			c := fmt.Sprintf("point%d", k)
			writeColumns(w, c+"_fx", "N/m", c+"_fy", "N/m", c+"_closed", "")
		}
	}
	for _, m := range l.masses() {
		n := m.Name
		writeColumns(w, n+"_x", "m", n+"_y", "m", n+"_vx", "m/s", n+"_vy", "m/s")
	}
}

// row writes the point contacts' resultant forces on the masses
// (Simulation.PointForces) and the masses' columns.
func (l pointLedger) row(w io.Writer, force [][2]float64, closed []int) {
	for k := range force {
		fmt.Fprintf(w, ",%.9g,%.9g,%d", force[k][0], force[k][1], closed[k])
	}
	for _, m := range l.masses() {
		fmt.Fprintf(w, ",%.12g,%.12g,%.12g,%.12g", m.X[0], m.X[1], m.V[0], m.V[1])
	}
}

// MassGrid is the point masses as a VTK point cloud, with per point its
// index (id), velocity, mass and contact radius.
func MassGrid(sys *discrete.System) *vtk.Grid {
	g := &vtk.Grid{}
	var id, vel, mass, radius []float64
	for i, m := range sys.Masses {
		g.Points = append(g.Points, m.X)
		id = append(id, float64(i))
		vel = append(vel, m.V[0], m.V[1])
		mass = append(mass, m.M)
		radius = append(radius, m.Radius)
	}
	g.AddPointInteger("id", id)
	g.AddPointVector("velocity", vel)
	g.AddPointScalar("mass", mass)
	g.AddPointScalar("radius", radius)
	return g
}

// SpringGrid is the springs as VTK lines (a mass to a mass or to its
// anchor), with per spring (cell) its index (id) and the force it pulls
// its first mass with, N per m (discrete.System.SpringForce). Nil without
// springs.
func SpringGrid(sys *discrete.System) *vtk.Grid {
	n := len(sys.Springs())
	if n == 0 {
		return nil
	}
	g := &vtk.Grid{}
	var id, force []float64
	for k := range n {
		a, b := sys.Ends(k)
		g.Polylines = append(g.Polylines, []int{len(g.Points), len(g.Points) + 1})
		g.Points = append(g.Points, a, b)
		id = append(id, float64(k))
		f := sys.SpringForce(k)
		force = append(force, f[0], f[1])
	}
	g.AddCellInteger("id", id)
	g.AddCellVector("force", force)
	return g
}
