// Package plots draws fecontact's pictures (PNG, with gonum.org/v1/plot):
// a run's energy, bodies, gaps and velocity profile (Painter, which
// io/results calls when a run is given one), a parameter study's contact
// durations (Sweep, which package sweep calls through Painter), runs
// compared (Compare), and a survey's forces (ForcePlane, Forces). It is apart from io/results so
// that a program that writes results does not need the plotting library.
package plots

import "github.com/fecontact/fecontact/io/results"

// Painter draws a run's pictures (results.Painter).
type Painter struct{}

var _ results.Painter = Painter{}

// Energy draws energy.png.
func (Painter) Energy(path string, pts []results.EnergyPoint) error { return Energy(path, pts) }

// Gaps draws gaps.png.
func (Painter) Gaps(path string, names []string, pts []results.EnergyPoint) error {
	return Gaps(path, names, pts)
}

// Bodies draws bodies.png.
func (Painter) Bodies(path string, snaps []results.Snapshot, frame []float64) error {
	return Bodies(path, snaps, frame)
}

// Sweep draws a parameter study's sweep.png (sweep.Painter).
func (Painter) Sweep(path, xlabel string, y results.SweepFigure, series []results.Series) error {
	return Sweep(path, xlabel, y, series)
}

// Profile draws profile.png.
func (Painter) Profile(path string, c results.ProfileCurves) error { return Profile(path, c) }

// Forces draws forces.png.
func (Painter) Forces(path string, width float64, density []float64) error {
	return ForceDensity(path, width, density)
}

// Fabric draws fabric.png.
func (Painter) Fabric(path string, shares []float64) error { return Fabric(path, shares) }
