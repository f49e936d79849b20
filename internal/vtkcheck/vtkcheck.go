// Package vtkcheck opens fecontact's VTK files with VTK's own XML reader
// (Debian's python3-vtk9), for tests: a file that only our Go code can read
// back proves little.
package vtkcheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// Info is what VTK's reader finds in one .vtu piece.
type Info struct {
	File   string             `json:"file"`
	Time   float64            `json:"time"`
	Points int                `json:"points"`
	Cells  int                `json:"cells"`
	Types  []int              `json:"types"`
	U3     []float64          `json:"u3"`    // displacement of point 3
	NComp  int                `json:"ncomp"` // components of displacement
	Arrays []string           `json:"arrays"`
	Sums   map[string]float64 `json:"sums"`   // sum of every point array's values, all components
	Maxes  map[string]float64 `json:"maxes"`  // largest of every point array's values, all components (0 without points)
	Bounds []float64          `json:"bounds"` // xmin, xmax, ymin, ymax, zmin, zmax of the points
	Errors int                `json:"errors"`
}

const script = `
import json, os, sys, vtk
import xml.etree.ElementTree as ET
path = sys.argv[1]
if path.endswith(".pvd"):
    files = [(float(d.get("timestep")), os.path.join(os.path.dirname(path), d.get("file"))) for d in ET.parse(path).iter("DataSet")]
else:
    files = [(0.0, path)]
out = []
for t, f in files:
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(f)
    r.Update()
    g = r.GetOutput()
    pd = g.GetPointData()
    u = pd.GetArray("displacement")
    out.append({"file": os.path.basename(f), "time": t, "points": g.GetNumberOfPoints(), "cells": g.GetNumberOfCells(),
        "types": sorted(set(g.GetCellType(i) for i in range(g.GetNumberOfCells()))),
        "u3": list(u.GetTuple3(3)) if u else None, "ncomp": u.GetNumberOfComponents() if u else 0,
        "arrays": [pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())],
        "sums": {pd.GetArrayName(i): sum(sum(pd.GetArray(i).GetTuple(j)) for j in range(pd.GetArray(i).GetNumberOfTuples())) for i in range(pd.GetNumberOfArrays())},
        "maxes": {pd.GetArrayName(i): max((max(pd.GetArray(i).GetTuple(j)) for j in range(pd.GetArray(i).GetNumberOfTuples())), default=0) for i in range(pd.GetNumberOfArrays())},
        "bounds": list(g.GetBounds()),
        "errors": r.GetErrorCode()})
print(json.dumps(out))
`

// Read opens a .vtu, or every piece of a .pvd, with VTK. Without VTK's
// Python modules (python3-vtk9, or python3-paraview's) the test is
// skipped, except on CI (CI set), where it fails: CI must have them.
func Read(t testing.TB, path string) []Info {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import vtk").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have VTK's Python modules (.ci/run installs python3-paraview, which brings them): %v", err)
		}
		t.Skip("skipped: VTK's Python modules are not installed (apt-get install python3-vtk9, or python3-paraview)")
	}
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("VTK could not read %s: %v\n%s", path, err, out)
	}
	var info []Info
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatalf("reading VTK's report on %s: %v\n%s", path, err, out)
	}
	return info
}
