package results

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
)

// Writer writes a simulation's files: each kind's series (kind.Drawn:
// bodies.pvd, a piece per finite-element body per output step, rigid.pvd,
// masses.pvd, springs.pvd, any other kind's), contacts.pvd (the contact units as points), history.csv (one line per
// step) and, at the end, energy.png and bodies.png.
type Writer struct {
	sim      *timestep.Simulation
	files    *outdir.Folder
	contacts vtk.Collection
	kinds    []kind.Drawn
	drawn    []drawnSeries // the kinds' series, in the order they are written
	obstacle vtk.Collection
	enc      vtk.Encoding
	hist     *history
	count    int
	pictures []float64
	snaps    []Snapshot
	energy   []EnergyPoint // at most 2 maxPlotPoints, every stride-th step
	stride   int
	e0       float64 // the initial energy balance
	profile  *profile
	figures  Figures
	painter  Painter
	frame    []float64 // Options.Frame
	granular *granular.Series
	chains   vtk.Collection
	listedAt time.Time // when the .pvd collections were last written (writeLists)
	warnings []string  // the pictures Close could not draw
	pieces   pieces    // the last output step's pieces, written beside the steps
}

// listEvery is how often the .pvd collections are written while a run
// goes: each write is a file of all the pieces so far (a run's cost grew
// with the square of its outputs, and the files' creation cost more than
// the steps of a small run). ParaView opened on a running run sees it
// this late at most; Close, Abandon and Checkpoint write them at once.
const listEvery = 2 * time.Second

// maxPlotPoints bounds the points kept for energy.png: when the list
// reaches twice this, every other point is dropped and the stride doubles,
// so memory stays bounded however many steps a run takes.
const maxPlotPoints = 2000

// EnergyPoint is the energies and works at one time: what energy.png and
// gaps.png draw.
type EnergyPoint struct {
	T     float64
	E     timestep.Energy
	Works Works
	Gaps  []float64 // Options.Gaps' distances (m)
}

// Works are the parts of the contact impulses' work since the start (J;
// E.Contact is their sum): of the contact law (<= 0), of friction (<= 0),
// of moving obstacles on the bodies, and of pushing penetrations out.
type Works struct {
	Law, Friction, Obstacle, PushOut float64
}

// Painter draws a run's pictures from what the Writer kept; package
// io/plots has fecontact's (plots.Painter), so that writing results does
// not need a plotting library. A nil Painter draws none.
type Painter interface {
	Energy(path string, pts []EnergyPoint) error
	Gaps(path string, names []string, pts []EnergyPoint) error
	// Bodies draws snaps in frame ([xmin, xmax, ymin, ymax]; nil: the
	// bodies that move).
	Bodies(path string, snaps []Snapshot, frame []float64) error
	// Forces draws the density of f_n / <f_n> in bins of width;
	// Fabric the rose of the contact normals' directions (the shares of
	// len(shares) bins over 2 pi).
	Forces(path string, width float64, density []float64) error
	Fabric(path string, shares []float64) error
	Profile(path string, p ProfileCurves) error
}

// drawnSeries is a kind's series (kind.Series) as the Writer keeps it.
type drawnSeries struct {
	name  string
	style kind.Style
	list  *vtk.Collection
}

// pieceFiles are the patterns of the Writer's own series' pieces, which a
// resumed run removes where its checkpoint does not list them (the
// kinds' series add theirs, NAME_?????.vtu and NAME_PART_?????.vtu).
var pieceFiles = []string{"obstacles_[0-9][0-9][0-9][0-9][0-9].vtu", "contacts_[0-9][0-9][0-9][0-9][0-9].vtu",
	"chains_[0-9][0-9][0-9][0-9][0-9].vtu"}

// Options of a Writer.
type Options struct {
	Encoding vtk.Encoding
	Pictures []float64 // times of bodies.png's snapshots (none: no picture)
	Frame    []float64 // the region bodies.png shows, [xmin, xmax, ymin, ymax] (nil: the bodies that move)
	// Painter draws energy.png, bodies.png, gaps.png and profile.png
	// (plots.Painter); nil: no picture.
	Painter Painter
	// Gaps are pairs of rigid bodies (indices in the simulation's
	// rigid.System) whose distance (rigid.Distance) history.csv gives every
	// step and gaps.png draws.
	Gaps [][2]int
	// Profile, if set, writes the rigid bodies' velocity profile
	// (profile.csv, profile.png).
	Profile *Profile
	// Granular, if set, measures the rigid grains at every output time
	// (granular.csv, the summary's means, forces.png, fabric.png) and
	// writes their force chains (chains.pvd).
	Granular *granular.Options
}

// NewWriter starts the files of a run of sim in the folder (outdir.Create
// made it, for a run): history.csv.partial at once, the rest as Record
// asks, each listed in the folder before it is written.
func NewWriter(files *outdir.Folder, sim *timestep.Simulation, opt Options) (*Writer, error) {
	return newWriter(files, sim, opt, -1)
}

// newWriter is NewWriter with the history resumed at its first at bytes
// (at >= 0: ResumeWriter).
func newWriter(files *outdir.Folder, sim *timestep.Simulation, opt Options, at int64) (*Writer, error) {
	for _, g := range opt.Gaps {
		if sim.Rigid == nil || min(g[0], g[1]) < 0 || max(g[0], g[1]) >= len(sim.Rigid.Bodies) {
			return nil, fmt.Errorf("results: gap between rigid bodies %d and %d: the simulation has no such rigid bodies", g[0], g[1])
		}
	}
	if p := opt.Profile; p != nil && (p.Strips < 1 || !(p.Top > p.Bottom)) {
		return nil, fmt.Errorf("results: profile of %d strips from %g to %g m: expected strips >= 1 and top > bottom", p.Strips, p.Bottom, p.Top)
	}
	kinds := sim.Drawn()
	h, err := newHistory(files, len(sim.Detector.Pairs), iterates(sim), kinds, gapLedger{sim.Rigid, opt.Gaps}, pointLedger{sim.Points}, at)
	if err != nil {
		return nil, err
	}
	drawn, err := seriesOf(kinds)
	if err != nil {
		return nil, err
	}
	w := &Writer{sim: sim, files: files, enc: opt.Encoding, hist: h, pictures: opt.Pictures, stride: 1, kinds: kinds, drawn: drawn,
		figures: newFigures(len(sim.Detector.Pairs) + pointContacts(sim)), painter: opt.Painter, frame: slices.Clone(opt.Frame)}
	if p := opt.Profile; p != nil {
		w.profile = &profile{Profile: *p}
	}
	if g := opt.Granular; g != nil {
		w.granular = granular.NewSeries(*g)
	}
	return w, nil
}

// InitialBalance is the energy balance of the state Record saw at step 0.
func (o *Writer) InitialBalance() float64 { return o.e0 }

// Figures are the run's figures for a parameter study, up to the last
// step recorded.
func (o *Writer) Figures() Figures {
	f := o.figures
	f.SurfaceAngle = math.NaN()
	if o.granular != nil {
		f.SurfaceAngle, _ = o.granular.SurfaceMean()
	}
	return f
}

// Record records a step (the initial state when st.Step is 0: call it
// before the first step) and writes the fields when write is set.
func (o *Writer) Record(st timestep.StepStats, write bool) error {
	if st.Step == 0 { // the first frame shows the contacts found at the start
		if err := o.sim.StartContacts(); err != nil {
			return err
		}
	}
	if err := o.note(st, write); err != nil {
		return err
	}
	if !write {
		return nil
	}
	return o.WriteFields()
}

// note records a step in history.csv and the figures, keeps its energy
// point when it falls on the stride or keep is set, and its snapshot at a
// picture's time.
func (o *Writer) note(st timestep.StepStats, keep bool) error {
	sim := o.sim
	e := sim.TotalEnergy()
	force, closed := sim.PairForces()
	if st.Step == 0 {
		o.e0 = e.Balance()
	}
	if err := o.hist.addRun(st, sim.Time(), e, o.e0, sim, force, closed); err != nil {
		return err
	}
	pf, _ := sim.PointForces()
	o.figures.add(st, sim.H(), e, sim, append(slices.Clip(force), pf...))
	o.profile.record(sim.Rigid, sim.Time())
	if st.Step%o.stride == 0 || keep {
		o.KeepPoint()
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
		if o.painter != nil && math.Abs(pt-sim.Time()) <= sim.H()/2 {
			o.snaps = append(o.snaps, takeSnapshot(sim))
		}
	}
	return nil
}

// KeepPoint keeps the energy point of the state now for energy.png, once:
// a run that writes the fields of its last step off the output stride
// keeps its last point too.
func (o *Writer) KeepPoint() {
	sim := o.sim
	t := sim.Time()
	if n := len(o.energy); n > 0 && o.energy[n-1].T == t {
		return
	}
	o.energy = append(o.energy, EnergyPoint{t, sim.TotalEnergy(), Works{sim.NormalWork, sim.FrictionWork, sim.ObstacleWork, sim.PushOutWork}, o.hist.gaps.distances()})
}

// WriteFields writes the fields of the state now: a piece of every
// series (bodies, contacts, rigid bodies, masses, obstacles), each .pvd
// rewritten to list it.
func (o *Writer) WriteFields() error {
	if err := o.pieces.wait(); err != nil {
		return err
	}
	sim := o.sim
	grains, err := o.writeKinds(sim.Time())
	if err != nil {
		return err
	}
	if g := ObstacleGrid(sim, sim.Time()); g != nil {
		if err := o.writeSeries("obstacles", &o.obstacle, sim.Time(), g); err != nil {
			return err
		}
	}
	contactGrid := ContactGrid(sim)
	if err := o.writeSeries("contacts", &o.contacts, sim.Time(), contactGrid); err != nil {
		return err
	}
	if err := o.writeGranular(sim.Time(), grains, contactGrid); err != nil {
		return err
	}
	o.pieces.start()
	o.count++
	if time.Since(o.listedAt) < listEvery {
		return nil
	}
	return o.writeLists()
}

// writeLists writes every .pvd collection that lists a piece, once the
// pieces they list are written.
func (o *Writer) writeLists() error {
	if err := o.pieces.wait(); err != nil {
		return err
	}
	o.listedAt = time.Now()
	for _, name := range o.listNames() {
		if c := o.lists()[name]; len(c.Entries()) > 0 {
			if err := writePVD(o.files, name+".pvd", c); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeGranular measures the grains of the output step from the pieces
// just written (so that `fecontact granular` on the folder finds the same
// to the bit) and writes the force chains (chains.pvd), when the run
// measures them.
func (o *Writer) writeGranular(t float64, rigid, contacts *vtk.Grid) error {
	if o.granular == nil || rigid == nil {
		return nil
	}
	s, err := SampleOf(t, rigid.Piece(), contacts.Piece())
	if err != nil {
		return err
	}
	o.granular.Add(s)
	return o.writeSeries("chains", &o.chains, t, ChainGrid(o.sim))
}

// writeSeries writes a series' piece of the output step (NAME_COUNT.vtu)
// and rewrites its NAME.pvd to list it.
func (o *Writer) writeSeries(name string, list *vtk.Collection, t float64, g *vtk.Grid) error {
	file := fmt.Sprintf("%s_%05d.vtu", name, o.count)
	if err := o.writeVTU(file, g); err != nil {
		return err
	}
	list.Add(t, 0, file)
	return nil
}

// writeVTU lists a piece in the folder and queues it (pieces).
func (o *Writer) writeVTU(name string, g *vtk.Grid) error {
	path, err := o.files.Path(name)
	if err != nil {
		return err
	}
	o.pieces.add(path, g, o.enc)
	return nil
}

// writePVD lists a collection's file in the folder and writes it.
func writePVD(files *outdir.Folder, name string, list *vtk.Collection) error {
	path, err := files.Path(name)
	if err != nil {
		return err
	}
	return list.Write(path)
}

// ContactGrid is the point cloud of the last step's contact units. Body
// numbers count the elastic bodies first, then the rigid ones; a contact
// between rigid bodies has pair -1, its candidate body in body and its
// candidate's feature in node (a polygon's vertex or clipped end, 0 for a
// disk).
func ContactGrid(sim *timestep.Simulation) *vtk.Grid {
	cs := sim.Contacts()
	g := &vtk.Grid{Points: make([][2]float64, len(cs))}
	pn, pt, st, gap := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	pair, rev, body, node := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	normal, force, weight := make([]float64, 2*len(cs)), make([]float64, 2*len(cs)), make([]float64, len(cs))
	vn, vt, mu := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	ra, rb, image, bonded := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	for i, c := range cs {
		if c.Bonded {
			bonded[i] = 1
		}
		g.Points[i] = c.X
		pn[i], pt[i], st[i], gap[i] = c.Impulse[0], c.Impulse[1], float64(c.Status), c.Gap
		normal[2*i], normal[2*i+1] = c.N[0], c.N[1]
		pair[i], node[i] = float64(c.Key.Pair), float64(c.Key.Node)
		weight[i] = c.Weight
		vn[i], vt[i], mu[i] = c.Velocity[0], c.Velocity[1], c.Mu
		ra[i], rb[i] = -1, -1
		if c.Key.Pair == -1 { // a unit between rigid bodies: its force acts on A
			ra[i], rb[i] = float64(c.Key.A), float64(c.Key.B)
			if c.Key.Reverse { // rigid units' Reverse: across a periodic boundary
				image[i] = 1
			}
		}
		f := sim.Force(c)
		force[2*i], force[2*i+1] = f[0], f[1]
		body[i] = float64(c.Body)
		if c.Reverse {
			rev[i] = 1
		}
	}
	g.AddPointScalar("impulse_normal", pn)
	g.AddPointScalar("impulse_tangential", pt)
	g.AddPointInteger("status", st) // 0 open, 1 stick, 2 slide+, 3 slide-
	g.AddPointScalar("gap", gap)
	g.AddPointVector("normal", normal)
	g.AddPointInteger("pair", pair)   // index of the pair, in scene order
	g.AddPointInteger("reverse", rev) // 1: an antagonist node against candidate edges
	g.AddPointInteger("body", body)   // the body of the unit's node, in scene order
	g.AddPointInteger("node", node)   // the node's number in its body's mesh
	// The unit's force on the body of its node (body; N per m of
	// thickness: the impulse density times the unit's weight, over h):
	// glyph it. A pair's
	// resultant on its candidate body, history's contactK_fx and _fy, is
	// the sum over its units, reverse ones (reverse = 1) with their sign
	// changed.
	g.AddPointVector("force", force)
	g.AddPointScalar("weight", weight) // sum of the unit's P_ij, m^2 (1 for rigid bodies' units)
	// The velocities the law holds on (U_N + s, U_T; m/s, weighted as the
	// impulses) and mu: impulse x velocity summed is the step's
	// complementarity gap in history.csv (J).
	g.AddPointScalar("law_velocity_normal", vn)
	g.AddPointScalar("velocity_tangential", vt)
	g.AddPointScalar("mu", mu)
	// The two rigid bodies of a unit between rigid bodies (their id in
	// rigid.pvd; the force acts on the first, the normal points to it),
	// -1 for other units.
	g.AddPointInteger("rigid_a", ra)
	g.AddPointInteger("rigid_b", rb)
	g.AddPointInteger("periodic", image) // 1: B is met across a periodic boundary
	g.AddPointInteger("bonded", bonded)  // 1: a cohesion's bond held through the step
	if rolls(sim) {
		roll := make([]float64, len(cs))
		for i, c := range cs {
			roll[i] = c.Rolling
		}
		// The moment impulse of the unit's rolling resistance on the
		// body of rigid_a (N m s per m), in every frame of a run whose
		// rules have one.
		g.AddPointScalar("rolling_impulse", roll)
	}
	return g
}

// rolls reports whether a rule of the simulation's rigid bodies resists
// rolling: its contacts' pieces then have rolling_impulse.
func rolls(sim *timestep.Simulation) bool {
	return sim.Rigid != nil && slices.ContainsFunc(sim.Rigid.Rules(), func(r rigid.Rule) bool { return r.Rolling > 0 })
}

// Abandon keeps the history as history.csv.partial and returns err: the
// pieces written so far are complete (each was renamed into place), the
// run is not.
func (o *Writer) Abandon(err error) error {
	o.hist.abandon()
	if lerr := o.writeLists(); lerr != nil && !errors.Is(err, lerr) {
		err = fmt.Errorf("%w (and writing the .pvd collections: %v)", err, lerr)
	}
	return fmt.Errorf("%w (the pieces in %s stop before this step; the history is history.csv.partial)", err, o.files.Dir())
}

// Close completes the run's files: history.csv under its final name, the
// ParaView script (ParaViewScript), the pictures.
func (o *Writer) Close() error {
	if err := o.pieces.wait(); err != nil {
		return o.Abandon(err)
	}
	if err := o.hist.close(); err != nil {
		return err
	}
	if err := o.writeLists(); err != nil {
		return err
	}
	if err := o.warnPictures(o.profile.write(o.files, o.painter)); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	if err := writeParaViewScript(o.files, o.writtenSeries()); err != nil {
		return fmt.Errorf("%s: %w", ParaViewScript, err)
	}
	if err := o.warnPictures(WriteGranular(o.files, o.granular, o.painter)); err != nil {
		return err
	}
	return o.warnPictures(o.draw())
}

// PictureError is a picture that could not be drawn (values past what
// an axis lays out, a full disk): the run's data are whole without it, so
// a run says it as a warning and completes.
type PictureError struct {
	Name string // the picture's file name
	Err  error
}

func (e *PictureError) Error() string {
	return fmt.Sprintf("%s not drawn: %v (the data it would show are in the run's other files)", e.Name, e.Err)
}

func (e *PictureError) Unwrap() error { return e.Err }

// drawn is err, from drawing the picture name, as a PictureError.
func drawn(name string, err error) error {
	if err == nil {
		return nil
	}
	return &PictureError{Name: name, Err: err}
}

// warnPictures keeps the pictures err says were not drawn as warnings and
// returns what else it holds.
func (o *Writer) warnPictures(err error) error {
	w, rest := SplitPictures(err)
	o.warnings = append(o.warnings, w...)
	return rest
}

// SplitPictures splits err (errors joined) into the pictures it says
// were not drawn, as warnings, and the rest.
func SplitPictures(err error) (warnings []string, rest error) {
	var others []error
	for _, e := range flatten(err) {
		if pe, ok := e.(*PictureError); ok {
			warnings = append(warnings, pe.Error())
		} else {
			others = append(others, e)
		}
	}
	return warnings, errors.Join(others...)
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// Warnings are what Close left out (the pictures it could not draw).
func (o *Writer) Warnings() []string { return o.warnings }

// draw draws the pictures, when the Options gave a Painter, each on its
// own goroutine: they are a run's last work, and at a few hundred steps
// they took as long as the steps.
func (o *Writer) draw() error {
	if o.painter == nil {
		return nil
	}
	pictures := map[string]func(path string) error{
		"energy.png": func(p string) error { return o.painter.Energy(p, o.energy) },
	}
	if len(o.snaps) > 0 {
		pictures["bodies.png"] = func(p string) error { return o.painter.Bodies(p, o.snaps, o.frame) }
	}
	if names := o.hist.gaps.gapNames(); len(names) > 0 {
		pictures["gaps.png"] = func(p string) error { return o.painter.Gaps(p, names, o.energy) }
	}
	order := []string{"energy.png", "bodies.png", "gaps.png"}
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for i, name := range order {
		draw, ok := pictures[name]
		if !ok {
			continue
		}
		path, err := o.files.Path(name)
		if err != nil {
			return err
		}
		wg.Go(func() { errs[i] = drawn(name, draw(path)) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// grainSeries is the series whose pieces a granular study measures
// (SampleOf): the rigid bodies'.
const grainSeries = "rigid"

// seriesOf is the kinds' series, named once each and apart from the
// Writer's own.
func seriesOf(kinds []kind.Drawn) ([]drawnSeries, error) {
	var out []drawnSeries
	seen := map[string]bool{"contacts": true, "obstacles": true, "chains": true}
	for _, d := range kinds {
		series, err := d.Series()
		if err != nil {
			return nil, err
		}
		for _, s := range series {
			if seen[s.Name] || !plainName(s.Name) {
				return nil, fmt.Errorf("results: a kind's series %q: expected a name of letters, digits and _ that no other series has", s.Name)
			}
			seen[s.Name] = true
			out = append(out, drawnSeries{name: s.Name, style: s.Style, list: &vtk.Collection{}})
		}
	}
	return out, nil
}

func plainName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// writeKinds writes each kind's series at time t (a series whose grid is
// nil now writes no piece), and returns the grains' grid for a granular
// study (nil without one).
func (o *Writer) writeKinds(t float64) (grains *vtk.Grid, err error) {
	for _, d := range o.kinds {
		series, err := d.Series()
		if err != nil {
			return nil, err
		}
		for _, s := range series {
			if s.Grid == nil && len(s.Parts) == 0 {
				continue
			}
			if s.Name == grainSeries {
				grains = s.Grid
			}
			list := o.seriesList(s.Name)
			if list == nil {
				return nil, fmt.Errorf("results: a kind's series %q was not among its series when the run began: a kind's series are fixed", s.Name)
			}
			if err := o.writeKind(s, list, t); err != nil {
				return nil, err
			}
		}
	}
	return grains, nil
}

// writeKind writes a kind's series' piece at time t, or a piece per part
// (NAME_PART_00042.vtu, listed as the time's parts).
func (o *Writer) writeKind(s kind.Series, list *vtk.Collection, t float64) error {
	if s.Grid != nil {
		return o.writeSeries(s.Name, list, t, s.Grid)
	}
	for i, p := range s.Parts {
		file := fmt.Sprintf("%s_%s_%05d.vtu", s.Name, p.Name, o.count)
		if err := o.writeVTU(file, p.Grid); err != nil {
			return err
		}
		list.Add(t, i, file)
	}
	return nil
}

// seriesList is the collection of the kinds' series name, nil for none.
func (o *Writer) seriesList(name string) *vtk.Collection {
	for _, s := range o.drawn {
		if s.name == name {
			return s.list
		}
	}
	return nil
}

// pointContacts is the number of the point masses' contacts.
func pointContacts(sim *timestep.Simulation) int {
	if sim.Points == nil {
		return 0
	}
	return len(sim.Points.Contacts())
}

// Granular is the grains' series the run measures, nil when it does not.
func (o *Writer) Granular() *granular.Series { return o.granular }

// GranularSummary is the summary's line of the grains' means over the
// window, "" when the run does not measure them.
func (o *Writer) GranularSummary() string {
	if o.granular == nil {
		return ""
	}
	return o.granular.Summary()
}

// WriteGranular writes a series' granular.csv into the folder and, with a
// painter, forces.png and fabric.png (nothing for a nil series).
func WriteGranular(files *outdir.Folder, sr *granular.Series, painter Painter) error {
	if sr == nil {
		return nil
	}
	path, err := files.Path("granular.csv")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, sr.WriteCSV); err != nil {
		return fmt.Errorf("granular.csv: %w", err)
	}
	if painter == nil {
		return nil
	}
	width, density := sr.Density()
	if path, err = files.Path("forces.png"); err != nil {
		return err
	}
	forces := drawn("forces.png", painter.Forces(path, width, density))
	if path, err = files.Path("fabric.png"); err != nil {
		return err
	}
	return errors.Join(forces, drawn("fabric.png", painter.Fabric(path, sr.RoseShares())))
}

// iterates tells whether a kind of the simulation iterates its step (a
// hyperelastic body's Newton): history.csv then has their column.
func iterates(sim *timestep.Simulation) bool {
	for _, f := range sim.Families() {
		if it, ok := f.(kind.Iterated); ok && it.Iterates() {
			return true
		}
	}
	return false
}
