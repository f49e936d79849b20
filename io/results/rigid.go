package results

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// diskSides is the number of sides of the polygon that draws a disk.
const diskSides = 32

// Outline returns a rigid body's outline in its current pose: the
// polygon's vertices, or a disk's inscribed diskSides-gon with a notch
// that turns with it, from its centre to the first vertex, where a
// regular polygon turning looks still (so that a rolling disk is seen to
// roll).
func Outline(b *rigid.Body) [][2]float64 {
	if d, ok := b.Shape.(rigid.Disk); ok {
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

// RigidGrid is the rigid bodies as VTK polygons, with per body (cell) its
// index (id, in the system's order), velocity of the centre of mass,
// angular velocity, whether it is driven, its centre, area and radius, and
// per point the velocity of the material point.
func RigidGrid(sys *rigid.System) *vtk.Grid {
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

// maxRigidColumns is the most rigid bodies that get columns of their own
// in history.csv: a granular sample's thousands would make a file nobody
// reads; its bodies are in rigid.pvd.
const maxRigidColumns = 50

// rigidLedger gives the free rigid bodies' centre of mass, linear momentum
// and angular momentum about the origin, and the gaps asked for.
type rigidLedger struct {
	sys  *rigid.System
	gaps [][2]int
}

func (l rigidLedger) gapNames() []string {
	var out []string
	for _, g := range l.gaps {
		out = append(out, "gap_"+l.sys.Bodies[g[0]].Name+"_"+l.sys.Bodies[g[1]].Name)
	}
	return out
}

func (l rigidLedger) distances() []float64 {
	var out []float64
	for _, g := range l.gaps {
		out = append(out, rigid.Distance(l.sys.Bodies[g[0]], l.sys.Bodies[g[1]]))
	}
	return out
}

func (l rigidLedger) bodies() []*rigid.Body {
	if l.sys == nil || len(l.sys.Bodies) > maxRigidColumns {
		return nil
	}
	return l.sys.Bodies
}

func (l rigidLedger) header(w io.Writer) {
	for _, b := range l.bodies() {
		n := b.Name
		writeColumns(w, n+"_cx", "m", n+"_cy", "m", n+"_angle", "rad", n+"_px", momentum, n+"_py", momentum, n+"_L", angularMomentum)
	}
	for _, n := range l.gapNames() {
		writeColumns(w, n, "m")
	}
}

func (l rigidLedger) row(w io.Writer) {
	for _, b := range l.bodies() {
		q, v := b.Q, b.V
		var px, py, L float64
		if !b.Driven() { // a driven body moves whatever the forces: no momentum of its own
			px, py = b.Mass*v[0], b.Mass*v[1]
			L = q[0]*py - q[1]*px + b.Inertia*v[2]
		}
		fmt.Fprintf(w, ",%.12g,%.12g,%.12g,%.12g,%.12g,%.12g", q[0], q[1], q[2], px, py, L)
	}
	for _, d := range l.distances() {
		fmt.Fprintf(w, ",%.9g", d)
	}
}

// obstacles lists the obstacles of the simulation's pairs and point
// contacts that are drawn apart (not carried by a rigid body, which
// rigid.pvd draws), each once.
func obstacles(sim *timestep.Simulation) []*contact.Obstacle {
	var all, out []*contact.Obstacle
	for _, p := range sim.Detector.Pairs {
		all = append(all, p.Obstacle)
	}
	if sim.Points != nil {
		for _, c := range sim.Points.Contacts() {
			all = append(all, c.Obstacle)
		}
	}
	for _, o := range all {
		if o != nil && !o.Carried && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// ObstacleGrid is the obstacles of the simulation's pairs at time t, as
// VTK poly-lines (a disc as a closed 64-gon), with per obstacle (cell) its
// index (id, in the order of the pairs that name them) and per point the
// velocity of its motion: what the bodies bounce off, placed where it has
// moved. Nil when there is none.
func ObstacleGrid(sim *timestep.Simulation, t float64) *vtk.Grid {
	obs := obstacles(sim)
	if len(obs) == 0 {
		return nil
	}
	g := &vtk.Grid{Polylines: make([][]int, 0, len(obs))}
	var id, vel []float64
	for k, o := range obs {
		var v [2]float64
		if o.Motion != nil {
			v = o.Motion.Velocity(t)
		}
		var line []int
		for _, x := range o.Outline(t) {
			line = append(line, len(g.Points))
			g.Points = append(g.Points, x)
			vel = append(vel, v[0], v[1])
		}
		g.Polylines = append(g.Polylines, line)
		id = append(id, float64(k))
	}
	g.AddPointVector("velocity", vel)
	g.AddCellInteger("id", id)
	return g
}

// ChainGrid is the force chains of the last step: a line per
// force-carrying unit between rigid bodies, from the centre of one to the
// centre of the other (to the contact point on a driven body or across a
// periodic boundary), with the unit's force on the first body (force, N/m)
// and its normal and tangential parts (force_normal >= 0,
// force_tangential): ParaView's Tube filter, its radius by force_normal,
// draws the chains. Their forces are those contacts.pvd writes for the
// same units.
func ChainGrid(sim *timestep.Simulation) *vtk.Grid {
	g := &vtk.Grid{Polylines: [][]int{}}
	var fn, ft, f []float64
	for _, c := range sim.Contacts() {
		if c.Key.Pair != -1 || c.Impulse[0] <= 0 {
			continue // not between rigid bodies, or open
		}
		force := sim.Force(c)
		ch := chain(sim.Rigid.Bodies[c.Key.A], sim.Rigid.Bodies[c.Key.B], c.X, c.Key.Reverse)
		g.Polylines = append(g.Polylines, []int{len(g.Points), len(g.Points) + 1})
		g.Points = append(g.Points, ch.A, ch.B)
		fn = append(fn, force[0]*c.N[0]+force[1]*c.N[1])
		ft = append(ft, force[0]*c.T[0]+force[1]*c.T[1])
		f = append(f, force[0], force[1])
	}
	g.AddCellScalar("force_normal", fn)
	g.AddCellScalar("force_tangential", ft)
	g.AddCellVector("force", f)
	return g
}
