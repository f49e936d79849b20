//go:build long

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlurmTimeLimit: a variant longer than its Slurm time limit (one
// minute) is stopped by it, writes its checkpoint, is requeued
// (--requeue) and resumes: the gathered figures are those of the run
// never stopped. Each attempt resumes where the one before stopped, and
// stops (the checkpoint written) well within Slurm's grace (KillWait, 10 s
// here): a resumed run's folder of thousands of pieces is reopened in
// milliseconds (it took 36 s, and the second attempt was killed). About
// ten minutes (Slurm holds a requeued task about two minutes before it
// starts again):
//
//	go test -tags long -run TestSlurmTimeLimit -v ./cmd/fecontact/
func TestSlurmTimeLimit(t *testing.T) {
	slurmCluster(t)
	dir := t.TempDir()
	// 6 million steps: 90 s of CPU on one core here, 4 min beside the local
	// run and another package's tests: two to four attempts.
	set := "time.duration=6000.0"
	local, remote := filepath.Join(dir, "local"), filepath.Join(dir, "slurm")
	done := make(chan string)
	go func() {
		code, stdout, stderr := fecontact("sweep", "klarbring", "--set", set, "-o", local, "--jobs", "1")
		if code != 0 {
			done <- stdout + stderr
		}
		close(done)
	}()
	code, stdout, stderr := fecontact("sweep", "klarbring", "--set", set, "-o", remote, "--engine", "slurm", "--time", "1", "--requeue", "--wait")
	log, err := os.ReadFile(filepath.Join(remote, "slurm", "variant_1.out"))
	require.NoError(t, err)
	require.Equal(t, 0, code, "%s%s\nthe variant's log:\n%s", stdout, stderr, log)
	if msg, failed := <-done; failed {
		t.Fatal(msg)
	}
	assert.Contains(t, string(log), "INTERRUPTED after step", "the time limit stopped it")
	a, err := os.ReadFile(filepath.Join(local, "sweep.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(remote, "sweep.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
}
