package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
)

// setting is one --set: a scene key and the values it takes.
type setting struct {
	key    string
	values []string // TOML values
}

// sets collects the repeated --set flags.
type sets []setting

func (s *sets) String() string { return "" }

func (s *sets) Set(arg string) error {
	key, vals, ok := strings.Cut(arg, "=")
	if !ok || key == "" || vals == "" {
		return fmt.Errorf("%q: expected KEY=V1|V2|... or KEY=A..B or KEY=A..B/N", arg)
	}
	values, err := expand(vals)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	*s = append(*s, setting{key: key, values: values})
	if n := s.variants(); n > maxVariants {
		return fmt.Errorf("%s: the --set flags make %.4g variants, more than the %d a sweep runs: fewer values, or several sweeps", key, n, maxVariants)
	}
	return nil
}

// maxVariants bounds a sweep: each variant is a run with its own folder,
// and all are checked before the first runs.
const maxVariants = 10000

// variants is the number of variants the settings make, counted in
// floating point so that a product of huge counts cannot overflow.
func (s sets) variants() float64 {
	n := 1.0
	for _, x := range s {
		n *= float64(len(x.values))
	}
	return n
}

// expand reads the values of a --set: TOML values separated by |, or a
// range A..B of numbers or of arrays of numbers of one length, with N
// values (A..B/N), or by steps of 1 in the component that changes most
// when every component of A and B is a whole number.
func expand(s string) ([]string, error) {
	from, to, isRange := strings.Cut(s, "..")
	if !isRange {
		if n := strings.Count(s, "|") + 1; n > maxVariants {
			return nil, fmt.Errorf("%d values, more than the %d variants a sweep runs", n, maxVariants)
		}
		return strings.Split(s, "|"), nil
	}
	n := 0
	if to2, count, ok := strings.Cut(to, "/"); ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil || n < 2 || n > maxVariants {
			return nil, fmt.Errorf("range %s: /%s: expected a count from 2 to %d", s, count, maxVariants)
		}
		to = to2
	}
	a, errA := numbers(from)
	b, errB := numbers(to)
	if errA != nil || errB != nil || len(a) != len(b) {
		return nil, fmt.Errorf("range %s: expected two finite numbers or two arrays of finite numbers of one length", s)
	}
	if n == 0 {
		span := 0.0
		for k := range a {
			if a[k] != math.Round(a[k]) || b[k] != math.Round(b[k]) {
				return nil, fmt.Errorf("range %s: give the number of values, as %s/N", s, s)
			}
			span = math.Max(span, math.Abs(b[k]-a[k]))
		}
		if span+1 > maxVariants {
			return nil, fmt.Errorf("range %s: %.4g values by steps of 1, more than the %d variants a sweep runs: give the number of values, as %s/N", s, span+1, maxVariants, s)
		}
		n = int(span) + 1
		if n < 2 {
			return nil, fmt.Errorf("range %s: its ends are equal", s)
		}
	}
	out := make([]string, n)
	for i := range n {
		f := float64(i) / float64(n-1)
		parts := make([]string, len(a))
		for k := range a {
			parts[k] = tomlFloat(a[k] + f*(b[k]-a[k]))
		}
		if strings.HasPrefix(strings.TrimSpace(from), "[") {
			out[i] = "[" + strings.Join(parts, ", ") + "]"
		} else {
			out[i] = parts[0]
		}
	}
	return out, nil
}

// numbers reads a number or an array of numbers.
func numbers(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// tomlFloat writes a float that TOML reads as a float (1.0, not 1).
func tomlFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") { // n: NaN, Inf
		s += ".0"
	}
	return s
}

// variant is one scene of a sweep: the values it takes, in the order of
// the --set flags.
type variant struct {
	values  []string
	dir     string
	figures results.Figures // what its run gives
	err     error
}

// sweepCmd runs variants of a scene on the cores, or on a Slurm cluster
// (--engine slurm), and gathers their figures; "sweep run DIR K" and
// "sweep gather DIR" are a planned sweep's steps, which the Slurm jobs
// run.
func sweepCmd(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "run" {
		return sweepRunCmd(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "gather" {
		return sweepGatherCmd(args[1:], stdout)
	}
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stdout)
	var set sets
	fs.Var(&set, "set", "KEY=V1|V2|..., KEY=A..B or KEY=A..B/N: a scene key (time.h, body.NAME.velocity) and its values (repeat for a product)")
	out := fs.String("o", "sweep", "output folder: one folder per variant, sweep.csv, sweep.png")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "variants run at once (--engine local)")
	engine := fs.String("engine", "local", "where the variants run: local (the cores here) or slurm (a job array, sbatch)")
	so := addSlurmFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact sweep SCENE.toml|EXAMPLE --set body.disc.velocity=[0,-1]..[0,-12] [--set ...] [-o DIR] [--jobs N]\n       fecontact sweep ... --engine slurm [--array-limit N] [--cpus-per-task C] [--time T] [--partition P] [--requeue] [--wait]\n       fecontact sweep run DIR K       run variant K of a planned sweep (what a Slurm task runs)\n       fecontact sweep gather DIR      gather a planned sweep's figures into sweep.csv and sweep.png")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return fmt.Errorf("%w: expected one scene file or example name", errUsage)
	case len(set) == 0:
		return fmt.Errorf("%w: expected at least one --set KEY=VALUES", errUsage)
	case *jobs < 1:
		return fmt.Errorf("%w: --jobs %d: expected at least 1", errUsage, *jobs)
	case *engine != "local" && *engine != "slurm":
		return fmt.Errorf("%w: --engine %q: expected local or slurm", errUsage, *engine)
	case so.cpus < 1 || so.limit < 0:
		return fmt.Errorf("%w: --cpus-per-task %d, --array-limit %d: expected at least 1 CPU and a limit >= 0", errUsage, so.cpus, so.limit)
	}
	// SIGINT and SIGTERM end the running variants after their current
	// step (each run sees the signal too) and start no more.
	ctx, stop := interruptible()
	defer stop()
	m, variants, scenes, err := planSweep(pos[0], *out, set, stdout)
	if err != nil {
		return err
	}
	if *engine == "slurm" {
		return submitSlurm(ctx, *out, m.Variants, so, stdout)
	}
	fmt.Fprintf(stdout, "%s: %d variants, %d at once, in %s\n", m.Scene, len(variants), *jobs, *out)
	runVariants(ctx, scenes, variants, *jobs, stdout, set)
	failed := 0
	for k, v := range variants {
		if v.err != nil {
			failed++
			fmt.Fprintf(stdout, "variant %d (%s) failed: %v\n", k+1, describe(set, v), v.err)
		}
	}
	err = reportSweep(*out, set, variants, 0, failed, stdout)
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %d of %d variants did not finish (sweep.csv marks them)", errInterrupted, failed, len(variants))
	}
	return err
}

// sceneText is the text of a scene file or of an example's.
func sceneText(arg string) (string, error) {
	if isSceneFile(arg) {
		data, err := inputfile.ReadFile(arg, scene.MaxSceneBytes, "scene file (TOML)")
		return string(data), err
	}
	data, err := exampleText(arg)
	return string(data), err
}

// product lists every combination of the settings' values.
func product(set sets) []*variant {
	out := []*variant{{}}
	for _, s := range set {
		var next []*variant
		for _, v := range out {
			for _, val := range s.values {
				next = append(next, &variant{values: append(append([]string(nil), v.values...), val)})
			}
		}
		out = next
	}
	return out
}

func describe(set sets, v *variant) string {
	parts := make([]string, len(set))
	for i, s := range set {
		parts[i] = s.key + " = " + v.values[i]
	}
	return strings.Join(parts, ", ")
}

// runVariants runs the scenes on jobs workers, each into its folder. Once
// ctx is done no variant starts, and those left are marked interrupted
// (a running one ends after its step with simulate's errInterrupted).
func runVariants(ctx context.Context, scenes []*scene.Scene, variants []*variant, jobs int, stdout io.Writer, set sets) {
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(variants)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				v := variants[k]
				rf := variantFlags(v.dir, fmt.Sprintf("fecontact sweep, variant %d: %s", k+1, describe(set, v)))
				var buf bytes.Buffer
				v.figures, v.err = simulate(scenes[k], rf, &buf)
				v.err = keepResult(v.dir, v.figures, v.err)
				status := "done"
				if v.err != nil {
					status = "failed"
				}
				mu.Lock()
				fmt.Fprintf(stdout, "variant %d (%s): %s\n", k+1, describe(set, v), status)
				mu.Unlock()
			}
		}()
	}
	for k := range variants {
		if ctx.Err() == nil {
			select {
			case next <- k:
				continue
			case <-ctx.Done():
			}
		}
		for _, rest := range variants[k:] {
			rest.err = fmt.Errorf("%w before it started", errInterrupted)
		}
		break
	}
	close(next)
	wg.Wait()
}

// cell writes a figure of sweep.csv: empty where there is none (NaN: no
// peak force without a [[contact]] pair, no ratio without an initial
// kinetic energy).
func cell(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 8, 64)
}

// writeSweep writes sweep.csv (one row per variant) and, when a finished
// variant has a setting with numbers, sweep.png (the contact duration
// against the first such setting, a line per value of the others; array
// values by their norm), and says whether it drew it.
func writeSweep(dir string, set sets, variants []*variant) (bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	err := atomicfile.Write(filepath.Join(dir, "sweep.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"variant", "folder"}
		for _, s := range set {
			head = append(head, s.key)
		}
		head = append(head, "contact_duration [s]", "peak_force [N/m]", "kinetic_ratio", "kinetic [J]", "elastic [J]",
			"contact_law_work [J]", "friction_work [J]", "numerical_dissipation [J]", "error")
		if err := cw.Write(head); err != nil {
			return err
		}
		for k, v := range variants {
			row := []string{strconv.Itoa(k + 1), filepath.Base(v.dir)}
			for _, val := range v.values {
				row = append(row, strings.Trim(val, `"`)) // "neohookean" as neohookean
			}
			f := v.figures
			for _, x := range []float64{f.ContactDuration, f.PeakForce, f.KineticRatio(), f.Kinetic, f.Elastic, f.ContactLawWork, f.FrictionWork, f.NumericalDissipation} {
				row = append(row, cell(x))
			}
			msg := ""
			if v.err != nil {
				msg = v.err.Error()
			}
			if err := cw.Write(append(row, msg)); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return false, err
	}
	return sweepPlot(filepath.Join(dir, "sweep.png"), set, variants)
}

// sweepPlot draws the contact duration against the first key whose
// values are numbers, a line per combination of the other keys.
func sweepPlot(path string, set sets, variants []*variant) (bool, error) {
	x := -1
	for k := range set {
		if slices.ContainsFunc(variants, func(v *variant) bool { _, err := numbers(v.values[k]); return err == nil && v.err == nil }) {
			x = k
			break
		}
	}
	if x < 0 {
		return false, nil // nothing to draw
	}
	p := plot.New()
	p.Title.Text = "contact duration"
	p.X.Label.Text, p.Y.Label.Text = set[x].key, "contact duration (s)"
	lines := map[string]plotter.XYs{}
	var order []string
	for _, v := range variants {
		xs, err := numbers(v.values[x])
		if err != nil || v.err != nil {
			continue // a value that is not a number, or a failed run
		}
		label := strings.Join(slices.Delete(slices.Clone(v.values), x, x+1), ", ")
		if _, ok := lines[label]; !ok {
			order = append(order, label)
		}
		lines[label] = append(lines[label], plotter.XY{X: norm(xs), Y: v.figures.ContactDuration})
	}
	for k, label := range order {
		l, s, err := plotter.NewLinePoints(lines[label])
		if err != nil {
			return false, err
		}
		l.Color, s.Color = plotutil.Color(k), plotutil.Color(k)
		p.Add(l, s)
		if label != "" {
			p.Legend.Add(label, l, s)
		}
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "png")
		if err != nil {
			return err
		}
		_, err = wt.WriteTo(w)
		return err
	})
	return err == nil, err
}

func norm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}
