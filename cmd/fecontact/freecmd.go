package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/scene"
)

// freeCmd runs one elastic body without contact, from flags: a scene with
// one generated rectangle and no contact pairs.
func freeCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("free", flag.ContinueOnError)
	fs.SetOutput(stdout)
	rf := newRunFlags(fs)
	size := fs.String("size", "0.12x0.04", "width x height in m")
	cells := fs.String("cells", "30x10", "cells along x and y")
	fix := fs.String("fix", "left", "edge group clamped in x and y (bottom, top, left, right; empty for a free body)")
	vel := fs.String("velocity", "0,-5", "initial velocity vx,vy in m/s of every node not clamped")
	E := fs.Float64("E", 1300e6, "Young's modulus in Pa")
	nu := fs.Float64("nu", 0.2, "Poisson's ratio")
	rho := fs.Float64("rho", 7800, "density in kg/m^3")
	h := fs.Float64("dt", 1e-6, "time step in s (-h is help, as for every command)")
	theta := fs.Float64("theta", 0.5, "theta of the theta-method, in [1/2, 1]")
	duration := fs.Float64("duration", 0.75e-3, "simulated time in s")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact free [flags] -o DIR\n\nRuns an elastic body without contact (default: a block clamped on its left\nedge, struck downwards) and writes what run writes.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	wh, err := pair(*size, "x", "--size", "WIDTHxHEIGHT, e.g. 0.12x0.04")
	if err != nil {
		return err
	}
	nxy := strings.Split(*cells, "x")
	nx, e1 := strconv.Atoi(nxy[0])
	ny, e2 := 0, e1
	if len(nxy) == 2 {
		ny, e2 = strconv.Atoi(nxy[1])
	}
	if len(nxy) != 2 || e1 != nil || e2 != nil {
		return fmt.Errorf("%w: --cells %q: expected NXxNY, e.g. 30x10", errUsage, *cells)
	}
	v0, err := pair(*vel, ",", "--velocity", "VX,VY, e.g. 0,-5")
	if err != nil {
		return err
	}
	body := scene.Body{Name: "block", E: *E, Nu: *nu, Rho: *rho, Velocity: v0[:],
		Rectangle: &scene.Rectangle{Kind: "Q4", Origin: []float64{0, 0}, Size: wh[:], Cells: []int{nx, ny}}}
	if *fix != "" {
		body.Fixed = []scene.Fixed{{Group: *fix, Components: "xy"}}
	}
	sc := &scene.Scene{Name: "the free command's flags", Title: "free elastic body",
		Time:   scene.Time{H: *h, Theta: *theta, Duration: *duration},
		Output: scene.Output{Pictures: []float64{0, *duration / 2, *duration}},
		Bodies: []scene.Body{body}}
	if err := sc.Validate(); err != nil {
		return err
	}
	_, err = simulate(sc, rf, stdout)
	return err
}
