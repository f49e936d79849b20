package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// runOutput writes a simulation's files: bodies.pvd (one piece per body per
// output step), contacts.pvd (the contact units as points), history.csv
// (one line per step) and, at the end, energy.png and bodies.png.
type runOutput struct {
	dir      string
	bodies   *series
	contacts vtk.Collection
	enc      vtk.Encoding
	hist     *history
	count    int
	pictures []float64
	snaps    []snapshot
	energy   []energyPoint // at most 2 maxPlotPoints, every stride-th step
	stride   int
	e0       float64 // the initial energy balance
}

// maxPlotPoints bounds the points kept for energy.png: when the list
// reaches twice this, every other point is dropped and the stride doubles,
// so memory stays bounded however many steps a run takes.
const maxPlotPoints = 2000

type energyPoint struct {
	t   float64
	e   timestep.Energy
	sim [3]float64 // normal, friction, obstacle work
}

// runFiles are the patterns of the files a run writes (and of the
// temporary files of a write cut short by a kill).
var runFiles = []string{"bodies.pvd", "contacts.pvd", "bodies_*_[0-9][0-9][0-9][0-9][0-9].vtu", "contacts_[0-9][0-9][0-9][0-9][0-9].vtu",
	"history.csv", "history.csv.partial", "energy.png", "bodies.png", "summary.txt", ".*.tmp*"}

// clearRun removes the files of an earlier run from dir, so that none of
// its pieces lies beside the new ones or is taken for theirs, and returns
// how many it removed. Other files are left alone.
func clearRun(dir string) (int, error) {
	n := 0
	for _, pat := range runFiles {
		files, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return n, err
		}
		for _, f := range files {
			if err := os.Remove(f); err != nil {
				return n, fmt.Errorf("clearing the earlier run: %w", err)
			}
			n++
		}
	}
	return n, nil
}

func newOutput(dir string, enc vtk.Encoding, sc *scene.Scene, bodies []*timestep.Body) (*runOutput, error) {
	h, err := newHistory(filepath.Join(dir, "history.csv"), len(sc.Contacts), bodies)
	if err != nil {
		return nil, err
	}
	return &runOutput{dir: dir, enc: enc, hist: h, pictures: sc.Output.Pictures, stride: 1,
		bodies: &series{dir: dir, name: "bodies", enc: enc}}, nil
}

// step records a step (the initial state when st.Step is 0) and writes the
// fields when write is set.
func (o *runOutput) step(sim *timestep.Simulation, st timestep.StepStats, write bool) error {
	s := sim.Stepper
	e := s.TotalEnergy()
	o.hist.addRun(st, s.Time(), e, sim)
	if st.Step == 0 {
		o.e0 = e.Balance()
	}
	if st.Step%o.stride == 0 || write {
		o.energy = append(o.energy, energyPoint{s.Time(), e, [3]float64{sim.NormalWork, sim.FrictionWork, sim.ObstacleWork}})
	}
	if len(o.energy) >= 2*maxPlotPoints {
		kept := o.energy[:0]
		for i, p := range o.energy {
			if i%2 == 0 || i == len(o.energy)-1 {
				kept = append(kept, p)
			}
		}
		o.energy, o.stride = kept, 2*o.stride
	}
	for _, pt := range o.pictures {
		if math.Abs(pt-s.Time()) <= s.H()/2 {
			o.snaps = append(o.snaps, takeSnapshot(sim))
		}
	}
	if !write {
		return nil
	}
	bodies := make([]*timestep.Body, s.NumBodies())
	for i := range bodies {
		bodies[i] = s.Body(i)
	}
	if err := o.bodies.write(s.Time(), bodies); err != nil {
		return err
	}
	file := fmt.Sprintf("contacts_%05d.vtu", o.count)
	if err := vtk.WriteVTU(filepath.Join(o.dir, file), contactGrid(sim), o.enc); err != nil {
		return err
	}
	o.contacts.Add(s.Time(), 0, file)
	o.count++
	return o.contacts.Write(filepath.Join(o.dir, "contacts.pvd"))
}

// contactGrid is the point cloud of the last step's contact units.
func contactGrid(sim *timestep.Simulation) *vtk.Grid {
	cs := sim.Contacts()
	g := &vtk.Grid{Points: make([][2]float64, len(cs))}
	pn, pt, st, gap := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	pair, rev, body, node := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	normal := make([]float64, 2*len(cs))
	for i, c := range cs {
		g.Points[i] = c.X
		pn[i], pt[i], st[i], gap[i] = c.Impulse[0], c.Impulse[1], float64(c.Status), c.Gap
		normal[2*i], normal[2*i+1] = c.N[0], c.N[1]
		p := sim.Detector.Pairs[c.Key.Pair]
		pair[i], node[i], body[i] = float64(c.Key.Pair), float64(c.Key.Node), float64(p.Candidate.Body)
		if c.Key.Reverse {
			rev[i], body[i] = 1, float64(p.Antagonist.Body)
		}
	}
	g.AddPointScalar("impulse_normal", pn)
	g.AddPointScalar("impulse_tangential", pt)
	g.AddPointScalar("status", st) // 0 open, 1 stick, 2 slide+, 3 slide-
	g.AddPointScalar("gap", gap)
	g.AddPointVector("normal", normal)
	g.AddPointScalar("pair", pair)   // index of the pair, in scene order
	g.AddPointScalar("reverse", rev) // 1: an antagonist node against candidate edges
	g.AddPointScalar("body", body)   // the body of the unit's node, in scene order
	g.AddPointScalar("node", node)   // the node's number in its body's mesh
	return g
}

// fail keeps the history as history.csv.partial and returns err: the
// pieces written so far are complete (each was renamed into place), the
// run is not.
func (o *runOutput) fail(err error) error {
	o.hist.abandon()
	return fmt.Errorf("%w (the pieces in %s stop before this step; the history is history.csv.partial)", err, o.dir)
}

func (o *runOutput) close(sim *timestep.Simulation) error {
	if err := o.hist.close(); err != nil {
		return err
	}
	if err := energyPlot(filepath.Join(o.dir, "energy.png"), o.energy); err != nil {
		return fmt.Errorf("energy.png: %w", err)
	}
	if len(o.snaps) > 0 {
		if err := bodiesPlot(filepath.Join(o.dir, "bodies.png"), o.snaps); err != nil {
			return fmt.Errorf("bodies.png: %w", err)
		}
	}
	return nil
}

// balanceError reports the energy ledger's error in joules and, when the
// run has an energy scale (the initial energy or the external work, the
// larger), relative to it: a body that starts at rest unloaded has none.
func balanceError(err, e0, external float64) string {
	scale := math.Max(math.Abs(e0), math.Abs(external))
	if scale == 0 {
		return fmt.Sprintf("balance error %.2g J", err)
	}
	return fmt.Sprintf("balance error %.2g J, %.2g relative to %.6g J (the initial energy or the external work, the larger)", err, math.Abs(err)/scale, scale)
}

// summary accumulates per-step statistics for the final report.
type summary struct {
	contactSteps, units, sweeps, maxSweeps, unconverged int
	minGap, maxResidual                                 float64
	init                                                bool
}

func (s *summary) add(st timestep.StepStats) {
	if !s.init {
		s.minGap, s.init = math.Inf(1), true
	}
	if st.Units > 0 {
		s.contactSteps++
		s.units += st.Units
		s.sweeps += st.Sweeps
		s.maxSweeps = max(s.maxSweeps, st.Sweeps)
		s.maxResidual = math.Max(s.maxResidual, st.Residual)
		if !st.Converged {
			s.unconverged++
		}
	}
	s.minGap = math.Min(s.minGap, st.MinGap)
}

func (s *summary) print(w io.Writer, sim *timestep.Simulation, e0 float64, steps int, elapsed time.Duration, dir string) {
	e := sim.Stepper.TotalEnergy()
	fmt.Fprintf(w, "done: %d steps in %.2f s (%.3g ms per step)\n", steps, elapsed.Seconds(), 1e3*elapsed.Seconds()/float64(steps))
	if s.contactSteps > 0 {
		fmt.Fprintf(w, "contact: %d steps with contact, %.1f units and %.1f sweeps per such step (max %d), largest residual %.2g, %d unconverged\n",
			s.contactSteps, float64(s.units)/float64(s.contactSteps), float64(s.sweeps)/float64(s.contactSteps), s.maxSweeps, s.maxResidual, s.unconverged)
	}
	if !math.IsInf(s.minGap, 1) {
		fmt.Fprintf(w, "smallest gap of a candidate node: %.3g m\n", s.minGap)
	}
	if sim.InitialPenetration > 0 {
		fmt.Fprintf(w, "warning: the bodies start interpenetrated by up to %.3g m; the contact law pushed them apart (push-out work)\n", sim.InitialPenetration)
	}
	fmt.Fprintf(w, "energy: kinetic %.6g J, elastic %.6g J, friction work %.6g J, contact-law work %.6g J, push-out work %.6g J, numerical %.6g J; %s\n",
		e.Kinetic, e.Elastic, sim.FrictionWork, sim.NormalWork, sim.PushOutWork, e.Numerical, balanceError(e.Balance()-e0, e0, e.External))
	fmt.Fprintf(w, "wrote %s: bodies.pvd, contacts.pvd, history.csv, energy.png, summary.txt", dir)
	if _, err := os.Stat(filepath.Join(dir, "bodies.png")); err == nil {
		fmt.Fprint(w, ", bodies.png")
	}
	fmt.Fprintln(w)
}
