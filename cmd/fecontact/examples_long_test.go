//go:build long

package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/run"
)

// TestPouredSampleSettles: the poured-sample example run as a user runs
// it (fecontact example poured-sample -o DIR) pours its 400 disks into
// the box and they come to rest, every step solved: the bulk's solid
// fraction, read from summary.json, is a dense random packing's (0.845
// measured; polydisperse frictional disks settle between 0.80 and 0.87,
// far above the 0.55 where random placement jams), each grain carrying
// 3 to 4 contacts without the rattlers (the isostatic 3 of frictional
// disks to the frictionless 4). About 30 s:
//
//	go test -tags long -run TestPouredSampleSettles -v ./cmd/fecontact/
func TestPouredSampleSettles(t *testing.T) {
	s := exampleSummary(t, "poured-sample")
	assert.Zero(t, s.Contact.Unconverged, "every step solved")
	assert.Less(t, float64(s.Energy.Kinetic.Value), 1e-6, "at rest")
	require.NotNil(t, s.Granular)
	require.NotNil(t, s.Granular.Means)
	g := s.Granular.Means
	t.Logf("solid fraction %.4f, Z without rattlers %.3f, %g grains in the region, %g rattlers", float64(g.SolidFraction), float64(g.ZNoRattlers), float64(g.Grains), float64(g.Rattlers))
	assert.Greater(t, float64(g.Grains), 150.0, "the bulk holds most of the sample")
	assert.InDelta(t, 0.835, float64(g.SolidFraction), 0.035, "a dense random packing")
	assert.True(t, g.ZNoRattlers >= 3 && g.ZNoRattlers <= 4, "Z without rattlers %g", float64(g.ZNoRattlers))
}

// TestReposePile: the repose-pile example run as a user runs it (fecontact
// example repose-pile -o DIR) leaves a heap against its wall, every step
// solved, its flank's angle in the summary; and a study of its rolling
// resistance (fecontact sweep repose-pile --set ...rolling=0|1.6e-3)
// finds the heap of disks that resist rolling (mu_r / R about 0.3)
// steeper than the one of disks that roll freely, by more than 4 degrees
// (12.1 at mu 0.3 and 10.3 at 0.6 for this seed, 12 to 13 on the means of
// docs/validation.md's study; one heap's flank varies by several degrees
// with its grains). About 2 minutes:
//
//	go test -tags long -run TestReposePile -v ./cmd/fecontact/
func TestReposePile(t *testing.T) {
	s := exampleSummary(t, "repose-pile")
	assert.Zero(t, s.Contact.Unconverged, "every step solved")
	require.NotNil(t, s.Granular)
	require.NotNil(t, s.Granular.Means)
	require.NotNil(t, s.Granular.Means.SurfaceAngle)
	angle := float64(s.Granular.Means.SurfaceAngle.Value)
	t.Logf("the example's heap: %.1f degrees", angle)
	assert.True(t, angle > 10 && angle < 35, "a heap's flank: %g degrees", angle)
	assert.LessOrEqual(t, float64(s.Energy.FrictionWork.Value), 0.0)

	study := t.TempDir()
	code, _, stderr := fecontact("sweep", "repose-pile", "-o", study, "--set", "rigid_contacts.rule.2.rolling=0.0|1.6e-3")
	require.Equal(t, 0, code, stderr)
	rows := readSweep(t, filepath.Join(study, "sweep.csv"))
	free, resisting := rows[0]["surface_angle [deg]"], rows[1]["surface_angle [deg]"]
	t.Logf("rolling freely %s degrees, resisting rolling %s degrees", free, resisting)
	a0, err := strconv.ParseFloat(free, 64)
	require.NoError(t, err)
	a1, err := strconv.ParseFloat(resisting, 64)
	require.NoError(t, err)
	assert.Greater(t, a1-a0, 4.0, "rolling resistance steepens the heap")
}

// exampleSummary runs an example as a user runs it (fecontact example
// NAME -o DIR) and reads its summary.json.
func exampleSummary(t *testing.T, name string) run.Summary {
	t.Helper()
	dir := t.TempDir()
	code, _, stderr := fecontact("example", name, "--quiet", "-o", dir)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(filepath.Join(dir, run.SummaryJSON))
	require.NoError(t, err)
	var s run.Summary
	require.NoError(t, json.Unmarshal(data, &s))
	require.NotNil(t, s.Contact)
	return s
}

// readSweep reads sweep.csv's rows as maps from its header.
func readSweep(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}
