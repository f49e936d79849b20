package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/examples"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeFigures: the README's (and docs/') account of the colliding blocks quotes
// the golden figures of the Q4 run (timestep's TestCollidingBlocks checks
// the physics against them), to the digits it prints: a change of physics
// that updates the golden files without the README fails here.
func TestReadmeFigures(t *testing.T) {
	readme := readmeAndDocs(t)
	data, err := os.ReadFile("../../timestep/testdata/golden/colliding_blocks_Q4_nodal.json")
	require.NoError(t, err)
	var g map[string]float64
	require.NoError(t, json.Unmarshal(data, &g))
	for _, tc := range []struct {
		pattern string
		golden  []float64
		unit    float64 // README value x unit = golden value
	}{
		{`bounces off at\s+\((-?[\d.]+), ([\d.]+)\) m/s`, []float64{g["upper_vx"], g["upper_vy"]}, 1},
		{`Friction takes ([\d.]+) kJ`, []float64{-g["friction_work"]}, 1e3},
		{`the contact law dissipates ([\d.]+) kJ`, []float64{-g["contact_law_work"]}, 1e3},
		{`lets in books \+([\d.]+) J`, []float64{g["push_out_work"]}, 1},
		{`ever more than ([\d.]+) um`, []float64{g["depth"]}, 1e-6},
		{`\| 1 \| ([\d.]+) um \([\d.]+ % of a cell\) \| \((-?[\d.]+), ([\d.]+)\) \|`, []float64{g["depth"], g["upper_vx"], g["upper_vy"]}, 0},
	} {
		m := regexp.MustCompile(tc.pattern).FindSubmatch(readme)
		require.NotNil(t, m, "README no longer says %q", tc.pattern)
		for k, want := range tc.golden {
			s := string(m[k+1])
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			unit := tc.unit
			if unit == 0 { // the table: depth in um, velocities in m/s
				unit = map[bool]float64{true: 1e-6, false: 1}[k == 0]
			}
			assert.InDelta(t, want, v*unit, halfLastDigit(s)*unit*1.0000001, "README %q, golden %.6g", s, want)
		}
	}
}

// TestReadmeKindsAgree: the README's claim that the four cell kinds agree
// on the friction work and the bounce speed, against the golden runs.
func TestReadmeKindsAgree(t *testing.T) {
	readme := readmeAndDocs(t)
	m := regexp.MustCompile(`agree to ([\d.]+) % on the friction work and ([\d.]+) % on the bounce speed`).FindSubmatch(readme)
	require.NotNil(t, m)
	fw, _ := strconv.ParseFloat(string(m[1]), 64)
	bs, _ := strconv.ParseFloat(string(m[2]), 64)
	golden := func(kind string) map[string]float64 {
		data, err := os.ReadFile("../../timestep/testdata/golden/colliding_blocks_" + kind + "_nodal.json")
		require.NoError(t, err)
		var g map[string]float64
		require.NoError(t, json.Unmarshal(data, &g))
		return g
	}
	q4 := golden("Q4")
	for _, k := range []string{"T3", "Q8", "T6"} {
		g := golden(k)
		assert.LessOrEqual(t, math.Abs(g["friction_work"]/q4["friction_work"]-1), fw/100, "%s friction work", k)
		assert.LessOrEqual(t, math.Abs(g["upper_vy"]/q4["upper_vy"]-1), bs/100, "%s bounce speed", k)
	}
}

// readmeAndDocs is the README and the pages of docs/ it links to, where
// the figures moved: one text to search.
func readmeAndDocs(t *testing.T) []byte {
	t.Helper()
	text, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	for _, p := range pages {
		page, err := os.ReadFile(p)
		require.NoError(t, err)
		text = append(append(text, '\n'), page...)
	}
	return text
}

// halfLastDigit is half a unit of the last digit printed in s.
func halfLastDigit(s string) float64 {
	for i := range s {
		if s[i] == '.' {
			return 0.5 * math.Pow(10, -float64(len(s)-i-1))
		}
	}
	return 0.5
}

// TestReadmeCommands: every `go run ./cmd/fecontact ...` line of the
// README runs as written on a clone (its -o into a temporary folder), and
// the gallery lists every example, each within about 30 s by default.
func TestReadmeCommands(t *testing.T) {
	text, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	lines := regexp.MustCompile(`(?m)^\s+go run \./cmd/fecontact (.+)$`).FindAllStringSubmatch(string(text), -1)
	require.NotEmpty(t, lines)
	for _, l := range lines {
		args := strings.Fields(l[1])
		for i := range args {
			if args[i] == "-o" && i+1 < len(args) {
				args[i+1] = filepath.Join(t.TempDir(), args[i+1])
			}
		}
		code, _, stderr := fecontact(args...)
		assert.Equal(t, 0, code, "README: go run ./cmd/fecontact %s: %s", l[1], stderr)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|.*\\| (\\d+) s \\|$").FindAllStringSubmatch(string(text), -1)
	var listed []string
	for _, r := range rows {
		listed = append(listed, r[1])
		secs, err := strconv.Atoi(r[2])
		require.NoError(t, err)
		assert.LessOrEqual(t, secs, 30, "example %s", r[1])
	}
	assert.ElementsMatch(t, examples.Names(), listed, "the README's gallery")
}
