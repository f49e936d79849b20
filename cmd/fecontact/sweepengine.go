package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// A sweep is planned, its variants run, and their figures gathered: the
// local engine does the three here; the slurm engine plans here, submits
// each variant as a task of a Slurm job array (fecontact sweep run DIR K)
// and the gathering as a job that waits for it (fecontact sweep gather
// DIR).

// manifestFile describes a planned sweep in its folder.
const manifestFile = "sweep.json"

// manifest is what a sweep's steps need to find its variants: the base
// scene as it was (its text, and where its meshes are), the settings.
type manifest struct {
	Version  string     `json:"version"`
	Scene    string     `json:"scene"`   // its name, for messages
	Dir      string     `json:"dir"`     // the folder its meshes are read from
	Example  string     `json:"example"` // or the built-in example it is
	Text     string     `json:"text"`
	Set      []setEntry `json:"set"`
	Variants int        `json:"variants"`
}

type setEntry struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

func (m manifest) sets() sets {
	var s sets
	for _, e := range m.Set {
		s = append(s, setting{key: e.Key, values: e.Values})
	}
	return s
}

// planSweep checks every variant of the base scene and writes the
// manifest into a cleared folder; it returns the variants and their
// scenes.
func planSweep(arg, out string, set sets, stdout io.Writer) (manifest, []*variant, []*scene.Scene, error) {
	base, err := loadScene(arg)
	if err != nil {
		return manifest{}, nil, nil, err
	}
	text, err := sceneText(arg)
	if err != nil {
		return manifest{}, nil, nil, err
	}
	m := manifest{Version: version(), Scene: base.Name, Dir: absDir(base.Dir), Example: base.Example, Text: text}
	for _, s := range set {
		m.Set = append(m.Set, setEntry{s.key, s.values})
	}
	variants, scenes, err := m.variants(out)
	if err != nil {
		return manifest{}, nil, nil, err
	}
	m.Variants = len(variants)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return manifest{}, nil, nil, err
	}
	if n, err := results.ClearFiles(out, "sweep.csv", "sweep.png", "variant_[0-9][0-9][0-9]*", manifestFile, "sweep.sbatch", "gather.sbatch", "slurm"); err != nil {
		return manifest{}, nil, nil, err
	} else if n > 0 {
		fmt.Fprintf(stdout, "removed %d files and folders of an earlier sweep from %s\n", n, out)
	}
	for k, v := range variants {
		if err := os.MkdirAll(v.dir, 0o755); err != nil {
			return manifest{}, nil, nil, err
		}
		note := fmt.Sprintf("# variant %d of the sweep in %s: %s\n", k+1, out, describe(set, v))
		if err := os.WriteFile(filepath.Join(v.dir, "scene.toml"), []byte(note+scenes[k].Text), 0o644); err != nil {
			return manifest{}, nil, nil, err
		}
	}
	err = atomicfile.Write(filepath.Join(out, manifestFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
	return m, variants, scenes, err
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil && dir != "" {
		return abs
	}
	return dir
}

// variants makes every variant's scene from the base text: a bad value
// is an error at once, not after the others' hours.
func (m manifest) variants(out string) ([]*variant, []*scene.Scene, error) {
	set := m.sets()
	variants := product(set)
	scenes := make([]*scene.Scene, len(variants))
	for k, v := range variants {
		v.dir = filepath.Join(out, fmt.Sprintf("variant_%03d", k+1))
		t := m.Text
		var err error
		for i, s := range set {
			if t, err = scene.Override(t, s.key, v.values[i]); err != nil {
				return nil, nil, fmt.Errorf("%w: %v", errUsage, err)
			}
		}
		if scenes[k], err = scene.Decode(strings.NewReader(t), m.Scene); err != nil {
			return nil, nil, fmt.Errorf("variant %d (%s): %w", k+1, describe(set, v), err)
		}
		scenes[k].Dir = m.Dir
		if m.Example != "" {
			if scenes[k].Files, err = examples.Files(m.Example); err != nil {
				return nil, nil, err
			}
			scenes[k].Example = m.Example
		}
	}
	return variants, scenes, nil
}

// plannedSweep checks a step's arguments (n of them, the folder first)
// and reads the folder's manifest.
func plannedSweep(args []string, n int, usage string) (string, manifest, error) {
	if len(args) != n {
		return "", manifest{}, fmt.Errorf("%w: usage: %s", errUsage, usage)
	}
	m, err := readManifest(args[0])
	return args[0], m, err
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	path := filepath.Join(dir, manifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return m, fmt.Errorf("%s: %w (a sweep's folder has one once it is planned)", path, err)
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Variants < 1 {
		return m, fmt.Errorf("%s: not a sweep's manifest, or damaged", path)
	}
	if n := m.sets().variants(); n != float64(m.Variants) || n > maxVariants {
		return m, fmt.Errorf("%s: its settings make %.4g variants, it says %d (at most %d): damaged; plan the sweep again", path, n, m.Variants, maxVariants)
	}
	return m, nil
}

// figuresFile holds a finished variant's figures, for the gathering;
// failedFile a failed one's error.
const (
	figuresFile = "figures.json"
	failedFile  = "failed.txt"
)

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

// sweepRunCmd runs variant K of a planned sweep into its folder: from
// its checkpoint when an earlier attempt was stopped (a Slurm task
// requeued after its time limit), else from the start; it keeps the
// figures (or the error) for the gathering.
func sweepRunCmd(args []string, stdout io.Writer) error {
	dir, m, err := plannedSweep(args, 2, "fecontact sweep run DIR K (K from 1: a Slurm task's SLURM_ARRAY_TASK_ID)")
	if err != nil {
		return err
	}
	k, err := strconv.Atoi(args[1])
	if err != nil || k < 1 || k > m.Variants {
		return fmt.Errorf("%w: variant %q: expected a number from 1 to %d", errUsage, args[1], m.Variants)
	}
	variants, scenes, err := m.variants(dir)
	if err != nil {
		return err
	}
	v := variants[k-1]
	os.Remove(filepath.Join(v.dir, figuresFile))
	os.Remove(filepath.Join(v.dir, failedFile))
	rf := variantFlags(v.dir, fmt.Sprintf("fecontact sweep run %s %d: %s", dir, k, describe(m.sets(), v)))
	figures, err := runOrResume(scenes[k-1], rf, stdout)
	return keepResult(v.dir, figures, err)
}

// variantFlags are the flags of a variant's run: every run flag at its
// default, the variant's folder, quiet.
func variantFlags(dir, command string) runFlags {
	rf := newRunFlags(flag.NewFlagSet("variant", flag.ContinueOnError))
	*rf.out, *rf.quiet, rf.command = dir, true, command
	return rf
}

// keepResult keeps a variant's result for the gathering: its figures, or
// its error; an interrupted one keeps none (its checkpoint is there, and
// its next attempt resumes). It returns the run's error, or the write's.
func keepResult(dir string, figures results.Figures, err error) error {
	switch {
	case errors.Is(err, errInterrupted):
		return err
	case err != nil:
		if werr := os.WriteFile(filepath.Join(dir, failedFile), []byte(err.Error()+"\n"), 0o644); werr != nil {
			return werr
		}
		return err
	}
	return writeFigures(dir, figures)
}

// runOrResume resumes the run in the flags' folder from its checkpoint
// when it has an unfinished one, and runs the scene otherwise.
func runOrResume(sc *scene.Scene, rf runFlags, stdout io.Writer) (results.Figures, error) {
	if _, err := os.Stat(filepath.Join(*rf.out, run.CheckpointFile)); err == nil {
		if _, err := os.Stat(filepath.Join(*rf.out, "history.csv.partial")); err == nil || unfinished(*rf.out) {
			ctx, stop := interruptible()
			defer stop()
			opt, done, err := runOptions(rf, stdout, nil)
			if err != nil {
				return results.Figures{}, err
			}
			r, err := run.Resume(ctx, *rf.out, opt)
			done()
			if r == nil {
				return results.Figures{}, err
			}
			io.WriteString(stdout, r.Summary)
			return r.Figures, err
		}
	}
	return simulate(sc, rf, stdout)
}

// unfinished tells whether a run folder's summary says it was interrupted.
func unfinished(dir string) bool {
	s, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	return err == nil && strings.HasPrefix(string(s), "INTERRUPTED")
}

// sweepGatherCmd reads the figures of a planned sweep's variants into
// sweep.csv and sweep.png, marking the failed ones with their error and
// the ones with no result (not run, stopped, cancelled).
func sweepGatherCmd(args []string, stdout io.Writer) error {
	dir, m, err := plannedSweep(args, 1, "fecontact sweep gather DIR")
	if err != nil {
		return err
	}
	variants, _, err := m.variants(dir)
	if err != nil {
		return err
	}
	missing, failed := 0, 0
	for _, v := range variants {
		if v.figures, err = readFigures(v.dir); err == nil {
			continue
		}
		if msg, ferr := os.ReadFile(filepath.Join(v.dir, failedFile)); ferr == nil {
			v.err, failed = errors.New(strings.TrimSpace(string(msg))), failed+1
			continue
		}
		v.err, missing = errors.New("no result: not run, stopped or cancelled"), missing+1
	}
	return reportSweep(dir, m.sets(), variants, missing, failed, stdout)
}

// reportSweep writes sweep.csv and sweep.png and says what they hold.
func reportSweep(dir string, set sets, variants []*variant, missing, failed int, stdout io.Writer) error {
	drawn, err := writeSweep(dir, set, variants)
	if err != nil {
		return err
	}
	files := "sweep.csv"
	if drawn {
		files += ", sweep.png"
	}
	fmt.Fprintf(stdout, "wrote %s: %s and variant_*/ (%d variants: %d with figures, %d failed, %d without a result)\n", dir, files, len(variants), len(variants)-failed-missing, failed, missing)
	if failed+missing > 0 {
		return fmt.Errorf("%d of %d variants failed and %d have no result (sweep.csv marks them)", failed, len(variants), missing)
	}
	return nil
}

// slurmOptions are the flags of --engine slurm.
type slurmOptions struct {
	limit, cpus     int
	time, partition string
	requeue, wait   bool
}

func addSlurmFlags(fs *flag.FlagSet) *slurmOptions {
	o := &slurmOptions{}
	fs.IntVar(&o.limit, "array-limit", 0, "with --engine slurm: at most this many variants at once (sbatch --array=1-N%LIMIT; 0: Slurm's choice)")
	fs.IntVar(&o.cpus, "cpus-per-task", 1, "with --engine slurm: CPUs per variant (GOMAXPROCS of its run)")
	fs.StringVar(&o.time, "time", "", "with --engine slurm: each variant's time limit (sbatch --time, as 30, 2:00:00 or 1-0)")
	fs.StringVar(&o.partition, "partition", "", "with --engine slurm: the partition (sbatch --partition)")
	fs.BoolVar(&o.requeue, "requeue", false, "with --engine slurm: a variant stopped by its time limit is requeued and resumes from its checkpoint")
	fs.BoolVar(&o.wait, "wait", false, "with --engine slurm: wait for the gathering and print its result")
	return o
}

// submitSlurm writes the job scripts of a planned sweep and submits the
// variants as one job array and the gathering as a job that runs after
// it, however it ends (afterany: a cancelled array is gathered too).
func submitSlurm(ctx context.Context, dir string, n int, o *slurmOptions, stdout io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(abs, "slurm"), 0o755); err != nil {
		return err
	}
	array := fmt.Sprintf("1-%d", n)
	if o.limit > 0 {
		array += fmt.Sprintf("%%%d", o.limit)
	}
	head := []string{"#!/bin/bash", "#SBATCH --job-name=fecontact-sweep", "#SBATCH --array=" + array,
		fmt.Sprintf("#SBATCH --cpus-per-task=%d", o.cpus), "#SBATCH --output=" + filepath.Join(abs, "slurm", "variant_%a.out"), "#SBATCH --open-mode=append"}
	if o.time != "" {
		head = append(head, "#SBATCH --time="+o.time)
	}
	if o.partition != "" {
		head = append(head, "#SBATCH --partition="+o.partition)
	}
	if o.requeue {
		head = append(head, "#SBATCH --requeue")
	}
	requeue := "no"
	if o.requeue {
		requeue = "yes"
	}
	// The run in the background and wait: bash runs its TERM trap at once
	// (Slurm's time limit sends TERM to every process of the job, the run
	// included, which writes its checkpoint and exits 130), then requeues
	// the task, whose next attempt resumes.
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
`, self, abs, requeue)
	script := filepath.Join(abs, "sweep.sbatch")
	if err := os.WriteFile(script, []byte(strings.Join(head, "\n")+"\n"+body), 0o755); err != nil {
		return err
	}
	gather := filepath.Join(abs, "gather.sbatch")
	ghead := []string{"#!/bin/bash", "#SBATCH --job-name=fecontact-gather", "#SBATCH --output=" + filepath.Join(abs, "slurm", "gather.out")}
	if o.partition != "" {
		ghead = append(ghead, "#SBATCH --partition="+o.partition)
	}
	if err := os.WriteFile(gather, []byte(strings.Join(ghead, "\n")+fmt.Sprintf("\n%q sweep gather %q\n", self, abs)), 0o755); err != nil {
		return err
	}
	arrayID, err := sbatch(ctx, script)
	if err != nil {
		return err
	}
	gatherID, err := sbatch(ctx, "--dependency=afterany:"+arrayID, gather)
	if err != nil {
		return fmt.Errorf("%w (the array, job %s, is submitted: scancel %s to stop it)", err, arrayID, arrayID)
	}
	fmt.Fprintf(stdout, "submitted %d variants as Slurm job array %s and their gathering as job %s (after it); follow them with: squeue -j %s,%s; the variants' logs are in %s; cancel with: scancel %s\n",
		n, arrayID, gatherID, arrayID, gatherID, filepath.Join(abs, "slurm"), arrayID)
	if !o.wait {
		return nil
	}
	if err := waitJob(ctx, gatherID); err != nil {
		return err
	}
	out, _ := os.ReadFile(filepath.Join(abs, "slurm", "gather.out"))
	fmt.Fprint(stdout, string(out))
	if strings.Contains(string(out), "without a result)") && !strings.Contains(string(out), ", 0 failed, 0 without a result)") {
		return errors.New("some variants failed or have no result (sweep.csv marks them)")
	}
	return nil
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

// waitJob waits until squeue no longer lists the job.
func waitJob(ctx context.Context, id string) error {
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
			return fmt.Errorf("%w while waiting for job %s (it goes on: squeue -j %s)", errInterrupted, id, id)
		case <-time.After(time.Second):
		}
	}
}
