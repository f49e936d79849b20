package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fecontact/fecontact/internal/vtkcheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets a test run this binary as the fecontact command (with
// FECONTACT_AS_MAIN set), so that it can be sent signals.
func TestMain(m *testing.M) {
	if os.Getenv("FECONTACT_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestKilledRun interrupts runs with SIGINT at moments from set-up to the
// end: each leaves a folder whose .pvd files VTK opens, whose every listed
// piece exists, whose history.csv is complete up to the step summary.txt
// names, and no temporary file. A rerun into the same folder clears the
// older pieces.
func TestKilledRun(t *testing.T) {
	dir := t.TempDir()
	for _, delay := range []time.Duration{0, 20 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 900 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "example", "colliding-blocks", "--refine", "2", "--every", "5", "--quiet", "-o", dir)
		cmd.Env = append(os.Environ(), "FECONTACT_AS_MAIN=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		// The first line comes once the model is built, the handler long
		// installed: a signal before it would find the Go runtime's default.
		first := bufio.NewReader(stdout)
		_, err = first.ReadString('\n')
		require.NoError(t, err)
		go io.Copy(io.Discard, first)
		time.Sleep(delay)
		require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
		err = cmd.Wait()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		}
		require.Contains(t, []int{0, 130}, code, "delay %v: %s", delay, stderr.String())
		summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
		require.NoError(t, err, "delay %v", delay)
		steps := 750
		if code == 130 {
			assert.Contains(t, stderr.String(), "interrupted after step")
			require.Contains(t, string(summary), "INTERRUPTED after step")
			steps = atoiPrefix(t, strings.TrimPrefix(string(summary), "INTERRUPTED after step "))
		}
		hist := readCSV(t, filepath.Join(dir, "history.csv"))
		assert.Len(t, hist, steps+2, "delay %v: header, the initial state and one row per step", delay)
		tmp, _ := filepath.Glob(filepath.Join(dir, ".*"))
		assert.Empty(t, tmp, "no temporary file")
		for _, pvd := range []string{"bodies.pvd", "contacts.pvd"} {
			pieces := vtkcheck.Read(t, filepath.Join(dir, pvd))
			for _, p := range pieces {
				assert.Zero(t, p.Errors, p.File)
			}
			all, _ := filepath.Glob(filepath.Join(dir, strings.TrimSuffix(pvd, ".pvd")+"_*.vtu"))
			assert.Len(t, all, len(pieces), "delay %v: %s lists every piece in the folder, no stale one", delay, pvd)
		}
	}
}

func atoiPrefix(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	require.Positive(t, n, s)
	return n
}

func readCSV(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err, path)
	return rows
}
