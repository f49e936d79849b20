package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/sweep"
)

// slurmCluster starts a one-node Slurm cluster of its own under a
// temporary folder (its own ports, munge key and socket, so that it never
// meets a system Slurm), points SLURM_CONF at it for the test, and stops
// every daemon it started when the test ends. It skips the test, saying
// how to install Slurm, where the daemons are missing.
func slurmCluster(t *testing.T) {
	t.Helper()
	for _, prog := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed (apt-get install --no-install-recommends slurmctld slurmd slurm-client munge)", prog)
		}
	}
	dir, err := os.MkdirTemp("", "slurm") // short: a socket's path has a length limit
	require.NoError(t, err)
	for _, d := range []string{"munge/etc", "munge/run", "munge/log", "munge/lib", "state", "spool", "log"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	require.NoError(t, os.Chmod(filepath.Join(dir, "munge/etc"), 0o700))
	key := make([]byte, 1024)
	for i := range key {
		key[i] = byte(i*7919 + time.Now().Nanosecond())
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "munge/etc/munge.key"), key, 0o400))
	host, err := exec.Command("hostname", "-s").Output()
	require.NoError(t, err)
	node := strings.TrimSpace(string(host))
	socket := filepath.Join(dir, "munge/run/munge.socket")
	conf := fmt.Sprintf(`ClusterName=fecontact
SlurmctldHost=%[1]s
SlurmUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[5]s
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
KillWait=10
NodeName=%[1]s CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, node, dir, freePort(t), freePort(t), socket)
	confPath := filepath.Join(dir, "slurm.conf")
	require.NoError(t, os.WriteFile(confPath, []byte(conf), 0o644))
	t.Setenv("SLURM_CONF", confPath)
	t.Setenv("FECONTACT_AS_MAIN", "1") // the jobs run this test binary as fecontact
	start := func(name string, args ...string) {
		out, err := exec.Command(name, args...).CombinedOutput()
		require.NoError(t, err, "%s: %s", name, out)
	}
	start("munged", "--key-file="+filepath.Join(dir, "munge/etc/munge.key"), "--socket="+socket, "--pid-file="+filepath.Join(dir, "munge/run/munged.pid"),
		"--log-file="+filepath.Join(dir, "munge/log/munged.log"), "--seed-file="+filepath.Join(dir, "munge/lib/munge.seed"), "--force")
	start("slurmctld")
	start("slurmd", "-N", node)
	t.Cleanup(func() {
		for _, pid := range []string{"slurmd.pid", "slurmctld.pid", "munge/run/munged.pid"} {
			if b, err := os.ReadFile(filepath.Join(dir, pid)); err == nil {
				exec.Command("kill", strings.TrimSpace(string(b))).Run()
			}
		}
		time.Sleep(500 * time.Millisecond)
		os.RemoveAll(dir)
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		out, _ := exec.Command("sinfo", "--noheader", "-o", "%T").Output()
		if strings.TrimSpace(string(out)) == "idle" {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "log/slurmctld.log"))
			t.Fatalf("the Slurm node did not come up: sinfo says %q; slurmctld.log:\n%s", out, log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestSlurmSweep: a sweep of 8 variants of the klarbring example (mu from
// 0.1 to 0.8) as a Slurm job array on a one-node cluster gives the local
// sweep's sweep.csv value for value; cancelling an array leaves the
// gathering to mark the variants that did not run. The study's folder has
// a name that a shell would run and Slurm would expand: the jobs take it
// as characters (the #SBATCH lines' paths included).
func TestSlurmSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("a Slurm cluster and 16 runs")
	}
	slurmCluster(t)
	dir := t.TempDir()
	set := "point_contact.plane.mu=0.1..0.8/8"
	local, remote := filepath.Join(dir, "local"), filepath.Join(dir, `slurm $(touch PWNED) 'q' "%j" $HOME`)
	code, stdout, stderr := fecontact("sweep", "klarbring", "--set", set, "-o", local)
	require.Equal(t, 0, code, stdout+stderr)
	code, stdout, stderr = fecontact("sweep", "klarbring", "--set", set, "-o", remote, "--engine", "slurm", "--array-limit", "2", "--wait")
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stdout, "submitted 8 variants as Slurm job array")
	assert.Contains(t, stdout, "(8 variants: 8 with figures, 0 failed, 0 without a result)")
	a, err := os.ReadFile(filepath.Join(local, "sweep.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(remote, "sweep.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
	log, err := os.ReadFile(filepath.Join(remote, "slurm", "variant_3.out"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "done: 20000 steps", "the task's log is the run's summary")
	pwned, _ := filepath.Glob(filepath.Join(dir, "*", "PWNED"))
	assert.Empty(t, pwned, "the folder's name was run")
	assert.NoFileExists(t, "PWNED")

	// Cancelled at once: the gathering runs all the same (afterany) and
	// marks what has no result.
	cancelled := filepath.Join(dir, "cancelled")
	code, stdout, stderr = fecontact("sweep", "klarbring", "--set", set, "-o", cancelled, "--engine", "slurm", "--array-limit", "1")
	require.Equal(t, 0, code, stdout+stderr)
	id := strings.Fields(strings.SplitAfter(stdout, "job array ")[1])[0]
	require.NoError(t, exec.Command("scancel", id).Run())
	gather := strings.Fields(strings.SplitAfter(stdout, "gathering as job ")[1])[0]
	require.NoError(t, sweep.WaitJob(t.Context(), gather))
	csv, err := os.ReadFile(filepath.Join(cancelled, "sweep.csv"))
	require.NoError(t, err)
	assert.Contains(t, string(csv), "no result: not run, stopped or cancelled")
}
