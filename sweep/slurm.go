package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/fecontact/fecontact/internal/atomicfile"
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

// SubmitSlurm writes the job scripts of the planned study into its
// folder (Write first, and the Plan still holds it) and submits the
// variants as one job array and the gathering as a job that runs after
// it, however it ends (afterany: a cancelled array is gathered too). It
// releases the folder (Close) for the jobs.
//
// The scripts carry the user's strings (the folder, the program's path)
// single-quoted, so that bash expands nothing in them, and the #SBATCH
// lines only values checked to be of Slurm's forms: a folder named
// runs/x_$(touch PWNED) is a folder, never a command.
func (p *Plan) SubmitSlurm(ctx context.Context, o Slurm) (Jobs, error) {
	defer p.Close()
	if p.files == nil {
		return Jobs{}, fmt.Errorf("%s: the study is not written (Plan.Write) or was released", p.dir)
	}
	abs, err := filepath.Abs(p.dir)
	if err != nil {
		return Jobs{}, err
	}
	if err := o.check(abs); err != nil {
		return Jobs{}, err
	}
	if _, err := p.files.Sub("slurm"); err != nil {
		return Jobs{}, err
	}
	for k := range p.Len() { // the logs Slurm writes for us
		if _, err := p.files.Path(fmt.Sprintf("slurm/variant_%d.out", k+1)); err != nil {
			return Jobs{}, err
		}
	}
	if _, err := p.files.Path("slurm/gather.out"); err != nil {
		return Jobs{}, err
	}
	script, err := p.writeScript("sweep.sbatch", arrayScript(abs, p.Len(), o))
	if err != nil {
		return Jobs{}, err
	}
	gather, err := p.writeScript("gather.sbatch", gatherScript(abs, o))
	if err != nil {
		return Jobs{}, err
	}
	p.Close() // the gathering job takes the folder
	var j Jobs
	if j.Array, err = sbatch(ctx, script); err != nil {
		return j, err
	}
	if j.Gather, err = sbatch(ctx, "--dependency=afterany:"+j.Array, gather); err != nil {
		return j, fmt.Errorf("%w (the array, job %s, is submitted: scancel %s to stop it)", err, j.Array, j.Array)
	}
	return j, nil
}

// writeScript writes an executable job script into the study's folder.
func (p *Plan) writeScript(name, text string) (string, error) {
	path, err := p.files.Path(name)
	if err != nil {
		return "", err
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
	if err == nil {
		err = os.Chmod(path, 0o755)
	}
	return path, err
}

// Slurm's forms of a time limit (minutes, minutes:seconds,
// hours:minutes:seconds, days-hours, days-hours:minutes,
// days-hours:minutes:seconds, or no limit) and of a partition list.
var (
	slurmTime      = regexp.MustCompile(`^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|UNLIMITED|INFINITE|unlimited|infinite)$`)
	slurmPartition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
)

// check refuses what could not reach a script safely: a time or
// partition not of Slurm's forms, a control character in the folder or
// the program's path.
func (o Slurm) check(abs string) error {
	switch {
	case o.Time != "" && !slurmTime.MatchString(o.Time):
		return fmt.Errorf("--time %q: expected a Slurm time limit: minutes (30), hours:minutes:seconds (2:00:00) or days-hours (1-0)", o.Time)
	case o.Partition != "" && !slurmPartition.MatchString(o.Partition):
		return fmt.Errorf("--partition %q: expected a partition name of letters, digits, '_', '.' and '-' (several separated by commas)", o.Partition)
	case hasControl(abs):
		return fmt.Errorf("output folder %q: a control character (a newline?) in its path, which a job script cannot carry: give another folder", abs)
	case hasControl(o.Program):
		return fmt.Errorf("program %q: a control character in its path, which a job script cannot carry", o.Program)
	}
	return nil
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// shellQuote quotes s for bash: between single quotes nothing is
// expanded, and a single quote is closed, escaped and reopened.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sbatchPath quotes a file pattern for an #SBATCH line: its % doubled
// (Slurm expands %a, %j in it), within double quotes that sbatch takes
// whole, with its backslashes and double quotes escaped.
func sbatchPath(dir, name string) string {
	p := strings.ReplaceAll(dir, "%", "%%") + "/" + name
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`
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
		fmt.Sprintf("#SBATCH --cpus-per-task=%d", max(o.CPUs, 1)), "#SBATCH --output=" + sbatchPath(abs, "slurm/variant_%a.out"), "#SBATCH --open-mode=append"}
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
%s sweep run %s "$SLURM_ARRAY_TASK_ID" &
pid=$!
wait $pid
code=$?
while kill -0 $pid 2>/dev/null; do wait $pid; code=$?; done
if [ "$code" -eq 130 ] && [ %s = yes ]; then
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
fi
exit $code
`, shellQuote(o.Program), shellQuote(abs), requeue)
	return strings.Join(head, "\n") + "\n" + body
}

// gatherScript is the gathering job's script.
func gatherScript(abs string, o Slurm) string {
	head := []string{"#!/bin/bash", "#SBATCH --job-name=fecontact-gather", "#SBATCH --output=" + sbatchPath(abs, "slurm/gather.out")}
	if o.Partition != "" {
		head = append(head, "#SBATCH --partition="+o.Partition)
	}
	return strings.Join(head, "\n") + fmt.Sprintf("\n%s sweep gather %s\n", shellQuote(o.Program), shellQuote(abs))
}

// sbatch submits a script and returns its job id.
func sbatch(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("sbatch %s refused the job (is this a Slurm cluster's login node, its controller up? the plan is written: submit it there with the same command, or run it with --engine local): %s",
				strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
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
