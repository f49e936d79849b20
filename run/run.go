package run

import (
	"bytes"
	"cmp"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// Options says how to run a scene.
type Options struct {
	// Dir is the output folder, created if needed: one an earlier
	// fecontact run wrote has that run's files removed first (only those:
	// package outdir), one holding anything else is refused unless
	// Overwrite. It is held (locked) for the run's life.
	Dir       string
	Overwrite bool
	Variant   scene.Variant
	// Steps stops the run after this many steps (0: the scene's
	// duration); Every writes the fields every this many steps (0: the
	// scene's [output] every).
	Steps, Every int
	// Command and Version say what made the run, in summary.txt.
	Command, Version string
	// OnProblem sees every contact problem the run solves (SimOptions).
	OnProblem func(step int, p *signorini.Problem) error
	// ExportStep, when set, writes the contact problem of this step into
	// the folder as problem_STEP.json (the fc2d exchange format).
	ExportStep int
	// Progress, when set, is called after every step.
	Progress func(done, total int, sim *timestep.Simulation)
	// Say, when set, gets what the run has to say as it goes: the earlier
	// files removed, the scene's size; Warn its warnings.
	Say, Warn func(line string)
	// Checkpoint says when the run writes checkpoint.gob, from which
	// Resume goes on (zero: every DefaultCheckpointWall, when interrupted
	// and at the end).
	Checkpoint Checkpoint
	// Until, for Resume, runs on to this time (s) instead of the steps the
	// run was started with: a finished run is extended.
	Until float64
}

// Report is what a run did.
type Report struct {
	Done, Steps int                  // steps done, of those asked for
	Summary     string               // what summary.txt holds
	Figures     results.Figures      // for a parameter study
	Sim         *timestep.Simulation // at the end
}

// ErrInterrupted is a run stopped through its context: every output is
// complete up to the step it stopped after.
var ErrInterrupted = errors.New("interrupted")

// SceneAsRun is the copy of the scene a run keeps in its folder: named
// apart from a user's scene.toml, which a run into its own folder must
// not overwrite or clear.
const SceneAsRun = "scene-as-run.toml"

// Scene builds and runs a scene, writing its outputs into opt.Dir as it
// goes. When ctx ends, the run stops after the current step with every
// output complete up to it, writes a checkpoint (Resume goes on from it),
// and returns the report with ErrInterrupted.
func Scene(ctx context.Context, sc *scene.Scene, opt Options) (*Report, error) {
	start := time.Now()
	if err := check(sc, opt); err != nil {
		return nil, err
	}
	own := *sc                // the caller's scene stays as given (Options.Every sets the run's)
	sc, err := own.Expanded() // the run keeps every body its builders build
	if err != nil {
		return nil, err
	}
	model, err := sc.Model(opt.Variant)
	if err != nil {
		return nil, err
	}
	ex := &exporter{scene: sc.Name, step: opt.ExportStep, next: opt.OnProblem}
	onProblem := opt.OnProblem
	if opt.ExportStep > 0 {
		onProblem = ex.onProblem
	}
	sim, err := model.Simulation(onProblem)
	if err != nil {
		return nil, err
	}
	setup := time.Since(start)
	r := &Report{Steps: sc.Steps(), Sim: sim}
	if opt.Steps > 0 {
		r.Steps = min(r.Steps, opt.Steps)
	}
	if opt.Every > 0 {
		sc.Output.Every = opt.Every
	}
	files, out, err := prepare(sc, sim, opt)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	ex.files = files
	opt.say("%s: %s, %s of %g s (setup and factorisation %.2f s)", sc.Name, bodyCounts(model), plural.S(r.Steps, "step"), sc.Time.H, setup.Seconds())
	for _, w := range model.Warnings() {
		opt.warn(w)
	}
	if err := out.Record(timestep.StepStats{}, true); err != nil {
		return nil, out.Abandon(err)
	}
	rs := &running{sc: sc, model: model, sim: sim, files: files, out: out, ex: ex, r: r, opt: opt, sum: &Stats{}, start: start}
	return rs.run(ctx)
}

// Resume goes on with the run in folder dir from its checkpoint
// (CheckpointFile): the scene beside it (SceneAsRun), the refinement, the
// steps and the output stride the run was started with, history.csv and
// the .pvd files cut back to the checkpoint, and on to the end (or to
// opt.Until), as if the run had never stopped: the same files, bit for
// bit. A checkpoint of another version of the program, or whose scene
// was edited since, is refused. opt's Dir is dir; its Variant, Steps and
// Every are the checkpoint's.
func Resume(ctx context.Context, dir string, opt Options) (*Report, error) {
	start := time.Now()
	files, err := outdir.Reopen(dir, "run", outdir.Options{Command: opt.Command})
	if err != nil {
		return nil, err
	}
	defer files.Close()
	br, h, err := readCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, CheckpointFile)
	scenePath := filepath.Join(dir, SceneAsRun)
	text, err := inputfile.ReadFile(scenePath, scene.MaxSceneBytes, "scene file (TOML), as the run kept it")
	if err != nil {
		return nil, fmt.Errorf("%s: the scene of the run: %w", path, err)
	}
	if err := resumable(h, path, string(text), opt.Version); err != nil {
		return nil, err
	}
	sc, err := sceneOf(h, text, scenePath)
	if err != nil {
		return nil, err
	}
	opt.Dir, opt.Variant, sc.Output.Every = dir, h.Variant, h.Every
	model, err := sc.Model(h.Variant)
	if err != nil {
		return nil, err
	}
	if meshesHash(model) != h.Meshes {
		return nil, fmt.Errorf("%s: the bodies' meshes are not those the run was started with (a Gmsh file in %s changed since?); start a new run", path, h.SceneDir)
	}
	sim, err := model.Simulation(opt.OnProblem)
	if err != nil {
		return nil, err
	}
	if err := sim.LoadState(br); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dec := gob.NewDecoder(br)
	var ws results.WriterState
	var ss statsState
	if err := dec.Decode(&ws); err != nil {
		return nil, fmt.Errorf("%s: damaged: %w", path, err)
	}
	if err := dec.Decode(&ss); err != nil {
		return nil, fmt.Errorf("%s: damaged: %w", path, err)
	}
	r := &Report{Steps: h.Steps, Done: h.Done, Sim: sim}
	if opt.Until > 0 {
		if n := opt.Until / sc.Time.H; !(n <= maxSteps) {
			return nil, fmt.Errorf("--until %g s: %.3g steps of h = %g s, more than %g a run may take: give an --until within that", opt.Until, n, sc.Time.H, float64(maxSteps))
		}
		r.Steps = int(math.Round(opt.Until / sc.Time.H))
		if r.Steps < h.Done {
			return nil, fmt.Errorf("--until %g s: the run is at t = %.6g s already (step %d)", opt.Until, h.TimeReached, h.Done)
		}
	}
	out, err := results.ResumeWriter(files, sim, writerOptions(sc), ws)
	if err != nil {
		return nil, err
	}
	opt.say("%s: resuming at %s, on to step %d", scenePath, h.describe(), r.Steps)
	rs := &running{sc: sc, model: model, sim: sim, files: files, out: out, r: r, opt: opt, sum: ss.stats(), start: start, elapsed: h.Elapsed,
		lastCheckpointStep: h.Done}
	return rs.run(ctx)
}

// maxSteps bounds a run's steps, as the scene's duration is bounded.
const maxSteps = 1e8

// running is a run under way: what its steps, checkpoints and summary
// share.
type running struct {
	sc                 *scene.Scene
	model              *scene.Model
	sim                *timestep.Simulation
	files              *outdir.Folder
	out                *results.Writer
	ex                 *exporter // of a new run asked for one
	r                  *Report
	opt                Options
	sum                *Stats
	start, loop        time.Time
	elapsed            time.Duration // of the steps before this sitting (a resumed run's)
	lastCheckpoint     time.Time
	lastCheckpointStep int
}

// run steps to the end or to ctx's end, then completes the outputs and
// the summary.
func (rs *running) run(ctx context.Context) (*Report, error) {
	r, opt := rs.r, rs.opt
	if err := rs.steps(ctx); err != nil {
		return nil, err
	}
	if err := rs.out.Close(); err != nil {
		return nil, err
	}
	for _, w := range rs.out.Warnings() {
		opt.warn(w)
		rs.sum.warnings = append(rs.sum.warnings, w)
	}
	r.Figures = rs.out.Figures()
	if err := rs.finish(rs.out.InitialBalance(), rs.elapsed+time.Since(rs.loop)); err != nil {
		return nil, err
	}
	if r.Done < r.Steps {
		return r, fmt.Errorf("%w after step %d of %d; the outputs in %s are complete up to it (summary.txt says so); fecontact run --resume %s goes on", ErrInterrupted, r.Done, r.Steps, opt.Dir, opt.Dir)
	}
	return r, nil
}

// check refuses options out of range.
func check(sc *scene.Scene, opt Options) error {
	switch {
	case sc == nil:
		return errors.New("no scene")
	case opt.Variant.Refine < 0:
		return fmt.Errorf("refine %d: expected a whole number >= 1", opt.Variant.Refine)
	case opt.Steps < 0:
		return fmt.Errorf("steps %d: expected a number of steps >= 1 (0: the scene's duration)", opt.Steps)
	case opt.Every < 0:
		return fmt.Errorf("every %d: expected a number of steps >= 1 (0: the scene's [output] every)", opt.Every)
	case opt.ExportStep < 0 || opt.ExportStep > sc.Steps():
		return fmt.Errorf("export step %d: expected a step from 1 to the scene's %d", opt.ExportStep, sc.Steps())
	case opt.Dir == "":
		return errors.New("no output folder")
	}
	return nil
}

// prepare takes the output folder (clearing an earlier run's files from
// it), keeps the scene as run, and opens the outputs.
func prepare(sc *scene.Scene, sim *timestep.Simulation, opt Options) (*outdir.Folder, *results.Writer, error) {
	files, n, err := outdir.Create(opt.Dir, "run", outdir.Options{Overwrite: opt.Overwrite, Command: opt.Command})
	if err != nil {
		return nil, nil, err
	}
	if n > 0 {
		opt.say("removed %s of an earlier run from %s", plural.S(n, "file"), opt.Dir)
	}
	var out *results.Writer
	err = writeText(files, SceneAsRun, sc.Text)
	if err == nil {
		out, err = results.NewWriter(files, sim, writerOptions(sc))
	}
	if err != nil {
		files.Close()
		return nil, nil, err
	}
	return files, out, nil
}

// wrote names the files a run wrote: its series by their .pvd (not
// their pieces), then the rest in the order it first wrote them; not
// state.json, which the summary names apart; not a picture that could
// not be drawn (listed before it was tried).
func wrote(files *outdir.Folder) []string {
	var names []string
	for _, n := range files.Outputs() {
		if filepath.Ext(n) == ".vtu" || n == "history.csv.partial" || n == "state.json" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(files.Dir(), filepath.FromSlash(n))); err == nil || n == "summary.txt" || n == SummaryJSON {
			names = append(names, n)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Compare(b2i(filepath.Ext(b) == ".pvd"), b2i(filepath.Ext(a) == ".pvd"))
	})
	return names
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeText lists a file in the folder and writes text into it.
func writeText(files *outdir.Folder, name, text string) error {
	path, err := files.Path(name)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// writerOptions are the outputs' options the scene asks for.
func writerOptions(sc *scene.Scene) results.Options {
	enc, _ := vtk.ParseEncoding(sc.Output.Encoding)
	gaps, _ := sc.GapPairs() // checked with the scene
	o := results.Options{Encoding: enc, Pictures: sc.Output.Pictures, Frame: sc.Output.Frame, Gaps: gaps, Painter: plots.Painter{}}
	if p := sc.Output.Profile; p != nil {
		o.Profile = &results.Profile{Strips: p.Strips, Bottom: p.Y[0], Top: p.Y[1], From: p.From, Window: p.Window}
	}
	if g := sc.Output.Granular; g != nil {
		o.Granular = GranularOptions(g.Region, g.Window, g.Surface)
	}
	return o
}

// steps runs the steps, recording each, until the last or ctx's end. The
// fields are written every Output.Every steps; those of a last step off
// that stride (the end, an interruption) after the checkpoint, which
// therefore holds the run as a run never stopped has it.
func (rs *running) steps(ctx context.Context) error {
	r, sim, out, sc, opt := rs.r, rs.sim, rs.out, rs.sc, rs.opt
	rs.loop, rs.lastCheckpoint = time.Now(), time.Now()
	for r.Done < r.Steps {
		st, err := sim.Step()
		if err != nil {
			return out.Abandon(fmt.Errorf("%s: %w", sc.Name, err))
		}
		r.Done++
		rs.sum.Add(st)
		interrupted := ctx.Err() != nil
		last := r.Done == r.Steps || interrupted
		regular := r.Done%sc.Output.Every == 0
		if regular || last {
			// On the fields' stride: a body turns by 0.1 rad over many
			// steps, and the check is a pass over every node (13 % of
			// the colliding blocks' step at every step).
			for _, w := range sim.Warnings() {
				opt.warn(w)
				rs.sum.warnings = append(rs.sum.warnings, w)
			}
		}
		if err := out.Record(st, regular); err != nil {
			return out.Abandon(err)
		}
		if !opt.Checkpoint.Off && (last || rs.due()) {
			if err := rs.writeCheckpoint(); err != nil {
				return out.Abandon(err)
			}
		}
		if last && !regular {
			out.KeepPoint()
			if err := out.WriteFields(); err != nil {
				return out.Abandon(err)
			}
		}
		if opt.Progress != nil {
			opt.Progress(r.Done, r.Steps, sim)
		}
		if interrupted {
			break
		}
	}
	return nil
}

// interruptedMark begins the summary of a run that stopped before its
// end (Stopped reads it).
const interruptedMark = "INTERRUPTED"

// Stopped reports whether the run in folder dir stopped before its end
// and can go on (Resume): it has a checkpoint, and its history was cut
// short (a write that failed) or its summary says it was interrupted. A
// run killed outright has no summary of its own and is not reported.
func Stopped(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, CheckpointFile)); err != nil {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "history.csv.partial")); err == nil {
		return true
	}
	s, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	return err == nil && strings.HasPrefix(string(s), interruptedMark)
}

// finish writes the summary (and the rigid bodies' state).
func (rs *running) finish(e0 float64, elapsed time.Duration) error {
	r, files, sc, model, sum, start, opt := rs.r, rs.files, rs.sc, rs.model, rs.sum, rs.start, rs.opt
	sim := r.Sim
	var b bytes.Buffer
	if r.Done < r.Steps {
		fmt.Fprintf(&b, interruptedMark+" after step %d of %d (t = %.6g s): every output in %s is complete up to that step\n", r.Done, r.Steps, sim.Time(), opt.Dir)
	}
	fmt.Fprintf(&b, "made by: %s, %s\ncommand: %s\nscene: %s (as run: %s)\n", opt.Version, start.Format(time.RFC3339), opt.Command, sc.Name, SceneAsRun)
	summary, err := files.Path("summary.txt")
	if err != nil {
		return err
	}
	summaryJSON, err := files.Path(SummaryJSON)
	if err != nil {
		return err
	}
	sum.print(&b, sim, sc.Solver, e0, r.Done, elapsed, opt.Dir, wrote(files))
	if g := rs.out.GranularSummary(); g != "" {
		fmt.Fprintln(&b, g)
	}
	if rs.ex != nil {
		rs.ex.report(&b)
	}
	if model.Rigid != nil {
		path, err := files.Path("state.json")
		if err != nil {
			return err
		}
		if err := results.WriteState(path, results.StateOf(sc.Name, r.Done, sim.Time(), model.Rigid)); err != nil {
			return err
		}
		fmt.Fprintf(&b, "wrote %s: the rigid bodies at t = %.6g s (fecontact explore --state)\n", path, sim.Time())
	}
	js := sum.summaryOf(sim, sc.Solver, e0, r.Done, elapsed, wrote(files))
	js.Interrupted, js.MadeBy, js.Started, js.Command = r.Done < r.Steps, opt.Version, start.Format(time.RFC3339), opt.Command
	js.Scene, js.SceneAsRun, js.StepsAsked = sc.Name, SceneAsRun, r.Steps
	js.Cost = cost(&b, sim, js.PerStep)
	js.Granular = granularOf(rs.out.Granular())
	r.Summary = b.String()
	if err := atomicfile.Write(summary, func(w io.Writer) error {
		_, err := io.WriteString(w, r.Summary)
		return err
	}); err != nil {
		return err
	}
	return atomicfile.Write(summaryJSON, func(w io.Writer) error { return writeSummaryJSON(w, js) })
}

// cost prints the summary's cost line and returns its figures.
func cost(b *bytes.Buffer, sim *timestep.Simulation, perStep Quantity) Cost {
	c := Cost{PerStep: perStep}
	peak := PeakMemory()
	if kb, ok := peakKB(peak); ok {
		c.PeakMemory = qp(kb, "kB")
	}
	if sim.Stepper.NumBodies() == 0 {
		fmt.Fprintf(b, "cost: %.3g ms per step; peak memory %s\n", 1e3*perStep.Value, peak)
		return c
	}
	solve := OneSolve(sim).Seconds()
	ratio := Number(float64(perStep.Value) / solve)
	c.Solve, c.SolveRatio = qp(solve, "s"), &ratio
	fmt.Fprintf(b, "cost: %.3g ms per step = %.2f x one solve of every body with the same factors (%.3g ms); peak memory %s\n",
		1e3*perStep.Value, float64(ratio), 1e3*solve, peak)
	return c
}

func (o Options) say(format string, a ...any) {
	if o.Say != nil {
		o.Say(fmt.Sprintf(format, a...))
	}
}

func (o Options) warn(w string) {
	if o.Warn != nil {
		o.Warn("warning: " + w)
	}
}

func dofs(m *scene.Model) int {
	n := 0
	for _, b := range m.Bodies {
		n += b.Space.N()
	}
	return n
}

// bodyCounts counts the model's bodies of each kind, and the elastic
// bodies' DOFs.
func bodyCounts(m *scene.Model) string {
	var parts []string
	if len(m.Bodies) > 0 {
		parts = append(parts, plural.N(len(m.Bodies), "elastic body", "elastic bodies")+", "+plural.S(dofs(m), "DOF"))
	}
	if m.Rigid != nil {
		parts = append(parts, plural.N(len(m.Rigid.Bodies), "rigid body", "rigid bodies"))
	}
	if m.Points != nil {
		parts = append(parts, plural.N(len(m.Points.Masses), "point mass", "point masses")+" and "+plural.S(len(m.Points.Springs()), "spring"))
	}
	for _, k := range m.Kinds {
		parts = append(parts, fmt.Sprintf("%s: %d", k.Name(), k.Len()))
	}
	return strings.Join(parts, ", ")
}

// OneSolve is the best of five forward-and-backward substitutions with
// every finite-element body's factor, one after the other: the floor of a
// step's cost.
func OneSolve(sim *timestep.Simulation) time.Duration {
	best := time.Duration(math.MaxInt64)
	for range 5 {
		start := time.Now()
		for i := range sim.Stepper.NumBodies() {
			b := sim.Stepper.Body(i)
			x := make([]float64, b.Space.N())
			sim.Stepper.Solve(i, x, b.V)
		}
		best = min(best, time.Since(start))
	}
	return best
}

// PeakMemory is the process's peak resident memory (Linux), or
// "unknown".
func PeakMemory() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// GranularOptions are a granular study's options from a region [xmin,
// xmax, ymin, ymax] and a window [from, to] (either nil: none), as the
// scene and fecontact granular give them.
func GranularOptions(region, window, surface []float64) *granular.Options {
	o := &granular.Options{}
	if len(surface) == 2 {
		o.Surface = [2]float64{surface[0], surface[1]}
	}
	if len(region) == 4 {
		o.Region = granular.Region{X0: region[0], X1: region[1], Y0: region[2], Y1: region[3]}
	}
	if len(window) == 2 {
		o.From, o.To = window[0], window[1]
	}
	return o
}
