package main

import (
	"context"
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

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// runFlags are the flags shared by run and example.
type runFlags struct {
	out       *string
	refine    *int
	kind      *string
	steps     *int
	every     *int
	export    *int
	quiet     *bool
	check     *string
	overwrite *bool
	strict    *bool
	// command is the command line that made the run, for its provenance.
	command string
}

func newRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{
		out:       fs.String("o", "out", "output folder"),
		refine:    fs.Int("refine", 1, "multiply the cells of every generated rectangle by this in each direction"),
		kind:      fs.String("kind", "", "replace the cell kind of every generated rectangle: T3, Q4, T6 or Q8"),
		steps:     fs.Int("steps", 0, "stop after this many steps (0: the scene's duration)"),
		every:     fs.Int("every", 0, "write the fields every this many steps (0: the scene's [output] every)"),
		export:    fs.Int("export-step", 0, "write the contact problem of this step to DIR/problem_STEP.json (the fc2d exchange format)"),
		quiet:     fs.Bool("quiet", false, "print only warnings and the summary"),
		check:     fs.String("checkpoint", "", "write DIR/checkpoint.gob every this many steps (500), every this long (10m), or off (default: every 10m, when interrupted and at the end)"),
		strict:    fs.Bool("strict", false, "stop the run at the first step whose contact problem is not solved to its tolerance instead of counting it: the error names the step, the outputs stop before it (no summary), and --resume goes on from the last checkpoint"),
		overwrite: fs.Bool("overwrite", false, "write into an output folder that holds files fecontact did not write (files of the names it writes are replaced, the others stay)"),
	}
}

func runCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stdout)
	rf := newRunFlags(fs)
	resume := fs.String("resume", "", "go on with the stopped (or finished) run in this folder from its checkpoint, to its end or to --until")
	until := fs.Float64("until", 0, "with --resume: run on to this time (s), past the run's own end")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact run SCENE.toml|EXAMPLE [-o DIR] [--refine N] [--kind Q8] [--checkpoint 10m]\n       fecontact run --resume DIR [--until T]\n\nRuns a scene and writes DIR/bodies.pvd, DIR/contacts.pvd, DIR/history.csv,\nDIR/energy.png, DIR/bodies.png and DIR/checkpoint.gob, from which --resume\ngoes on with a stopped run as if it had never stopped.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	rf.command = commandLine("run", args)
	untilSet := false
	fs.Visit(func(f *flag.Flag) { untilSet = untilSet || f.Name == "until" })
	if untilSet && !(*until > 0 && *until < math.Inf(1)) {
		return fmt.Errorf("%w: --until %g: expected a time in s past the run's (leave --until out to run to the run's own end)", errUsage, *until)
	}
	if *resume != "" {
		return resumeRun(fs, pos, *resume, *until, rf, stdout)
	}
	if untilSet {
		return fmt.Errorf("%w: --until %g: only with --resume DIR (a new run's end is the scene's duration or --steps)", errUsage, *until)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one scene file or example name, got %d arguments", errUsage, len(pos))
	}
	sc, err := loadScene(pos[0])
	if err != nil {
		return err
	}
	_, err = simulate(sc, rf, stdout)
	return err
}

// resumeRun goes on with the run in dir (run.Resume); the flags that
// would make another run than the checkpoint's are refused by name.
func resumeRun(fs *flag.FlagSet, pos []string, dir string, until float64, rf runFlags, stdout io.Writer) error {
	if len(pos) > 0 {
		return fmt.Errorf("%w: --resume %s takes the scene beside its checkpoint (%s): leave out %q", errUsage, dir, run.SceneAsRun, pos[0])
	}
	var clash []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "o", "refine", "kind", "steps", "every", "export-step", "overwrite", "strict":
			clash = append(clash, "--"+f.Name)
		}
	})
	if len(clash) > 0 {
		return fmt.Errorf("%w: --resume %s goes on with the run as it was started: leave out %s (--until T runs it longer)", errUsage, dir, strings.Join(clash, ", "))
	}
	ctx, stop := interruptible()
	defer stop()
	opt, done, err := runOptions(rf, stdout)
	if err != nil {
		return err
	}
	opt.Until = until
	r, err := run.Resume(ctx, dir, opt)
	done()
	if r != nil {
		io.WriteString(stdout, r.Summary)
	}
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
		return writeExample(pos[0], *sceneDir, *rf.overwrite, stdout)
	}
	rf.command = commandLine("example", args)
	_, err = simulate(sc, rf, stdout)
	return err
}

// writeExample copies a built-in example's files (its scene.toml, with
// its comments, and the meshes it reads) into dir, to read and edit: an
// installed binary has no examples folder beside it. A file of the same
// name there (a scene edited since) is replaced only with overwrite.
func writeExample(name, dir string, overwrite bool, stdout io.Writer) error {
	files, err := examples.Files(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: --scene %s: %v: give a folder to write the example's files into", errUsage, dir, err)
	}
	if !overwrite {
		err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
			dst := filepath.Join(dir, filepath.FromSlash(path))
			if _, serr := os.Lstat(dst); err == nil && !d.IsDir() && serr == nil {
				return fmt.Errorf("%w: %s exists: --overwrite to replace it with the example's, or another --scene folder", errUsage, dst)
			}
			return err
		})
		if err != nil {
			return err
		}
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
	if _, err := exampleText(name); err != nil {
		return nil, err // a usage error
	}
	return scene.Example(name)
}

// simulate runs a scene with the flags (run.Scene), printing as it goes
// and the summary at the end, and returns the figures a sweep gathers.
func simulate(sc *scene.Scene, rf runFlags, stdout io.Writer) (results.Figures, error) {
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
	opt, done, err := runOptions(rf, stdout)
	if err != nil {
		return results.Figures{}, err
	}
	opt.Dir, opt.Variant, opt.Steps, opt.Every = *rf.out, scene.Variant{Refine: *rf.refine, Kind: *rf.kind}, *rf.steps, *rf.every
	opt.ExportStep, opt.Overwrite = *rf.export, *rf.overwrite
	if *rf.strict {
		sc.Solver.Strict = true
	}
	r, err := run.Scene(ctx, sc, opt)
	done()
	if r == nil {
		return results.Figures{}, err
	}
	io.WriteString(stdout, r.Summary)
	return r.Figures, err
}

// runOptions are the options of a run (new or resumed) that print as it
// goes: its progress, what it says and its warnings, its checkpoints;
// done ends the progress display.
func runOptions(rf runFlags, stdout io.Writer) (run.Options, func(), error) {
	var policy run.Checkpoint
	if *rf.check != "" {
		var err error
		if policy, err = run.ParseCheckpoint(*rf.check); err != nil {
			return run.Options{}, nil, fmt.Errorf("%w: --%v", errUsage, err)
		}
	}
	var prog *progress
	opt := run.Options{Command: rf.command, Version: version(), Checkpoint: policy,
		Progress: func(done, total int, sim *timestep.Simulation) {
			if prog == nil {
				prog = newProgress(stdout, total, *rf.quiet)
			}
			prog.update(done, sim)
		},
		Warn: func(line string) { fmt.Fprintln(stdout, line) },
	}
	if !*rf.quiet {
		opt.Say = func(line string) { fmt.Fprintln(stdout, line) }
	}
	return opt, func() {
		if prog != nil {
			prog.done()
		}
	}, nil
}

// errInterrupted is a command stopped by SIGINT or SIGTERM (exit status
// 130).
var errInterrupted = run.ErrInterrupted

// interruptible returns a context that SIGINT or SIGTERM ends, for a
// command to stop at its next consistent point; the first signal also
// gives the signals back their default action at once, so that a second
// one kills the process at any moment, set-up included (a second Ctrl-C
// during a long factorisation was caught and ignored).
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		<-ctx.Done()
		select {
		case <-done: // the command ended: no signal came
			return
		default:
		}
		stop()
		fmt.Fprintln(os.Stderr, interruptNotice)
	}()
	return ctx, func() { close(done); stop() }
}

// interruptNotice is what a command says on stderr when a signal asks it
// to stop: at once, so that a user (or a test) knows the signal came.
const interruptNotice = "fecontact: interrupted: stopping at the next consistent point (a second signal kills at once)"
