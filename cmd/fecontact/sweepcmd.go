package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/sweep"
)

// sets collects the repeated --set flags.
type sets []sweep.Setting

func (s *sets) String() string { return "" }

func (s *sets) Set(arg string) error {
	st, err := sweep.ParseSetting(arg)
	if err != nil {
		return err
	}
	*s = append(*s, st)
	return sweep.CheckCount(*s, st.Key)
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
	overwrite := fs.Bool("overwrite", false, "write into an output folder that holds files fecontact did not write (the others stay)")
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
	case so.opt.CPUs < 1 || so.opt.ArrayLimit < 0:
		return fmt.Errorf("%w: --cpus-per-task %d, --array-limit %d: expected at least 1 CPU and a limit >= 0", errUsage, so.opt.CPUs, so.opt.ArrayLimit)
	}
	// SIGINT and SIGTERM end the running variants after their current
	// step (each run sees the signal too) and start no more.
	ctx, stop := interruptible()
	defer stop()
	p, err := planSweep(pos[0], *out, set, outdir.Options{Overwrite: *overwrite, Command: commandLine("sweep", args)}, stdout)
	if err != nil {
		return err
	}
	defer p.Close()
	if *engine == "slurm" {
		return submitSlurm(ctx, p, so, stdout)
	}
	fmt.Fprintf(stdout, "%s: %s, %d at once, in %s\n", p.Scene(), plural.S(p.Len(), "variant"), *jobs, *out)
	t := p.Run(ctx, *jobs, sweep.Options{Command: "fecontact sweep", Version: version()}, func(k int, err error) {
		status := "done"
		if err != nil {
			status = "failed"
		}
		fmt.Fprintf(stdout, "variant %d (%s): %s\n", k+1, p.Describe(k), status)
	})
	for k, r := range t.Rows {
		if r.Err != nil {
			fmt.Fprintf(stdout, "variant %d (%s) failed: %v\n", k+1, p.Describe(k), r.Err)
		}
	}
	err = reportSweep(p, t, stdout)
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %d of %d variants did not finish (sweep.csv marks them)", errInterrupted, t.Failed, p.Len())
	}
	return err
}

// planSweep plans the variants of the scene or example arg into folder
// out (sweep.New, Plan.Write): a key that names nothing is a usage error.
func planSweep(arg, out string, set sets, o outdir.Options, stdout io.Writer) (*sweep.Plan, error) {
	base, err := loadScene(arg)
	if err != nil {
		return nil, err
	}
	p, err := sweep.New(base, set, out, version())
	var bad *sweep.SettingError
	if errors.As(err, &bad) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	} else if err != nil {
		return nil, err
	}
	n, err := p.Write(o)
	if n > 0 {
		fmt.Fprintf(stdout, "removed %s of an earlier sweep from %s\n", plural.N(n, "file or folder", "files and folders"), out)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// sweepRunCmd runs variant K of a planned sweep into its folder
// (Plan.RunVariant: resumed when an earlier attempt was stopped) and
// prints its summary: what a Slurm task runs.
func sweepRunCmd(args []string, stdout io.Writer) error {
	const usage = "fecontact sweep run DIR K (K from 1: a Slurm task's SLURM_ARRAY_TASK_ID)"
	if len(args) != 2 {
		return fmt.Errorf("%w: usage: %s", errUsage, usage)
	}
	p, err := sweep.Open(args[0], version())
	if err != nil {
		return err
	}
	k, err := strconv.Atoi(args[1])
	if err != nil || k < 1 || k > p.Len() {
		return fmt.Errorf("%w: variant %q: expected a number from 1 to %d", errUsage, args[1], p.Len())
	}
	ctx, stop := interruptible()
	defer stop()
	opt := sweep.Options{Command: "fecontact sweep run " + args[0], Version: version(), Warn: func(line string) { fmt.Fprintln(stdout, line) }}
	r, err := p.RunVariant(ctx, k-1, opt)
	if r != nil {
		io.WriteString(stdout, r.Summary)
	}
	return err
}

// sweepGatherCmd gathers a planned sweep's figures from its variants'
// folders into sweep.csv and sweep.png (Plan.Gather).
func sweepGatherCmd(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: usage: fecontact sweep gather DIR", errUsage)
	}
	p, err := sweep.Open(args[0], version())
	if err != nil {
		return err
	}
	return reportSweep(p, p.Gather(), stdout)
}

// reportSweep writes sweep.csv and sweep.png and says what they hold.
func reportSweep(p *sweep.Plan, t *sweep.Table, stdout io.Writer) error {
	files, err := p.WriteTable(t, plots.Painter{})
	if err != nil {
		return err
	}
	n := len(t.Rows)
	fmt.Fprintf(stdout, "wrote %s: %s and variant_*/ (%d variants: %d with figures, %d failed, %d without a result)\n", p.Dir(), strings.Join(files, ", "), n, n-t.Failed-t.Missing, t.Failed, t.Missing)
	if t.Failed+t.Missing > 0 {
		return fmt.Errorf("%d of %d variants failed and %d have no result (sweep.csv marks them)", t.Failed, n, t.Missing)
	}
	return nil
}
