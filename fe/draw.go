package fe

import (
	"fmt"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/mesh"
)

// What a run's outputs show of finite-element bodies (kind.Drawn):
// bodies.pvd, a piece per body per output (its mesh with displacement,
// velocity, stresses and depth, warped in ParaView), each body's cells'
// sides in bodies.png, and each body's centroid and momenta in
// history.csv.

// Grid turns the body's state into a VTK grid: the reference mesh with
// displacement and velocity vectors and, for a body of a material,
// recovered stresses (Cauchy stresses for a hyperelastic body).
func (b *Body) Grid() (*vtk.Grid, error) {
	g := vtk.FromMesh(b.Space.Mesh)
	u := b.Displacement()
	g.AddPointVector("displacement", u)
	g.AddPointVector("velocity", b.Velocity())
	if b.Material == (element.Elastic{}) {
		return g, nil
	}
	stresses := b.Space.Stresses
	if b.Law != 0 { // large strain: the true stress of the deformed body
		stresses = func(u []float64, m element.Elastic) (*assemble.Stresses, error) {
			return b.Space.CauchyStresses(u, b.Hyperelastic())
		}
	}
	st, err := stresses(u, b.Material)
	if err != nil {
		return nil, fmt.Errorf("body %s: %w", b.Name, err)
	}
	nn, nc := len(st.Node), len(st.Cell)
	xx, yy, xy, vm := make([]float64, nn), make([]float64, nn), make([]float64, nn), make([]float64, nn)
	for i, s := range st.Node {
		xx[i], yy[i], xy[i], vm[i] = s.XX, s.YY, s.XY, s.VonMises()
	}
	g.AddPointScalar("stress_xx", xx)
	g.AddPointScalar("stress_yy", yy)
	g.AddPointScalar("stress_xy", xy)
	g.AddPointScalar("von_mises", vm)
	cvm := make([]float64, nc)
	for i, s := range st.Cell {
		cvm[i] = s.VonMises()
	}
	g.AddCellScalar("von_mises_cell", cvm)
	return g, nil
}

// SetDepths gives the family the measure of its nodes' depths inside
// other bodies and obstacles, per body by its global index (a
// simulation's, which holds the contact pairs:
// timestep.Simulation.NodeDepths), which bodies.pvd shows as the "depth"
// point array; without it the array is left out.
func (f *Family) SetDepths(depths func(dst [][]float64) [][]float64) { f.depths = depths }

// Series is bodies.pvd, a part per body (none without bodies): warped by
// the displacement and coloured by the von Mises stress in ParaView.
func (f *Family) Series() ([]kind.Series, error) {
	if f.Len() == 0 {
		return nil, nil
	}
	if f.depths != nil {
		f.depth = f.depths(f.depth)
	}
	s := kind.Series{Name: "bodies", Style: kind.Warped}
	for k := range f.Len() {
		b := f.st.Body(k)
		g, err := b.Grid()
		if err != nil {
			return nil, err
		}
		if f.depths != nil {
			g.AddPointScalar("depth", f.depth[f.base+k])
		}
		s.Parts = append(s.Parts, kind.Part{Name: b.Name, Grid: g})
	}
	return []kind.Series{s}, nil
}

// Shapes are each body's cells' sides at its deformed nodes (a mesh of
// more than 2 000 cells: its boundary's only).
func (f *Family) Shapes(dst []kind.Shape) []kind.Shape {
	if len(f.sides) != f.Len() {
		f.sides = make([][][]int, f.Len())
		for k := range f.sides {
			f.sides[k] = sides(f.st.Body(k).Space.Mesh)
		}
	}
	for k := range f.Len() {
		b := f.st.Body(k)
		u := b.Displacement()
		nodes := b.Space.Mesh.Nodes
		p := make([][2]float64, len(nodes))
		for n, x := range nodes {
			p[n] = [2]float64{x[0] + u[2*n], x[1] + u[2*n+1]}
		}
		dst = append(dst, kind.Shape{Form: kind.Mesh, Points: p, Sides: f.sides[k]})
	}
	return dst
}

// sides are a mesh's cells' sides, each once, as lines through its nodes
// (a quadratic side through its middle node); of a mesh of more than
// 2 000 cells, its boundary's only, which is what a picture can show.
func sides(m *mesh.Mesh) [][]int {
	var out [][]int
	seen := map[[2]int]bool{}
	add := func(e mesh.Edge) {
		k := [2]int{min(e.Nodes[0], e.Nodes[1]), max(e.Nodes[0], e.Nodes[1])}
		if seen[k] {
			return
		}
		seen[k] = true
		if len(e.Nodes) == 3 {
			out = append(out, []int{e.Nodes[0], e.Nodes[2], e.Nodes[1]})
		} else {
			out = append(out, e.Nodes)
		}
	}
	if len(m.Cells) > 2000 {
		for _, e := range m.BoundaryEdges() {
			add(e)
		}
		return out
	}
	for _, cell := range m.Cells {
		for s := range cell.Kind.NumCorners() {
			loc := cell.Kind.SideNodes(s)
			nodes := make([]int, len(loc))
			for i, l := range loc {
				nodes[i] = cell.Nodes[l]
			}
			add(mesh.Edge{Nodes: nodes})
		}
	}
	return out
}

// The units of momenta, per m of thickness.
const (
	momentumUnit        = "kg m/s per m"
	angularMomentumUnit = "kg m^2/s per m"
)

// Columns are each body's centroid, linear momentum and angular momentum
// about the origin, per m of thickness, from its nodal masses
// (Body.NodalMasses): exact for the mass, the centroid and the linear
// momentum (M is symmetric); the angular momentum sum m_i x_i x v_i is
// that of the row-sum masses.
func (f *Family) Columns() []kind.Column {
	var out []kind.Column
	for k := range f.Len() {
		n := f.st.Body(k).Name
		out = append(out, kind.Column{Name: n + "_cx", Unit: "m", Digits: 12}, kind.Column{Name: n + "_cy", Unit: "m", Digits: 12},
			kind.Column{Name: n + "_px", Unit: momentumUnit, Digits: 12}, kind.Column{Name: n + "_py", Unit: momentumUnit, Digits: 12},
			kind.Column{Name: n + "_L", Unit: angularMomentumUnit, Digits: 12})
	}
	return out
}

// Row appends each body's centroid (m), linear momentum (kg m/s) and
// angular momentum (kg m^2/s), per m of thickness.
func (f *Family) Row(dst []float64) []float64 {
	for k := range f.Len() {
		b := f.st.Body(k)
		if f.masses == nil {
			f.masses = make([][]float64, f.Len())
		}
		if f.masses[k] == nil {
			f.masses[k] = b.NodalMasses()
		}
		mass := f.masses[k]
		full := 2 * len(b.Space.Mesh.Nodes)
		f.u, f.v = resize(f.u, full), resize(f.v, full)
		b.displacementTo(f.u)
		b.velocityTo(f.v)
		var c, p [2]float64
		var L, total float64
		for i, mi := range mass {
			x := b.Space.Mesh.Nodes[i]
			x[0], x[1] = x[0]+f.u[2*i], x[1]+f.u[2*i+1]
			vi := [2]float64{f.v[2*i], f.v[2*i+1]}
			c[0], c[1] = c[0]+mi*x[0], c[1]+mi*x[1]
			p[0], p[1] = p[0]+mi*vi[0], p[1]+mi*vi[1]
			L += mi * (x[0]*vi[1] - x[1]*vi[0])
			total += mi
		}
		dst = append(dst, c[0]/total, c[1]/total, p[0], p[1], L)
	}
	return dst
}

// resize is x with length n, its storage reused when it has room.
func resize(x []float64, n int) []float64 {
	if cap(x) >= n {
		return x[:n]
	}
	return make([]float64, n)
}
