package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/internal/vtkcheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fecontact(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = execute(args, &o, &e)
	return code, o.String(), e.String()
}

func TestMeshRect(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.vtu")
	code, stdout, stderr := fecontact("mesh", "rect", "--kind", "Q8", "--size", "0.12x0.04", "--cells", "30x10", "-o", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "nodes       981")
	assert.Contains(t, stdout, "cells       300 (300 Q8)")
	assert.Contains(t, stdout, "area        0.0048 m^2")
	assert.Contains(t, stdout, "edge groups bottom (30), left (10), right (10), top (30)")
	assert.Contains(t, stdout, "problems    none")
	info := vtkcheck.Read(t, out)
	require.Len(t, info, 1)
	assert.Equal(t, 981, info[0].Points)
	assert.Equal(t, []int{23}, info[0].Types)
}

func TestMeshGmsh(t *testing.T) {
	code, stdout, stderr := fecontact("mesh", "../../mesh/testdata/t6_msh41.msh")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "area        2 m^2")
	assert.Contains(t, stdout, "node groups body")
	assert.Contains(t, stdout, "origin (1)")
}

func TestMeshErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.msh")
	require.NoError(t, os.WriteFile(bad, []byte("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 zero 0\n$EndNodes\n"), 0o644))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mesh", bad}, 1, "bad.msh:6: node 1: coordinate \"zero\" is not a number"},
		{[]string{"mesh", filepath.Join(dir, "none.msh")}, 1, "no such file"},
		{[]string{"mesh", "rect", "--kind", "Q9"}, 2, `unknown cell kind "Q9": expected one of T3, Q4, T6, Q8`},
		{[]string{"mesh", "rect", "--size", "0.1"}, 2, `--size "0.1": expected WIDTHxHEIGHT`},
		{[]string{"mesh", "rect", "--cells", "2.5x3"}, 2, "expected whole numbers"},
		{[]string{"mesh"}, 2, "expected one mesh file"},
		{[]string{"nonsense"}, 2, `unknown command "nonsense"`},
		{[]string{"free", "--cells", "3"}, 2, `--cells "3": expected NXxNY`},
		{[]string{"free", "-h"}, 0, ""}, // help, as the top-level help says of every command (it was free's time step)
		{[]string{"free", "-o", dir, "--dt", "-1e-6"}, 1, "the free command's flags: [time]: h = -1e-06: expected a positive time step"},
		{[]string{"free", "-o", dir, "--rho", "-7800"}, 1, `body "block": rho = -7800: expected a positive density`},
		{[]string{"free", "-o", dir, "--fix", "lft"}, 1, `no node group "lft"`},
	} {
		code, _, stderr := fecontact(tc.args...)
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestFreeRun runs the free command and checks the files with VTK and the
// energy history: theta = 1/2 conserves the energy of the struck cantilever.
func TestFreeRun(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := fecontact("free", "--kind", "T6", "--cells", "12x4", "--duration", "40e-6", "--every", "20", "-o", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "done: 40 steps")
	info := vtkcheck.Read(t, filepath.Join(dir, "bodies.pvd"))
	require.Len(t, info, 3)
	for _, in := range info {
		assert.Equal(t, []int{22}, in.Types)
		assert.Equal(t, 96, in.Cells)
		assert.Equal(t, 3, in.NComp)
		assert.Subset(t, in.Arrays, []string{"displacement", "velocity", "von_mises", "stress_xx"})
	}
	assert.InDelta(t, 40e-6, info[2].Time, 1e-15)
	assert.Less(t, info[2].U3[1], 0.0, "struck downwards")

	f, err := os.Open(filepath.Join(dir, "history.csv"))
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 42)
	require.Equal(t, []string{"total_energy [J]", "balance_error [J]"}, rows[0][8:10])
	first, _ := strconv.ParseFloat(rows[1][2], 64)
	for _, r := range rows[1:] {
		kin, _ := strconv.ParseFloat(r[2], 64)
		ela, _ := strconv.ParseFloat(r[3], 64)
		assert.InDelta(t, first, kin+ela, 1e-10*first)
		total, _ := strconv.ParseFloat(r[8], 64)
		drift, _ := strconv.ParseFloat(r[9], 64)
		assert.InDelta(t, total-first, drift, 1e-12*first, "balance_error is total_energy's drift from step 0")
	}
	assert.False(t, strings.Contains(strings.Join(rows[len(rows)-1], ","), "NaN"))
}
