package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// runFlags are the flags shared by run and example.
type runFlags struct {
	out    *string
	refine *int
	kind   *string
	steps  *int
	every  *int
	export *int
	quiet  *bool
	// command is the command line that made the run, for its provenance.
	command string
}

func newRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{
		out:    fs.String("o", "out", "output folder"),
		refine: fs.Int("refine", 1, "multiply the cells of every generated rectangle by this in each direction"),
		kind:   fs.String("kind", "", "replace the cell kind of every generated rectangle: T3, Q4, T6 or Q8"),
		steps:  fs.Int("steps", 0, "stop after this many steps (0: the scene's duration)"),
		every:  fs.Int("every", 0, "write the fields every this many steps (0: the scene's [output] every)"),
		export: fs.Int("export-step", 0, "write the contact problem of this step to DIR/problem_STEP.json (the fc2d exchange format)"),
		quiet:  fs.Bool("quiet", false, "print only warnings and the summary"),
	}
}

func runCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stdout)
	rf := newRunFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact run SCENE.toml|EXAMPLE [-o DIR] [--refine N] [--kind Q8]\n\nRuns a scene and writes DIR/bodies.pvd, DIR/contacts.pvd, DIR/history.csv,\nDIR/energy.png and DIR/bodies.png.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one scene file or example name, got %d arguments", errUsage, len(pos))
	}
	sc, err := loadScene(pos[0])
	if err != nil {
		return err
	}
	rf.command = commandLine("run", args)
	_, err = simulate(sc, rf, stdout)
	return err
}

// commandLine is a command as the user typed it, quoted where needed.
func commandLine(name string, args []string) string {
	words := []string{"fecontact", name}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$|&;<>()*?[]") {
			a = strconv.Quote(a)
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

func exampleCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("example", flag.ContinueOnError)
	fs.SetOutput(stdout)
	rf := newRunFlags(fs)
	sceneDir := fs.String("scene", "", "write the example's annotated scene (and its mesh files) into this folder instead of running it")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: fecontact example NAME [-o DIR] [--refine N] [--kind Q8] [--scene DIR]\n\nexamples: %v\n", examples.Names())
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one example name (%v)", errUsage, examples.Names())
	}
	sc, err := exampleScene(pos[0])
	if err != nil {
		return err
	}
	if *sceneDir != "" {
		return writeExample(pos[0], *sceneDir, stdout)
	}
	rf.command = commandLine("example", args)
	_, err = simulate(sc, rf, stdout)
	return err
}

// writeExample copies a built-in example's files (its scene.toml, with
// its comments, and the meshes it reads) into dir, to read and edit: an
// installed binary has no examples folder beside it.
func writeExample(name, dir string, stdout io.Writer) error {
	files, err := examples.Files(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: --scene %s: %v: give a folder to write the example's files into", errUsage, dir, err)
	}
	var wrote []string
	err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		wrote = append(wrote, path)
		return atomicfile.Write(dst, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s (run it with: fecontact run %s)\n", dir, strings.Join(wrote, ", "), filepath.Join(dir, "scene.toml"))
	return nil
}

// exampleText is a built-in example's scene file.
func exampleText(name string) ([]byte, error) {
	data, err := examples.Scene(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return data, nil
}

// exampleScene decodes a built-in example, reading the meshes it names
// from its embedded folder.
func exampleScene(name string) (*scene.Scene, error) {
	data, err := exampleText(name)
	if err != nil {
		return nil, err
	}
	sc, err := scene.Decode(bytes.NewReader(data), "examples/"+name+"/scene.toml")
	if err != nil {
		return nil, err
	}
	sc.Files, err = examples.Files(name)
	return sc, err
}

// simulate builds and runs a scene, writing the outputs as it goes, and
// returns the figures a sweep gathers.
func simulate(sc *scene.Scene, rf runFlags, stdout io.Writer) (results.Figures, error) {
	start := time.Now()
	// SIGINT and SIGTERM end the run after the current step (the first
	// step when they come during set-up), with every output complete up
	// to it; a second signal kills at once.
	ctx, stop := interruptible()
	defer stop()
	switch {
	case *rf.refine < 1:
		return results.Figures{}, fmt.Errorf("%w: --refine %d: expected a whole number >= 1", errUsage, *rf.refine)
	case *rf.steps < 0:
		return results.Figures{}, fmt.Errorf("%w: --steps %d: expected a number of steps >= 1 (0 or absent: the scene's duration)", errUsage, *rf.steps)
	case *rf.every < 0:
		return results.Figures{}, fmt.Errorf("%w: --every %d: expected a number of steps >= 1 (0 or absent: the scene's [output] every)", errUsage, *rf.every)
	case *rf.export < 0:
		return results.Figures{}, fmt.Errorf("%w: --export-step %d: expected a step number >= 1", errUsage, *rf.export)
	case *rf.export > sc.Steps():
		return results.Figures{}, fmt.Errorf("%w: --export-step %d: the scene has %d steps", errUsage, *rf.export, sc.Steps())
	}
	model, err := sc.Model(scene.Variant{Refine: *rf.refine, Kind: *rf.kind})
	if err != nil {
		return results.Figures{}, err
	}
	// The step may solve several problems (a correction, Newton updates):
	// each overwrites the file, which keeps the last, the one applied.
	var exported, solved int
	exportPath := filepath.Join(*rf.out, fmt.Sprintf("problem_%d.json", *rf.export))
	export := func(step int, p *signorini.Problem) error {
		if step != *rf.export {
			return nil
		}
		if err := signorini.WriteProblem(exportPath, fmt.Sprintf("%s step %d", sc.Name, step), p); err != nil {
			return err
		}
		exported, solved = p.W.Contacts(), solved+1
		return nil
	}
	defer func() {
		if solved > 0 {
			fmt.Fprintf(stdout, "wrote %s (%d contacts; the last of the %d problems step %d solved, the one whose solution it applied)\n", exportPath, exported, solved, *rf.export)
		}
	}()
	if err := os.MkdirAll(*rf.out, 0o755); err != nil {
		return results.Figures{}, err
	}
	sim, err := model.Simulation(export)
	if err != nil {
		return results.Figures{}, err
	}
	setup := time.Since(start)
	steps := sc.Steps()
	if *rf.steps > 0 {
		steps = min(steps, *rf.steps)
	}
	if *rf.every > 0 {
		sc.Output.Every = *rf.every
	}
	if err := os.MkdirAll(*rf.out, 0o755); err != nil {
		return results.Figures{}, err
	}
	if n, err := results.Clear(*rf.out); err != nil {
		return results.Figures{}, err
	} else if n > 0 && !*rf.quiet {
		fmt.Fprintf(stdout, "removed %d files of an earlier run from %s\n", n, *rf.out)
	}
	if err := atomicfile.Write(filepath.Join(*rf.out, sceneAsRun), func(w io.Writer) error {
		_, err := io.WriteString(w, sc.Text)
		return err
	}); err != nil {
		return results.Figures{}, err
	}
	enc, _ := vtk.ParseEncoding(sc.Output.Encoding)
	gaps, _ := sc.GapPairs() // checked with the scene
	opt := results.Options{Encoding: enc, Pictures: sc.Output.Pictures, Gaps: gaps}
	if p := sc.Output.Profile; p != nil {
		opt.Profile = &results.Profile{Strips: p.Strips, Bottom: p.Y[0], Top: p.Y[1], From: p.From, Window: p.Window}
	}
	out, err := results.NewWriter(*rf.out, sim, opt)
	if err != nil {
		return results.Figures{}, err
	}
	dofs := 0
	for _, b := range model.Bodies {
		dofs += b.Space.N()
	}
	rigidBodies := ""
	if model.Rigid != nil {
		rigidBodies = fmt.Sprintf(", %d rigid bodies", len(model.Rigid.Bodies))
	}
	if !*rf.quiet {
		fmt.Fprintf(stdout, "%s: %d bodies, %d DOFs%s, %d steps of %g s (setup and factorisation %.2f s)\n",
			sc.Name, len(model.Bodies), dofs, rigidBodies, steps, sc.Time.H, setup.Seconds())
	}
	for _, w := range model.Warnings() {
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	prog := newProgress(stdout, steps, *rf.quiet)
	var sum summary
	if err := out.Record(timestep.StepStats{}, true); err != nil {
		return results.Figures{}, out.Abandon(err)
	}
	loop := time.Now()
	done := 0
	for done < steps {
		st, err := sim.Step()
		if err != nil {
			return results.Figures{}, out.Abandon(fmt.Errorf("%s: %w", sc.Name, err))
		}
		done++
		sum.add(st)
		for _, w := range sim.RotationWarnings() {
			fmt.Fprintf(stdout, "warning: %s\n", w)
			sum.warnings = append(sum.warnings, w)
		}
		interrupted := ctx.Err() != nil
		if err := out.Record(st, done%sc.Output.Every == 0 || done == steps || interrupted); err != nil {
			return results.Figures{}, out.Abandon(err)
		}
		prog.update(done, sim)
		if interrupted {
			break
		}
	}
	elapsed := time.Since(loop)
	prog.done()
	if err := out.Close(); err != nil {
		return results.Figures{}, err
	}
	var report bytes.Buffer
	if done < steps {
		fmt.Fprintf(&report, "INTERRUPTED after step %d of %d (t = %.6g s): every output in %s is complete up to that step\n", done, steps, sim.Stepper.Time(), *rf.out)
	}
	fmt.Fprintf(&report, "made by: %s, %s\ncommand: %s\nscene: %s (as run: %s)\n",
		version(), start.Format(time.RFC3339), rf.command, sc.Name, sceneAsRun)
	sum.print(&report, sim, out.InitialBalance(), done, elapsed, *rf.out)
	if model.Rigid != nil {
		path := filepath.Join(*rf.out, "state.json")
		if err := results.WriteState(path, results.StateOf(sc.Name, done, sim.Stepper.Time(), model.Rigid)); err != nil {
			return results.Figures{}, err
		}
		fmt.Fprintf(&report, "wrote %s: the rigid bodies at t = %.6g s (fecontact explore --state)\n", path, sim.Stepper.Time())
	}
	perStep := elapsed.Seconds() / float64(max(done, 1))
	if sim.Stepper.NumBodies() > 0 {
		solve := solveTime(sim)
		fmt.Fprintf(&report, "cost: %.3g ms per step = %.2f x one solve of every body with the same factors (%.3g ms); peak memory %s\n",
			1e3*perStep, perStep/solve.Seconds(), 1e3*solve.Seconds(), peakMemory())
	} else {
		fmt.Fprintf(&report, "cost: %.3g ms per step; peak memory %s\n", 1e3*perStep, peakMemory())
	}
	stdout.Write(report.Bytes())
	if err := atomicfile.Write(filepath.Join(*rf.out, "summary.txt"), func(w io.Writer) error {
		_, err := w.Write(report.Bytes())
		return err
	}); err != nil {
		return results.Figures{}, err
	}
	if done < steps {
		return out.Figures(), fmt.Errorf("%w after step %d of %d; the outputs in %s are complete up to it (summary.txt says so)", errInterrupted, done, steps, *rf.out)
	}
	return out.Figures(), nil
}

// sceneAsRun is the copy of the scene a run keeps in its folder: named
// apart from the user's scene.toml, which a run into its own folder must
// not overwrite or clear.
const sceneAsRun = "scene-as-run.toml"

// errInterrupted is a run stopped by SIGINT or SIGTERM (exit status 130).
var errInterrupted = errors.New("interrupted")

// interruptible returns a context that SIGINT or SIGTERM ends, for a
// command to stop at its next consistent point; the first signal also
// gives the signals back their default action at once, so that a second
// one kills the process at any moment, set-up included (a second Ctrl-C
// during a long factorisation was caught and ignored).
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// solveTime is the best of five forward-and-backward substitutions with
// every body's factor, one after the other: the floor of a step's cost.
func solveTime(sim *timestep.Simulation) time.Duration {
	best := time.Duration(math.MaxInt64)
	for k := 0; k < 5; k++ {
		start := time.Now()
		for i := 0; i < sim.Stepper.NumBodies(); i++ {
			b := sim.Stepper.Body(i)
			x := make([]float64, b.Space.N())
			sim.Stepper.Solve(i, x, b.V)
		}
		best = min(best, time.Since(start))
	}
	return best
}

// peakMemory reads the process's peak resident memory (Linux), or says it
// is unknown.
func peakMemory() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}
