package results

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/timestep"
)

// WriterState is what a Writer has written and kept up to a step: a
// checkpoint of a run keeps it, so that the run resumed from it
// (ResumeWriter) writes the same files as a run never stopped. Its fields
// are exported for encoding/gob; they mean nothing to a caller.
type WriterState struct {
	History      int64 // bytes of history.csv
	Count        int   // pieces written per series
	Stride       int
	E0           float64
	Energy       []EnergyPoint
	Snaps        []SnapshotState
	Figures      Figures
	First, Last  int // Figures' first and last step with contact
	ProfileSum   [][]float64
	ProfileCount [][]int
	ProfileSteps []int
	Lists        map[string][]vtk.Entry // per .pvd (its name without the extension)
	Granular     *granular.Series       // nil: the run does not measure its grains
}

// SnapshotState is a Snapshot. Pos is the finite-element bodies' nodes'
// positions a checkpoint kept before their meshes were shapes (kind.Mesh)
// like the other kinds', read back into shapes.
type SnapshotState struct {
	T              float64
	Pos, Obstacles [][][2]float64
	Shapes         []kind.Shape
	Arrows         []Arrow
	Chains         []Chain
}

// Checkpoint flushes history.csv, writes the .pvd collections and
// returns the Writer's state after the last step it recorded.
func (o *Writer) Checkpoint() (WriterState, error) {
	n, err := o.hist.flush()
	if err != nil {
		return WriterState{}, fmt.Errorf("results: %w", err)
	}
	if err := o.writeLists(); err != nil {
		return WriterState{}, err
	}
	st := WriterState{History: n, Count: o.count, Stride: o.stride, E0: o.e0,
		Energy: slices.Clone(o.energy), Figures: o.figures, First: o.figures.first, Last: o.figures.last, Lists: map[string][]vtk.Entry{}}
	for _, s := range o.snaps {
		st.Snaps = append(st.Snaps, SnapshotState{T: s.T, Obstacles: s.Obstacles, Shapes: s.Shapes, Arrows: s.Arrows, Chains: s.Chains})
	}
	if p := o.profile; p != nil {
		for _, s := range p.sums {
			st.ProfileSum = append(st.ProfileSum, slices.Clone(s.sum))
			st.ProfileCount = append(st.ProfileCount, slices.Clone(s.count))
			st.ProfileSteps = append(st.ProfileSteps, s.steps)
		}
	}
	for name, c := range o.lists() {
		st.Lists[name] = c.Entries()
	}
	if o.granular != nil {
		g := *o.granular
		g.Rows, g.Hist, g.Rose = slices.Clone(g.Rows), slices.Clone(g.Hist), slices.Clone(g.Rose)
		st.Granular = &g
	}
	return st, nil
}

// listNames are the .pvd collections' names, in the order they are
// written: the kinds', then the Writer's own.
func (o *Writer) listNames() []string {
	var names []string
	for _, s := range o.drawn {
		names = append(names, s.name)
	}
	return append(names, "obstacles", "contacts", "chains")
}

// lists are the Writer's .pvd collections by name.
func (o *Writer) lists() map[string]*vtk.Collection {
	m := map[string]*vtk.Collection{"contacts": &o.contacts, "obstacles": &o.obstacle, "chains": &o.chains}
	for _, s := range o.drawn {
		m[s.name] = s.list
	}
	return m
}

// ResumeWriter opens the files of a run in dir, stopped after the step
// whose state st is, to go on writing them: history.csv cut back to that
// step, each .pvd to the pieces written by then (later pieces, such as
// the fields an interrupted run wrote at its last step, are removed), the
// energy points, pictures' snapshots, figures and profile as they were.
// sim is the run's simulation, loaded from the same checkpoint.
func ResumeWriter(files *outdir.Folder, sim *timestep.Simulation, opt Options, st WriterState) (*Writer, error) {
	w, err := newWriter(files, sim, opt, st.History)
	if err != nil {
		return nil, err
	}
	w.count, w.stride, w.e0 = st.Count, st.Stride, st.E0
	w.energy, w.figures = st.Energy, st.Figures
	w.figures.first, w.figures.last = st.First, st.Last
	for _, s := range st.Snaps {
		shapes, err := w.oldMeshes(s.Pos)
		if err != nil {
			return nil, err
		}
		w.snaps = append(w.snaps, Snapshot{T: s.T, Shapes: append(shapes, s.Shapes...), Obstacles: s.Obstacles, Arrows: s.Arrows, Chains: s.Chains})
	}
	if p := w.profile; p != nil {
		for k := range st.ProfileSteps {
			p.sums = append(p.sums, strips{sum: st.ProfileSum[k], count: st.ProfileCount[k], steps: st.ProfileSteps[k]})
		}
	}
	if w.granular != nil && st.Granular != nil {
		w.granular = st.Granular
	}
	if err := w.restoreLists(st.Lists); err != nil {
		return nil, err
	}
	return w, nil
}

// oldMeshes are the meshes of a snapshot a checkpoint kept as node
// positions (pos, per finite-element body): the kinds' mesh shapes now,
// in order, at those positions.
func (o *Writer) oldMeshes(pos [][][2]float64) ([]kind.Shape, error) {
	if len(pos) == 0 {
		return nil, nil
	}
	var now []kind.Shape
	for _, d := range o.kinds {
		now = d.Shapes(now)
	}
	var out []kind.Shape
	for _, sh := range now {
		if sh.Form == kind.Mesh && len(out) < len(pos) {
			if len(pos[len(out)]) != len(sh.Points) {
				return nil, fmt.Errorf("results: a picture's snapshot of %d nodes for a body of %d", len(pos[len(out)]), len(sh.Points))
			}
			sh.Points = pos[len(out)]
			out = append(out, sh)
		}
	}
	if len(out) != len(pos) {
		return nil, fmt.Errorf("results: a picture's snapshot of %d finite-element bodies for %d", len(pos), len(out))
	}
	return out, nil
}

// restoreLists puts the .pvd collections back, rewrites their files and
// removes every piece they do not list.
func (o *Writer) restoreLists(lists map[string][]vtk.Entry) error {
	listed := map[string]bool{}
	for name, c := range o.lists() {
		es := lists[name]
		c.SetEntries(es)
		if len(es) == 0 {
			if o.files.Listed(name + ".pvd") {
				if err := o.files.Remove(name + ".pvd"); err != nil {
					return err
				}
			}
			continue
		}
		for _, e := range es {
			listed[e.File] = true
		}
		if err := writePVD(o.files, name+".pvd", c); err != nil {
			return err
		}
	}
	for _, f := range o.files.Outputs() {
		if o.isPiece(f) && !listed[f] {
			if err := o.files.Remove(f); err != nil {
				return fmt.Errorf("resuming: %w", err)
			}
		}
	}
	return nil
}

// isPiece tells whether a file name is a series' piece.
func (o *Writer) isPiece(name string) bool {
	pats := slices.Clone(pieceFiles)
	for _, s := range o.drawn {
		pats = append(pats, s.name+"_[0-9][0-9][0-9][0-9][0-9].vtu", s.name+"_*_[0-9][0-9][0-9][0-9][0-9].vtu")
	}
	for _, pat := range pats {
		if ok, _ := filepath.Match(pat, name); ok {
			return true
		}
	}
	return false
}
