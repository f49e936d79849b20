package results

import (
	"io"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// gapLedger gives the distances between the pairs of rigid bodies asked
// for (Options.Gaps).
type gapLedger struct {
	sys  *rigid.System
	gaps [][2]int
}

func (l gapLedger) gapNames() []string {
	var out []string
	for _, g := range l.gaps {
		out = append(out, "gap_"+l.sys.Bodies[g[0]].Name+"_"+l.sys.Bodies[g[1]].Name)
	}
	return out
}

func (l gapLedger) distances() []float64 {
	var out []float64
	for _, g := range l.gaps {
		out = append(out, rigid.Distance(l.sys.Bodies[g[0]], l.sys.Bodies[g[1]]))
	}
	return out
}

func (l gapLedger) header(w io.Writer) {
	for _, n := range l.gapNames() {
		writeColumns(w, n, "m")
	}
}

func (l gapLedger) row(c cells) cells {
	for _, d := range l.distances() {
		c = c.g(d, 9)
	}
	return c
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
