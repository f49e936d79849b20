package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBench: the table's row for refine 1 (run in a child process, as the
// command does) has the example's DOFs and the contact figures that
// `fecontact run` reports for the same run (11.6 units and 8.6 sweeps per
// contact step) and the deepest node inside the other block (a node of
// the lower block 19.9 um inside the upper one, TestCollidingBlocks' Q4
// figure), and its times are consistent: a step costs at least one solve;
// the run with outputs beside it (a time per step and its ratio to the
// bare step) left no folder behind.
func TestBench(t *testing.T) {
	t.Setenv("FECONTACT_AS_MAIN", "1") // the children run this test binary as the command
	code, stdout, stderr := fecontact("bench", "--refine", "1")
	require.Equal(t, 0, code, stderr+stdout)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 5, stdout)
	assert.Contains(t, lines[2], "| refine | DOFs |")
	cells := strings.Split(lines[4], "|")
	require.Len(t, cells, 13, lines[4])
	assert.Equal(t, " 1 ", cells[1])
	assert.Equal(t, " 862 ", cells[2])
	assert.Equal(t, " 11.6, 8.6 ", cells[8])
	assert.Equal(t, " 19.9 um ", cells[9])
	var ratio float64
	_, err := fmt.Sscan(cells[6], &ratio)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, ratio, 1.0, "a step costs at least one solve")
	var withOutputs, times float64
	_, err = fmt.Sscanf(cells[11], " %g ms (%g x) ", &withOutputs, &times)
	require.NoError(t, err, cells[11])
	assert.Positive(t, withOutputs)
	assert.Positive(t, times)
	left, err := filepath.Glob(filepath.Join(os.TempDir(), "fecontact-bench-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "the run's folder is removed")

	t.Setenv("TMPDIR", "/nonexistent/fecontact")
	code, _, stderr = fecontact("bench", "--refine", "1")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "the run with outputs needs a temporary folder in /nonexistent/fecontact (TMPDIR)")

	code, _, stderr = fecontact("bench", "--refine", "1,x")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--refine "1,x": expected whole numbers >= 1`)
}
