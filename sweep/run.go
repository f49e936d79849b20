package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/fecontact/fecontact/internal/atomicfile"
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
	for k := range p.variants {
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
	v := p.variants[k]
	os.Remove(filepath.Join(v.dir, figuresFile))
	os.Remove(filepath.Join(v.dir, failedFile))
	var r *run.Report
	var err error
	if run.Stopped(v.dir) {
		r, err = run.Resume(ctx, v.dir, p.runOptions(k, opt))
	} else {
		r, err = p.start(ctx, k, opt)
	}
	return r, p.keep(k, r, err)
}

func (p *Plan) start(ctx context.Context, k int, opt Options) (*run.Report, error) {
	return run.Scene(ctx, p.variants[k].scene, p.runOptions(k, opt))
}

func (p *Plan) runOptions(k int, opt Options) run.Options {
	return run.Options{Dir: p.variants[k].dir, Command: fmt.Sprintf("%s, variant %d: %s", opt.Command, k+1, p.Describe(k)), Version: opt.Version, Warn: opt.Warn}
}

// keep keeps a variant's result for the gathering: its figures, or its
// error; an interrupted one keeps none (its checkpoint is there, and its
// next attempt resumes). It returns the run's error, or the write's.
func (p *Plan) keep(k int, r *run.Report, err error) error {
	dir := p.variants[k].dir
	switch {
	case errors.Is(err, run.ErrInterrupted):
		return err
	case err != nil:
		if werr := os.WriteFile(filepath.Join(dir, failedFile), []byte(err.Error()+"\n"), 0o644); werr != nil {
			return werr
		}
		return err
	}
	return writeFigures(dir, r.Figures)
}

// writeFigures keeps a variant's figures exactly (NaN as "").
func writeFigures(dir string, f results.Figures) error {
	vals := map[string]string{}
	for k, x := range figureValues(f) {
		vals[k] = strconv.FormatFloat(x, 'g', -1, 64)
		if math.IsNaN(x) {
			vals[k] = ""
		}
	}
	return atomicfile.Write(filepath.Join(dir, figuresFile), func(w io.Writer) error { return json.NewEncoder(w).Encode(vals) })
}

func figureValues(f results.Figures) map[string]float64 {
	return map[string]float64{"contact_duration": f.ContactDuration, "peak_force": f.PeakForce, "kinetic_start": f.KineticStart,
		"kinetic": f.Kinetic, "elastic": f.Elastic, "contact_law_work": f.ContactLawWork, "friction_work": f.FrictionWork,
		"numerical_dissipation": f.NumericalDissipation}
}

func readFigures(dir string) (results.Figures, error) {
	var vals map[string]string
	data, err := os.ReadFile(filepath.Join(dir, figuresFile))
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
		NumericalDissipation: get("numerical_dissipation")}, nil
}
