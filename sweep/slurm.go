package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fecontact/fecontact/run"
)

// Slurm says how a study is submitted to a Slurm cluster.
type Slurm struct {
	// Program is the fecontact executable the jobs run ("sweep run DIR K"
	// for each variant, "sweep gather DIR" at the end).
	Program string
	// ArrayLimit bounds the variants run at once (sbatch --array=1-N%L;
	// 0: Slurm's choice); CPUs is each variant's (its GOMAXPROCS).
	ArrayLimit, CPUs int
	// Time is each variant's time limit (sbatch --time), Partition the
	// partition; both may be empty.
	Time, Partition string
	// Requeue requeues a variant stopped by its time limit, whose next
	// attempt resumes from its checkpoint.
	Requeue bool
}

// Jobs are a submitted study's Slurm job ids.
type Jobs struct {
	Array, Gather string
}

// SubmitSlurm writes the job scripts of the planned study (Write first)
// and submits the variants as one job array and the gathering as a job
// that runs after it, however it ends (afterany: a cancelled array is
// gathered too).
func (p *Plan) SubmitSlurm(ctx context.Context, o Slurm) (Jobs, error) {
	abs, err := filepath.Abs(p.dir)
	if err != nil {
		return Jobs{}, err
	}
	if err := os.MkdirAll(filepath.Join(abs, "slurm"), 0o755); err != nil {
		return Jobs{}, err
	}
	script := filepath.Join(abs, "sweep.sbatch")
	if err := os.WriteFile(script, []byte(arrayScript(abs, p.Len(), o)), 0o755); err != nil {
		return Jobs{}, err
	}
	gather := filepath.Join(abs, "gather.sbatch")
	if err := os.WriteFile(gather, []byte(gatherScript(abs, o)), 0o755); err != nil {
		return Jobs{}, err
	}
	var j Jobs
	if j.Array, err = sbatch(ctx, script); err != nil {
		return j, err
	}
	if j.Gather, err = sbatch(ctx, "--dependency=afterany:"+j.Array, gather); err != nil {
		return j, fmt.Errorf("%w (the array, job %s, is submitted: scancel %s to stop it)", err, j.Array, j.Array)
	}
	return j, nil
}

// arrayScript is the job array's script. The run goes in the background
// and the script waits: bash runs its TERM trap at once (Slurm's time
// limit sends TERM to every process of the job, the run included, which
// writes its checkpoint and exits 130), then requeues the task, whose
// next attempt resumes.
func arrayScript(abs string, n int, o Slurm) string {
	array := fmt.Sprintf("1-%d", n)
	if o.ArrayLimit > 0 {
		array += fmt.Sprintf("%%%d", o.ArrayLimit)
	}
	head := []string{"#!/bin/bash", "#SBATCH --job-name=fecontact-sweep", "#SBATCH --array=" + array,
		fmt.Sprintf("#SBATCH --cpus-per-task=%d", max(o.CPUs, 1)), "#SBATCH --output=" + filepath.Join(abs, "slurm", "variant_%a.out"), "#SBATCH --open-mode=append"}
	if o.Time != "" {
		head = append(head, "#SBATCH --time="+o.Time)
	}
	if o.Partition != "" {
		head = append(head, "#SBATCH --partition="+o.Partition)
	}
	requeue := "no"
	if o.Requeue {
		head = append(head, "#SBATCH --requeue")
		requeue = "yes"
	}
	body := fmt.Sprintf(`export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
trap 'echo "fecontact sweep: stopped (time limit or scancel)"' TERM
%q sweep run %q "$SLURM_ARRAY_TASK_ID" &
pid=$!
wait $pid
code=$?
while kill -0 $pid 2>/dev/null; do wait $pid; code=$?; done
if [ "$code" -eq 130 ] && [ %s = yes ]; then
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
fi
exit $code
`, o.Program, abs, requeue)
	return strings.Join(head, "\n") + "\n" + body
}

// gatherScript is the gathering job's script.
func gatherScript(abs string, o Slurm) string {
	head := []string{"#!/bin/bash", "#SBATCH --job-name=fecontact-gather", "#SBATCH --output=" + filepath.Join(abs, "slurm", "gather.out")}
	if o.Partition != "" {
		head = append(head, "#SBATCH --partition="+o.Partition)
	}
	return strings.Join(head, "\n") + fmt.Sprintf("\n%q sweep gather %q\n", o.Program, abs)
}

// sbatch submits a script and returns its job id.
func sbatch(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("sbatch %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("sbatch: %w (is Slurm installed here? --engine local runs the sweep on this machine)", err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "ID;cluster" on a federation
	return id, nil
}

// WaitJob waits until squeue no longer lists the job; once ctx is done it
// returns run.ErrInterrupted (the job goes on).
func WaitJob(ctx context.Context, id string) error {
	for {
		out, err := exec.CommandContext(ctx, "squeue", "--noheader", "-j", id).CombinedOutput()
		if err == nil && strings.TrimSpace(string(out)) == "" || err != nil && strings.Contains(string(out), "Invalid job id") {
			return nil
		}
		if err != nil {
			return fmt.Errorf("squeue -j %s: %s", id, strings.TrimSpace(string(out)))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w while waiting for job %s (it goes on: squeue -j %s)", run.ErrInterrupted, id, id)
		case <-time.After(time.Second):
		}
	}
}
