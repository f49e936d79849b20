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
// never stopped. About eight minutes (492 s here: Slurm holds a requeued
// task about two minutes before it starts again):
//
//	go test -tags long -run TestSlurmTimeLimit -v ./cmd/fecontact/
func TestSlurmTimeLimit(t *testing.T) {
	slurmCluster(t)
	dir := t.TempDir()
	set := "time.duration=10000.0" // 10 million steps: about 3 min, well past the limit and its grace
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
	require.Equal(t, 0, code, stdout+stderr)
	if msg, failed := <-done; failed {
		t.Fatal(msg)
	}
	log, err := os.ReadFile(filepath.Join(remote, "slurm", "variant_1.out"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "INTERRUPTED after step", "the time limit stopped it")
	a, err := os.ReadFile(filepath.Join(local, "sweep.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(remote, "sweep.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
}
