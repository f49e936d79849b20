package sweep

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// standIns writes a stand-in sbatch, which runs the job script it is
// given under bash as Slurm would (task 1 of an array), and a stand-in
// fecontact, which records its arguments one per line in log; it puts
// them first on PATH and returns the stand-in fecontact's path.
func standIns(t *testing.T, log string) string {
	t.Helper()
	bin := t.TempDir()
	sbatch := `#!/bin/bash
script="${@: -1}"
cd "$(dirname "$script")"
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=7 SLURM_CPUS_PER_TASK=1 bash "$script" >/dev/null 2>&1
echo 7
`
	program := `#!/bin/bash
for a in "$@"; do printf '%s\n' "$a" >> ` + shellQuote(log) + `; done
echo --- >> ` + shellQuote(log) + `
`
	require.NoError(t, os.WriteFile(filepath.Join(bin, "sbatch"), []byte(sbatch), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "srun"), []byte("#!/bin/bash\ntouch SRUN_RAN\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "fecontact"), []byte(program), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return filepath.Join(bin, "fecontact")
}

// TestSlurmScriptsRunNothingElse writes the job scripts of studies in
// hostile folders and runs them under bash through a stand-in sbatch:
// the only command run is fecontact, with the folder as one argument,
// exactly; command substitutions, backticks, variables, quotes and
// Slurm's % patterns in the folder's name stay characters. Values that
// would end an #SBATCH line (a newline in the folder, the partition or
// the time) or are not of Slurm's forms are refused by name.
func TestSlurmScriptsRunNothingElse(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root := t.TempDir()
	t.Chdir(root)
	for _, name := range []string{"x_$(touch PWNED)", "x_`touch PWNED`", "x'; touch PWNED; '", "$HOME", `x"$(touch PWNED)"`, `back\slash`, "job_%j_%a", "a b  c"} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "args.log")
			program := standIns(t, log)
			dir := filepath.Join(root, "runs", name)
			p := ballPlan(t, dir, "time.h=1e-3|2e-3")
			jobs, err := p.SubmitSlurm(t.Context(), Slurm{Program: program, CPUs: 1, Time: "30", Partition: "debug,long"})
			require.NoError(t, err)
			assert.Equal(t, Jobs{Array: "7", Gather: "7"}, jobs)
			data, err := os.ReadFile(log)
			require.NoError(t, err)
			abs, _ := filepath.Abs(dir)
			assert.Equal(t, "sweep\nrun\n"+abs+"\n1\n---\nsweep\ngather\n"+abs+"\n---\n", string(data))
			var ran []string
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Name() == "PWNED" {
					ran = append(ran, p)
				}
				return nil
			})
			assert.Empty(t, ran, "a command of the folder's name ran")
			assert.NoFileExists(t, filepath.Join(abs, "SRUN_RAN"))
			script, err := os.ReadFile(filepath.Join(abs, "sweep.sbatch"))
			require.NoError(t, err)
			want := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(strings.ReplaceAll(abs, "%", "%%") + "/slurm/variant_%a.out")
			assert.Contains(t, string(script), `#SBATCH --output="`+want+`"`+"\n")
		})
	}
	program := standIns(t, filepath.Join(root, "args.log"))
	for _, tc := range []struct {
		dir  string
		o    Slurm
		want string
	}{
		{"new\nline", Slurm{}, "a control character (a newline?) in its path, which a job script cannot carry"},
		{"ok", Slurm{Partition: "debug\ntouch PWNED"}, `--partition "debug\ntouch PWNED": expected a partition name of letters`},
		{"ok", Slurm{Partition: "a b"}, `--partition "a b": expected a partition name`},
		{"ok", Slurm{Time: "1:00\ntouch PWNED"}, `--time "1:00\ntouch PWNED": expected a Slurm time limit`},
		{"ok", Slurm{Time: "$(touch PWNED)"}, `--time "$(touch PWNED)": expected a Slurm time limit`},
	} {
		p := ballPlan(t, filepath.Join(root, "refused", tc.dir), "time.h=1e-3|2e-3")
		tc.o.Program = program
		_, err := p.SubmitSlurm(t.Context(), tc.o)
		assert.ErrorContains(t, err, tc.want)
		assert.NoFileExists(t, filepath.Join(root, "args.log"), "nothing was submitted")
	}
	found, _ := filepath.Glob(filepath.Join(root, "PWNED"))
	assert.Empty(t, found)
}

// TestSlurmTimeForms: every form of sbatch --time is taken.
func TestSlurmTimeForms(t *testing.T) {
	for _, tm := range []string{"30", "30:00", "2:00:00", "1-0", "1-12:00", "1-12:00:00", "UNLIMITED"} {
		assert.NoError(t, Slurm{Time: tm}.check("/tmp"), tm)
	}
}
