//go:build long

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	dir := t.TempDir()
	code, _, stderr := fecontact("example", "poured-sample", "--quiet", "-o", dir)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(filepath.Join(dir, run.SummaryJSON))
	require.NoError(t, err)
	var s run.Summary
	require.NoError(t, json.Unmarshal(data, &s))
	require.NotNil(t, s.Contact)
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
