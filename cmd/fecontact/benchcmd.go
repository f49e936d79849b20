package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// benchRow is one refinement's figures, as a child process reports them.
type benchRow struct {
	Refine        int
	DOFs          int
	Setup         float64 // s: model, matrices and factorisation
	Steps         int
	Stepping      float64 // s
	Solve         float64 // s: one solve of every body, the best of five
	FactorBytes   float64 // of every body's L, streamed twice by a solve
	Units, Sweeps float64 // per step with contact
	Depth         float64 // m: the deepest node inside the other body over the run (StepStats.Deepest)
	PeakKB        int
	// Run is the same steps on the path users run (run.Scene with the
	// scene's outputs, into a folder removed afterwards): its summary's
	// elapsed time, the steps and every output, the pictures included.
	Run float64 // s
}

func benchCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stdout)
	refines := fs.String("refine", "1,2,4,8,16", "the refinements to run, comma-separated")
	kind := fs.String("kind", "", "cell kind of every rectangle: T3, Q4, T6 or Q8 (default: the scene's)")
	steps := fs.Int("steps", 0, "steps per run (0: the scene's duration)")
	row := fs.Bool("row", false, "run one refinement in this process and print its figures as JSON (what the table's rows call)")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: fecontact bench [--refine 1,2,4,8,16] [--kind Q4] [--steps N] [NAME]\n\n"+
			"Runs a built-in example (default colliding-blocks) at each refinement, each in a\n"+
			"process of its own so that its peak memory is its own, without writing files,\n"+
			"then again as fecontact run does, with the scene's outputs into a temporary\n"+
			"folder (the run's cost beside the bare step's), and prints the performance\n"+
			"table of docs/performance.md.\n")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	name := "colliding-blocks"
	if len(pos) > 1 {
		return fmt.Errorf("%w: expected at most one example name (%v)", errUsage, examples.Names())
	} else if len(pos) == 1 {
		name = pos[0]
	}
	var rs []int
	for _, f := range strings.Split(*refines, ",") {
		r, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || r < 1 {
			return fmt.Errorf("%w: --refine %q: expected whole numbers >= 1, comma-separated", errUsage, *refines)
		}
		rs = append(rs, r)
	}
	if *steps < 0 {
		return fmt.Errorf("%w: --steps %d: expected a number of steps >= 1 (0: the scene's duration)", errUsage, *steps)
	}
	if *row {
		if len(rs) != 1 {
			return fmt.Errorf("%w: --row runs one refinement", errUsage)
		}
		r, err := benchOne(name, rs[0], *kind, *steps, os.Stderr)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(r)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s, GOMAXPROCS %d\n\n", name, runtime.GOMAXPROCS(0))
	fmt.Fprintln(stdout, "| refine | DOFs | setup + factorisation | steps | per step | step / one solve | solve bandwidth | contact units, sweeps | deepest node inside | peak memory | per step with outputs |")
	fmt.Fprintln(stdout, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rs {
		cmd := exec.Command(exe, "bench", "--row", "--refine", strconv.Itoa(r), "--kind", *kind, "--steps", strconv.Itoa(*steps), name)
		// The row's progress goes to stderr as it comes: the table on
		// stdout stays a table.
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, io.MultiWriter(os.Stderr, &errs)
		if err := cmd.Run(); err != nil {
			lines := strings.Split(strings.TrimSpace(errs.String()+out.String()), "\n")
			return fmt.Errorf("refine %d: %v: %s", r, err, lines[len(lines)-1])
		}
		var b benchRow
		if err := json.Unmarshal(out.Bytes(), &b); err != nil {
			return fmt.Errorf("refine %d: the row's output %q: %w", r, out.String(), err)
		}
		fmt.Fprintln(stdout, b.markdown())
	}
	return nil
}

// markdown is the row as docs/performance.md's table prints it.
func (b benchRow) markdown() string {
	per := b.Stepping / float64(b.Steps)
	run := b.Run / float64(b.Steps)
	return fmt.Sprintf("| %d | %d | %.2f s | %.2f s | %.3g ms | %.2f | %.1f GB/s | %.1f, %.1f | %.3g um | %d MB | %.3g ms (%.2f x) |",
		b.Refine, b.DOFs, b.Setup, b.Stepping, 1e3*per, per/b.Solve, 2*b.FactorBytes/b.Solve/1e9, b.Units, b.Sweeps, 1e6*b.Depth, b.PeakKB/1024,
		1e3*run, run/per)
}

// benchOne runs one refinement of an example without output files, its
// progress to w.
func benchOne(name string, refine int, kind string, steps int, w io.Writer) (benchRow, error) {
	sc, err := exampleScene(name)
	if err != nil {
		return benchRow{}, err
	}
	start := time.Now()
	model, err := sc.Model(scene.Variant{Refine: refine, Kind: kind})
	if err != nil {
		return benchRow{}, err
	}
	sim, err := model.Simulation()
	if err != nil {
		return benchRow{}, err
	}
	b := benchRow{Refine: refine, Setup: time.Since(start).Seconds(), Steps: sc.Steps()}
	if steps > 0 {
		b.Steps = min(steps, b.Steps)
	}
	for i, body := range model.Bodies {
		b.DOFs += body.Space.N()
		b.FactorBytes += 8 * float64(sim.Stepper.FactorStats(i).NNZL)
	}
	var sum run.Stats
	tick := newTicker(w, fmt.Sprintf("%s refine %d: step", name, refine), b.Steps)
	start = time.Now()
	for k := 0; k < b.Steps; k++ {
		st, err := sim.Step()
		if err != nil {
			return benchRow{}, err
		}
		sum.Add(st)
		tick.tick(k+1, nil)
	}
	b.Stepping = time.Since(start).Seconds()
	b.Solve = run.OneSolve(sim).Seconds()
	if sum.ContactSteps > 0 {
		b.Units = float64(sum.Units) / float64(sum.ContactSteps)
		b.Sweeps = float64(sum.Sweeps) / float64(sum.ContactSteps)
	}
	b.Depth = sum.Deepest.Deepest.Depth
	b.PeakKB, _ = strconv.Atoi(strings.TrimSuffix(run.PeakMemory(), " kB"))
	if b.Run, err = benchRun(sc, scene.Variant{Refine: refine, Kind: kind}, b.Steps); err != nil {
		return benchRow{}, err
	}
	return b, nil
}

// benchRun runs the steps as fecontact run does, with the scene's
// outputs into a temporary folder that it removes, and returns the run's
// elapsed time (summary.json's: the steps, their outputs and the
// pictures, not the set-up).
func benchRun(sc *scene.Scene, v scene.Variant, steps int) (float64, error) {
	dir, err := os.MkdirTemp("", "fecontact-bench-")
	if err != nil {
		return 0, fmt.Errorf("the run with outputs needs a temporary folder in %s (TMPDIR): %w; set TMPDIR to a folder it can write", os.TempDir(), err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "run")
	if _, err := run.Scene(context.Background(), sc, run.Options{Dir: out, Variant: v, Steps: steps, Version: version()}); err != nil {
		return 0, fmt.Errorf("the run with outputs: %w", err)
	}
	var sum run.Summary
	data, err := os.ReadFile(filepath.Join(out, run.SummaryJSON))
	if err == nil {
		err = json.Unmarshal(data, &sum)
	}
	if err != nil {
		return 0, fmt.Errorf("the run with outputs: %w", err)
	}
	return float64(sum.Elapsed.Value), nil
}
