package discrete

import (
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
)

// maxColumns is the most point masses that get columns of their own in
// history.csv; all of them are in masses.pvd.
const maxColumns = 50

// Grid is the point masses as a VTK point cloud, with per point its index
// (id), velocity, mass and contact radius: masses.pvd's pieces.
func Grid(sys *System) *vtk.Grid {
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
// its first mass with, N per m (SpringForce): springs.pvd's pieces. Nil
// without springs.
func SpringGrid(sys *System) *vtk.Grid {
	n := len(sys.springs)
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

// Series are masses.pvd (dots of their contact radius) and springs.pvd
// (lines), kind.Drawn.
func (f family) Series() ([]kind.Series, error) {
	if f.sys == nil || len(f.sys.Masses) == 0 {
		return nil, nil
	}
	return []kind.Series{{Name: "masses", Style: kind.Dots, Grid: Grid(f.sys)},
		{Name: "springs", Style: kind.Lines, Grid: SpringGrid(f.sys)}}, nil
}

// Shapes are the springs as lines and the masses as dots.
func (f family) Shapes(dst []kind.Shape) []kind.Shape {
	if f.sys == nil {
		return dst
	}
	for k := range f.sys.springs {
		a, b := f.sys.Ends(k)
		dst = append(dst, kind.Shape{Form: kind.Line, Points: [][2]float64{a, b}})
	}
	for _, m := range f.sys.Masses {
		dst = append(dst, kind.Shape{Form: kind.Dot, Points: [][2]float64{m.X}})
	}
	return dst
}

func (f family) columned() []*Mass {
	if f.sys == nil || len(f.sys.Masses) > maxColumns {
		return nil
	}
	return f.sys.Masses
}

// Columns are each mass's position and velocity, for up to maxColumns
// masses.
func (f family) Columns() []kind.Column {
	var out []kind.Column
	for _, m := range f.columned() {
		n := m.Name
		out = append(out, kind.Column{Name: n + "_x", Unit: "m", Digits: 12}, kind.Column{Name: n + "_y", Unit: "m", Digits: 12},
			kind.Column{Name: n + "_vx", Unit: "m/s", Digits: 12}, kind.Column{Name: n + "_vy", Unit: "m/s", Digits: 12})
	}
	return out
}

func (f family) Row(dst []float64) []float64 {
	for _, m := range f.columned() {
		dst = append(dst, m.X[0], m.X[1], m.V[0], m.V[1])
	}
	return dst
}
