//go:build long

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlurmTimeLimit: a variant longer than its Slurm time limit (one
// minute) is stopped by it, writes its checkpoint, is requeued
// (--requeue) and resumes: the gathered figures are those of the run
// never stopped. The variant is sized to take about 210 s on this machine
// as it is loaded now (6 million steps took 52 s on CI once the outputs
// cost less, and never met the limit; sized to 150 s under a load that
// then lifted, it took 69 s and ended before Slurm, which checks its
// limits every 30 s or so, stopped it). Each attempt resumes where the one
// before stopped, and
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
	set := fmt.Sprintf("time.duration=%d.0", klarbringSeconds(t, dir, 210*time.Second))
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
	log, _ := os.ReadFile(filepath.Join(remote, "slurm", "variant_1.out"))
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

// klarbringSeconds is the klarbring example's duration (s of simulated
// time, steps of 1 ms) that a sweep's variant takes about want to run on
// this machine now: it times a variant of 300 s (300 000 steps).
func klarbringSeconds(t *testing.T, dir string, want time.Duration) int {
	const seconds = 300
	start := time.Now()
	code, stdout, stderr := fecontact("sweep", "klarbring", "--set", fmt.Sprintf("time.duration=%d.0", seconds), "-o", filepath.Join(dir, "calibration"), "--jobs", "1")
	require.Equal(t, 0, code, stdout+stderr)
	took := time.Since(start)
	return max(int(float64(seconds)*want.Seconds()/took.Seconds()), 100)
}
