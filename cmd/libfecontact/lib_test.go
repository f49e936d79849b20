package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// buildLibrary builds libfecontact.so into dir as the header says to;
// skipped without a C compiler (cgo's), except on CI.
func buildLibrary(t *testing.T, dir string) (cc string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	gobin, err2 := exec.LookPath("go")
	if err != nil || err2 != nil || os.Getenv("CGO_ENABLED") == "0" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must have go and a C compiler for the C ABI (Debian's gcc)")
		}
		t.Skip("no go or C compiler on PATH, or cgo off: the C ABI is not built")
	}
	if testing.Short() {
		t.Skip("building the shared library takes a minute")
	}
	lib := filepath.Join(dir, "libfecontact.so")
	out, err := exec.Command(gobin, "build", "-buildmode=c-shared", "-o", lib, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return cc
}

// The C test (testdata/blocks.c) steps the colliding blocks through the C
// ABI: its history is the run's, byte for byte on the 22 columns both
// have, the upper block leaves at the README's velocity, every refusal is
// a code and a message, and 10 000 open/free cycles leave the resident
// memory flat.
func TestCSteps(t *testing.T) {
	dir := t.TempDir()
	cc := buildLibrary(t, dir)
	prog := filepath.Join(dir, "blocks")
	out, err := exec.Command(cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-I.", "-o", prog, "testdata/blocks.c",
		"-L"+dir, "-lfecontact", "-lm", "-Wl,-rpath,"+dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, "colliding-blocks")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "%s", stderr.String())
	t.Log(stderr.String())
	assert.Contains(t, stderr.String(), "the upper block leaves at (-65.39, 40.01) m/s")

	sc, err := scene.Example("colliding-blocks")
	require.NoError(t, err)
	runDir := filepath.Join(dir, "run")
	_, err = run.Scene(context.Background(), sc, run.Options{Dir: runDir})
	require.NoError(t, err)
	want := readCSV(t, filepath.Join(runDir, "history.csv"))
	got := readCSVFrom(t, stdout.String())
	require.Len(t, got, len(want)-1, "one line a step, the run's has step 0 too")
	column := map[string]int{}
	for j, name := range want[0] {
		column[strings.SplitN(name, " [", 2)[0]] = j
	}
	for j, name := range got[0] {
		require.Contains(t, column, name, "history.csv has the C test's column %q", name)
		for i := 1; i < len(got); i++ {
			require.Equal(t, want[i+1][column[name]], got[i][j], "step %d, %s", i, name)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return readCSVFrom(t, string(data))
}

func readCSVFrom(t *testing.T, s string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	require.NoError(t, err)
	return rows
}
