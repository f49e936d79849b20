package rigid

import (
	"math"

	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
)

// diskSides is the number of sides of the polygon that draws a disk.
const diskSides = 32

// Outline returns a body's outline in its current pose: the polygon's
// vertices, or a disk's inscribed diskSides-gon with a notch that turns
// with it, from its centre to the first vertex, where a regular polygon
// turning looks still (so that a rolling disk is seen to roll).
func Outline(b *Body) [][2]float64 {
	if d, ok := b.Shape.(Disk); ok {
		out := make([][2]float64, 0, diskSides+1)
		out = append(out, b.World([2]float64{}))
		for k := range diskSides {
			a := 2 * math.Pi * float64(k) / diskSides
			out = append(out, b.World([2]float64{d.R * math.Cos(a), d.R * math.Sin(a)}))
		}
		return out
	}
	return b.Vertices(nil)
}

// Grid is the bodies as VTK polygons, with per body (cell) its index (id,
// in the system's order), velocity of the centre of mass, angle, angular
// velocity, whether it is driven, its centre, area and radius, and per
// point the velocity of the material point: rigid.pvd's pieces, which a
// granular study reads back (package granular, io/results.SampleOf).
func Grid(sys *System) *vtk.Grid {
	g := &vtk.Grid{Polygons: make([][]int, 0, len(sys.Bodies))}
	n := len(sys.Bodies)
	id, omega, driven, vel, angle := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, 2*n), make([]float64, n)
	centre, area, radius := make([]float64, 2*n), make([]float64, n), make([]float64, n)
	var pv []float64
	for i, b := range sys.Bodies {
		poly := make([]int, 0, diskSides)
		for _, x := range Outline(b) {
			poly = append(poly, len(g.Points))
			g.Points = append(g.Points, x)
			v := b.PointVelocity(x)
			pv = append(pv, v[0], v[1])
		}
		g.Polygons = append(g.Polygons, poly)
		id[i], omega[i], vel[2*i], vel[2*i+1], angle[i] = float64(i), b.V[2], b.V[0], b.V[1], b.Q[2]
		if b.Driven() {
			driven[i] = 1
		}
		centre[2*i], centre[2*i+1], area[i], radius[i] = b.Q[0], b.Q[1], b.Shape.Area(), b.Shape.Radius()
	}
	g.AddPointVector("velocity", pv)
	g.AddCellInteger("id", id)
	g.AddCellVector("velocity", vel)
	g.AddCellScalar("angle", angle) // rad, counter-clockwise from the body's initial pose
	g.AddCellScalar("angular_velocity", omega)
	g.AddCellInteger("driven", driven)
	// The centre of mass, the section's area and the largest distance of
	// its points from the centre (m, m^2, m): the grains of a granular
	// study (package granular).
	g.AddCellVector("centre", centre)
	g.AddCellScalar("area", area)
	g.AddCellScalar("radius", radius)
	return g
}

// maxColumns is the most bodies that get columns of their own in
// history.csv: a granular sample's thousands would make a file nobody
// reads; its bodies are in rigid.pvd.
const maxColumns = 50

// Series is rigid.pvd (kind.Drawn): the bodies as polygons, the driven
// ones marked, which the ParaView script shows but does not frame.
func (f family) Series() ([]kind.Series, error) {
	if f.Len() == 0 {
		return nil, nil
	}
	return []kind.Series{{Name: "rigid", Style: kind.Solid, Grid: Grid(f.sys)}}, nil
}

// Shapes are the bodies' outlines, a driven one still.
func (f family) Shapes(dst []kind.Shape) []kind.Shape {
	for k := range f.Len() {
		b := f.sys.Bodies[k]
		dst = append(dst, kind.Shape{Form: kind.Outline, Points: Outline(b), Still: b.Driven()})
	}
	return dst
}

func (f family) columned() []*Body {
	if f.Len() == 0 || f.Len() > maxColumns {
		return nil
	}
	return f.sys.Bodies
}

// Columns are each body's centre of mass, rotation, linear momentum and
// angular momentum about the origin (per m of thickness), for up to
// maxColumns bodies.
func (f family) Columns() []kind.Column {
	var out []kind.Column
	for _, b := range f.columned() {
		n := b.Name
		out = append(out, kind.Column{Name: n + "_cx", Unit: "m", Digits: 12}, kind.Column{Name: n + "_cy", Unit: "m", Digits: 12},
			kind.Column{Name: n + "_angle", Unit: "rad", Digits: 12}, kind.Column{Name: n + "_px", Unit: "kg m/s per m", Digits: 12},
			kind.Column{Name: n + "_py", Unit: "kg m/s per m", Digits: 12}, kind.Column{Name: n + "_L", Unit: "kg m^2/s per m", Digits: 12})
	}
	return out
}

// Row: a driven body moves whatever the forces, and has no momentum of
// its own.
func (f family) Row(dst []float64) []float64 {
	for _, b := range f.columned() {
		q, v := b.Q, b.V
		var px, py, L float64
		if !b.Driven() {
			px, py = b.Mass*v[0], b.Mass*v[1]
			L = q[0]*py - q[1]*px + b.Inertia*v[2]
		}
		dst = append(dst, q[0], q[1], q[2], px, py, L)
	}
	return dst
}
