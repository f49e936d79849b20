package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/timestep"
)

// freeCmd runs one elastic body without contact: the stepper and the
// ParaView output before contact exists.
func freeCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("free", flag.ContinueOnError)
	fs.SetOutput(stdout)
	kind := fs.String("kind", "Q4", "cell kind T3, Q4, T6 or Q8")
	size := fs.String("size", "0.12x0.04", "width x height in m")
	cells := fs.String("cells", "30x10", "cells along x and y")
	fix := fs.String("fix", "left", "edge group clamped in x and y (bottom, top, left, right; empty for a free body)")
	vel := fs.String("velocity", "0,-5", "initial velocity vx,vy in m/s of every node not clamped")
	E := fs.Float64("E", 1300e6, "Young's modulus in Pa")
	nu := fs.Float64("nu", 0.2, "Poisson's ratio")
	rho := fs.Float64("rho", 7800, "density in kg/m^3")
	h := fs.Float64("h", 1e-6, "time step in s")
	theta := fs.Float64("theta", 0.5, "theta of the theta-method, in [1/2, 1]")
	steps := fs.Int("steps", 750, "number of steps")
	every := fs.Int("every", 10, "write the fields every this many steps")
	out := fs.String("o", "", "output folder (required)")
	encoding := fs.String("encoding", "base64", "VTU data encoding: base64, raw or ascii")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact free [flags] -o DIR\n\nRuns an elastic body without contact (default: a block clamped on its left\nedge, struck downwards) and writes DIR/free.pvd and DIR/history.csv.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	case *out == "":
		return fmt.Errorf("%w: -o DIR is required", errUsage)
	case *steps < 1 || *every < 1:
		return fmt.Errorf("%w: --steps and --every must be at least 1", errUsage)
	}
	enc, err := vtk.ParseEncoding(*encoding)
	if err != nil {
		return fmt.Errorf("%w: --encoding: %v", errUsage, err)
	}
	m, err := rectFromFlags(*kind, *size, *cells, "0,0")
	if err != nil {
		return err
	}
	v0, err := pair(*vel, ",", "--velocity", "VX,VY, e.g. 0,-5")
	if err != nil {
		return err
	}
	var fixes []assemble.Fix
	if *fix != "" {
		fixes = append(fixes, assemble.Fix{Group: *fix, Comp: assemble.XY})
	}
	space, err := assemble.NewSpace(m, fixes...)
	if err != nil {
		return err
	}
	mat := element.Elastic{E: *E, Nu: *nu, Rho: *rho}
	body, err := timestep.NewBody("block", space, mat, timestep.Options{})
	if err != nil {
		return err
	}
	body.SetVelocity(func([2]float64) [2]float64 { return v0 })
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	stepper, err := timestep.NewStepper(*h, *theta, body)
	if err != nil {
		return err
	}
	cp, _ := mat.WaveSpeeds()
	fmt.Fprintf(stdout, "body block: %d nodes, %d cells, %d DOFs; P-wave speed %.0f m/s; h = %g s, theta = %g\n",
		len(m.Nodes), len(m.Cells), space.N(), cp, *h, *theta)
	return runFree(stdout, stepper, *steps, *every, *out, enc, start)
}

func runFree(stdout io.Writer, s *timestep.Stepper, steps, every int, dir string, enc vtk.Encoding, start time.Time) error {
	hist, err := newHistory(filepath.Join(dir, "history.csv"), false)
	if err != nil {
		return err
	}
	ser := &series{dir: dir, name: "free", enc: enc}
	bodies := []*timestep.Body{s.Body(0)}
	e0 := s.TotalEnergy()
	hist.add(0, 0, e0)
	if err := ser.write(0, bodies); err != nil {
		hist.close()
		return err
	}
	for i := 1; i <= steps; i++ {
		if err := s.Step(); err != nil {
			hist.close()
			return err
		}
		e := s.TotalEnergy()
		hist.add(i, s.Time, e)
		if i%every == 0 || i == steps {
			if err := ser.write(s.Time, bodies); err != nil {
				hist.close()
				return err
			}
			fmt.Fprintf(stdout, "step %5d/%d  t = %.4g s  kinetic %.6g J  elastic %.6g J\n", i, steps, s.Time, e.Kinetic, e.Elastic)
		}
	}
	if err := hist.close(); err != nil {
		return err
	}
	e := s.TotalEnergy()
	drift := math.Abs(e.Balance()-e0.Balance()) / math.Max(e0.Kinetic+e0.Elastic, math.SmallestNonzeroFloat64)
	fmt.Fprintf(stdout, "done: %d steps in %.2f s; energy balance error %.2g (relative); wrote %s and %s\n",
		steps, time.Since(start).Seconds(), drift, filepath.Join(dir, "free.pvd"), filepath.Join(dir, "history.csv"))
	return nil
}
