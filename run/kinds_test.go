package run

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/internal/toy"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// The one line that gives this package's scenes the beads of
// internal/toy, a kind no file of fecontact names.
func init() { scene.Register(toy.Table{}) }

const railScene = `title = "beads on a rail beside a falling box"
[time]
h = 1e-3
duration = 1.5

[output]
every = 50

[[rail]]
beads = 2
x = 0.0
mass = 1.0
radius = 0.05
force = 2.0
stop = 1.0

[[rigid]]
name = "box"
rectangle = [0.2, 0.1]
position = [5.0, 5.0]
rho = 1000.0
gravity = [0.0, -9.81]
`

// TestARegisteredKindRuns: a kind of body registered by one line (the
// beads of internal/toy, read from [[rail]]) runs by `fecontact run` like
// a built-in one: its beads reach the stop at sqrt(2 d / a) and stay
// there (the first after 0.95 m at t = 0.975 s, the second after 1.05 m
// at 1.025 s), its series (beads.pvd) and history columns are written,
// the ledger closes with no energy created by contact, and a run
// interrupted mid-way and resumed from its checkpoint writes the same
// folder byte for byte. A key the rail does not have and a value out of
// range are refused naming the file, the table, the key and the line.
func TestARegisteredKindRuns(t *testing.T) {
	decode := func(text string) (*scene.Scene, error) {
		return scene.Decode(strings.NewReader(text), "rail.toml")
	}
	whole, parts := t.TempDir(), t.TempDir()
	sc, err := decode(railScene)
	require.NoError(t, err)
	var said []string
	r, err := Scene(context.Background(), sc, Options{Dir: whole, Version: "v0", Say: func(l string) { said = append(said, l) }})
	require.NoError(t, err)
	require.Equal(t, 1500, r.Done)

	rows := readCSV(t, filepath.Join(whole, "history.csv"))
	col := func(name string) int {
		for i, n := range rows[0] {
			if n == name || strings.HasPrefix(n, name+" [") {
				return i
			}
		}
		t.Fatalf("history.csv has no column %q: %v", name, rows[0])
		return -1
	}
	last := rows[len(rows)-1]
	for _, c := range []struct {
		column string
		want   float64
	}{{"bead1_x", 0.95}, {"bead2_x", 0.95}, {"bead1_v", 0}, {"bead2_v", 0}} {
		v, err := strconv.ParseFloat(last[col(c.column)], 64)
		require.NoError(t, err)
		assert.InDelta(t, c.want, v, 1e-6, c.column)
	}
	arrival := func(column string) float64 {
		for _, row := range rows[1:] {
			if x, _ := strconv.ParseFloat(row[col(column)], 64); x >= 0.95-1e-6 {
				tm, _ := strconv.ParseFloat(row[col("time")], 64)
				return tm
			}
		}
		return -1
	}
	assert.InDelta(t, 0.975, arrival("bead1_x"), 2e-3, "the first bead's arrival")
	assert.InDelta(t, 1.025, arrival("bead2_x"), 2e-3, "the second bead's arrival")
	entries, err := vtk.ReadPVD(filepath.Join(whole, "beads.pvd"))
	require.NoError(t, err)
	assert.Len(t, entries, 31, "a piece at t = 0 and every 50 steps")
	assert.Contains(t, strings.Join(said, "\n"), "1 rigid body, beads: 2", "the scene's size")
	e := r.Sim.TotalEnergy()
	assert.InDelta(t, 0, e.Balance(), 1e-8, "the ledger closes: %+v", e)
	assert.InDelta(t, -2*0.95-2*1.05, e.Contact, 1e-2, "contact takes the kinetic energy each bead arrived with")
	assert.LessOrEqual(t, e.Contact, 0.0, "contact creates no energy")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sc, err = decode(railScene)
	require.NoError(t, err)
	_, err = Scene(ctx, sc, Options{Dir: parts, Version: "v0", Progress: func(done, _ int, _ *timestep.Simulation) {
		if done == 777 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, ErrInterrupted)
	_, err = Resume(context.Background(), parts, Options{Version: "v0"})
	require.NoError(t, err)
	sameFolders(t, whole, parts)

	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown key", "force = 2.0", "forse = 2.0", "rail.toml: [[rail]]: unknown key rail.forse (line 14)"},
		{"value", "beads = 2", "beads = 0", "rail.toml: [[rail]] 1: beads = 0: expected a count from 1 to 1000000"},
		{"size", "beads = 2", "beads = 1_000_000_000", "beads = 1000000000: expected a count from 1 to 1000000"},
		{"a scene key still checked", "[output]", "[outptu]", "rail.toml: unknown key outptu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode(strings.Replace(railScene, tc.from, tc.to, 1))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows
}
