package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fecontact/fecontact/sweep"
)

// slurmFlags are the flags of --engine slurm.
type slurmFlags struct {
	opt sweep.Slurm
	// wait waits for the gathering and prints its result.
	wait bool
}

func addSlurmFlags(fs *flag.FlagSet) *slurmFlags {
	o := &slurmFlags{}
	fs.IntVar(&o.opt.ArrayLimit, "array-limit", 0, "with --engine slurm: at most this many variants at once (sbatch --array=1-N%LIMIT; 0: Slurm's choice)")
	fs.IntVar(&o.opt.CPUs, "cpus-per-task", 1, "with --engine slurm: CPUs per variant (GOMAXPROCS of its run)")
	fs.StringVar(&o.opt.Time, "time", "", "with --engine slurm: each variant's time limit (sbatch --time, as 30, 2:00:00 or 1-0)")
	fs.StringVar(&o.opt.Partition, "partition", "", "with --engine slurm: the partition (sbatch --partition)")
	fs.BoolVar(&o.opt.Requeue, "requeue", false, "with --engine slurm: a variant stopped by its time limit is requeued and resumes from its checkpoint")
	fs.BoolVar(&o.wait, "wait", false, "with --engine slurm: wait for the gathering and print its result")
	return o
}

// submitSlurm submits a planned sweep to Slurm (Plan.SubmitSlurm), with
// this executable as the jobs' program, says how to follow it and, with
// --wait, waits for the gathering and prints what it wrote.
func submitSlurm(ctx context.Context, p *sweep.Plan, o *slurmFlags, stdout io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	so := o.opt
	so.Program = self
	jobs, err := p.SubmitSlurm(ctx, so)
	if err != nil {
		return err
	}
	logs, _ := filepath.Abs(filepath.Join(p.Dir(), "slurm"))
	fmt.Fprintf(stdout, "submitted %d variants as Slurm job array %s and their gathering as job %s (after it); follow them with: squeue -j %s,%s; the variants' logs are in %s; cancel with: scancel %s\n",
		p.Len(), jobs.Array, jobs.Gather, jobs.Array, jobs.Gather, logs, jobs.Array)
	if !o.wait {
		return nil
	}
	if err := sweep.WaitJob(ctx, jobs.Gather); err != nil {
		return err
	}
	out, _ := os.ReadFile(filepath.Join(logs, "gather.out"))
	fmt.Fprint(stdout, string(out))
	if strings.Contains(string(out), "without a result)") && !strings.Contains(string(out), ", 0 failed, 0 without a result)") {
		return errors.New("some variants failed or have no result (sweep.csv marks them)")
	}
	return nil
}
