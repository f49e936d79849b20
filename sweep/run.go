package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/run"
)

// figuresFile holds a finished variant's figures, for the gathering;
// failedFile a failed one's error.
const (
	figuresFile = "figures.json"
	failedFile  = "failed.txt"
)

// Options of the variants' runs.
type Options struct {
	// Command says what ran a variant, in its summary.txt, before the
	// variant's values; Version is the program's.
	Command, Version string
	// Warn, when set, gets a run's warnings as they come (from every
	// worker at once under Run); the summaries have them too.
	Warn func(line string)
}

// Run runs the variants on jobs workers (below 1: one per core), each
// into its folder, and calls done (when not nil; from one worker at a
// time) as each ends, with its run's error. Once ctx is done no variant
// starts, and the running ones stop after their step (run.ErrInterrupted)
// keeping their checkpoint. The table has every variant's figures, or
// its error: a variant that did not start has run.ErrInterrupted.
func (p *Plan) Run(ctx context.Context, jobs int, opt Options, done func(k int, err error)) *Table {
	t := p.table()
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, p.Len()) {
		wg.Go(func() {
			for k := range next {
				r, err := p.start(ctx, k, opt)
				row := &t.Rows[k]
				if row.Err = p.keep(k, r, err); row.Err == nil {
					row.Figures = r.Figures
				}
				if done != nil {
					mu.Lock()
					done(k, row.Err)
					mu.Unlock()
				}
			}
		})
	}
	for k := range p.Len() {
		if ctx.Err() == nil {
			select {
			case next <- k:
				continue
			case <-ctx.Done():
			}
		}
		for rest := k; rest < p.Len(); rest++ {
			t.Rows[rest].Err = fmt.Errorf("%w before it started", run.ErrInterrupted)
		}
		break
	}
	close(next)
	wg.Wait()
	for _, r := range t.Rows {
		if r.Err != nil {
			t.Failed++
		}
	}
	return t
}

// RunVariant runs variant k (from 0) into its folder: from its checkpoint
// when an earlier attempt was stopped (a Slurm task requeued after its
// time limit), else from the start. It keeps the figures, or the error,
// for the gathering and returns the run's report (nil when the run did
// not begin) and its error.
func (p *Plan) RunVariant(ctx context.Context, k int, opt Options) (*run.Report, error) {
	if k < 0 || k >= p.Len() {
		return nil, fmt.Errorf("variant %d: expected a number from 1 to %d", k+1, p.Len())
	}
	dir := p.VariantDir(k)
	if err := forget(dir); err != nil {
		return nil, err
	}
	var r *run.Report
	var err error
	if run.Stopped(dir) {
		r, err = run.Resume(ctx, dir, p.runOptions(k, opt))
	} else {
		r, err = p.start(ctx, k, opt)
	}
	return r, p.keep(k, r, err)
}

// forget removes a variant's result of an earlier attempt.
func forget(dir string) error {
	vf, err := outdir.Reopen(dir, "run", outdir.Options{})
	if err != nil {
		return err
	}
	defer vf.Close()
	for _, name := range []string{figuresFile, failedFile} {
		if vf.Listed(name) {
			if err := vf.Remove(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// start runs variant k from its beginning.
func (p *Plan) start(ctx context.Context, k int, opt Options) (*run.Report, error) {
	sc, err := p.scene(k)
	if err != nil {
		return nil, err
	}
	return run.Scene(ctx, sc, p.runOptions(k, opt))
}

func (p *Plan) runOptions(k int, opt Options) run.Options {
	return run.Options{Dir: p.VariantDir(k), Command: fmt.Sprintf("%s, variant %d: %s", opt.Command, k+1, p.Describe(k)), Version: opt.Version, Warn: opt.Warn}
}

// keep keeps a variant's result for the gathering: its figures, or its
// error; an interrupted one keeps none (its checkpoint is there, and its
// next attempt resumes). It returns the run's error, or the write's.
func (p *Plan) keep(k int, r *run.Report, err error) error {
	if errors.Is(err, run.ErrInterrupted) {
		return err
	}
	vf, oerr := outdir.Reopen(p.VariantDir(k), "run", outdir.Options{})
	if oerr != nil {
		return errors.Join(err, oerr)
	}
	defer vf.Close()
	if err != nil {
		if werr := writeFile(vf, failedFile, func(w io.Writer) error {
			_, err := io.WriteString(w, err.Error()+"\n")
			return err
		}); werr != nil {
			// The run's own error first: a full disk fails the run and this write.
			return fmt.Errorf("%w (and its error could not be kept for the gathering: %v)", err, werr)
		}
		return err
	}
	return writeFigures(vf, r.Figures)
}

// writeFile lists a file in the variant's folder and writes it.
func writeFile(vf *outdir.Folder, name string, write func(io.Writer) error) error {
	path, err := vf.Path(name)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, write)
}

// writeFigures keeps a variant's figures exactly (NaN as "").
func writeFigures(vf *outdir.Folder, f results.Figures) error {
	vals := map[string]string{}
	for k, x := range figureValues(f) {
		vals[k] = strconv.FormatFloat(x, 'g', -1, 64)
		if math.IsNaN(x) {
			vals[k] = ""
		}
	}
	return writeFile(vf, figuresFile, func(w io.Writer) error { return json.NewEncoder(w).Encode(vals) })
}

func figureValues(f results.Figures) map[string]float64 {
	return map[string]float64{"contact_duration": f.ContactDuration, "peak_force": f.PeakForce, "kinetic_start": f.KineticStart,
		"kinetic": f.Kinetic, "elastic": f.Elastic, "contact_law_work": f.ContactLawWork, "friction_work": f.FrictionWork,
		"numerical_dissipation": f.NumericalDissipation, "surface_angle": f.SurfaceAngle}
}

func readFigures(dir string) (results.Figures, error) {
	var vals map[string]string
	data, err := inputfile.ReadFile(filepath.Join(dir, figuresFile), maxFailed, "variant's figures (JSON)")
	if err != nil {
		return results.Figures{}, err
	}
	if err := json.Unmarshal(data, &vals); err != nil {
		return results.Figures{}, fmt.Errorf("%s: damaged", filepath.Join(dir, figuresFile))
	}
	get := func(k string) float64 {
		x, err := strconv.ParseFloat(vals[k], 64)
		if err != nil {
			return math.NaN()
		}
		return x
	}
	return results.Figures{ContactDuration: get("contact_duration"), PeakForce: get("peak_force"), KineticStart: get("kinetic_start"),
		Kinetic: get("kinetic"), Elastic: get("elastic"), ContactLawWork: get("contact_law_work"), FrictionWork: get("friction_work"),
		NumericalDissipation: get("numerical_dissipation"), SurfaceAngle: get("surface_angle")}, nil
}
