package run

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/signorini"
)

// TestSweepsCountEverySolve: a step whose contact problem is solved more
// than once (about its predicted end, with its impacts at the
// theta-method's time) counts every solve's sweeps in history.csv: with
// NLGS held to one sweep a solve (max_sweeps = 1, the run going on), a
// step's sweeps are its solves (it reported the last solve's alone).
func TestSweepsCountEverySolve(t *testing.T) {
	for _, name := range []string{"colliding-blocks", "disks-28"} {
		t.Run(name, func(t *testing.T) {
			solves := map[int]int{}
			dir := t.TempDir()
			sc := exampleScene(t, name, "solver.max_sweeps", "1", "solver.method", `"nlgs"`)
			_, err := Scene(context.Background(), sc, Options{Dir: dir, Steps: 400, Version: "v0",
				OnProblem: func(step int, _ *signorini.Problem) error { solves[step]++; return nil }})
			require.NoError(t, err)
			rows := readCSV(t, filepath.Join(dir, "history.csv"))
			col := -1
			for i, h := range rows[0] {
				if h == "sweeps" {
					col = i
				}
			}
			require.GreaterOrEqual(t, col, 0)
			again := 0
			for step, row := range rows[2:] { // the first row is t = 0
				sweeps, err := strconv.Atoi(row[col])
				require.NoError(t, err)
				n := solves[step+1]
				assert.Equal(t, n, sweeps, "step %d: %d solves", step+1, n)
				if n > 1 {
					again++
				}
			}
			t.Logf("%d steps solved more than once", again)
			assert.Positive(t, again, "steps solved again")
		})
	}
}
