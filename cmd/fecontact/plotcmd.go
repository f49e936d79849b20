package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
)

// plotCmd draws one column of several runs' history.csv against time, or
// against another column.
func plotCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stdout)
	out := fs.String("o", "plot.png", "the PNG to write")
	scale := fs.Float64("scale", 1, "multiply the values by this (1000: m to mm)")
	unit := fs.String("unit", "", "the unit of the scaled values, for the axis (default: the column's own, unscaled)")
	against := fs.String("x", "time", "the column on the horizontal axis (point1_fx: a trajectory in the plane of two columns; unscaled)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact plot COLUMN RUN... [-o plot.png] [--scale 1000 --unit mm] [--x COLUMN]\n\nRUN is a run's folder (its history.csv) or a CSV file.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *scale == 0 || math.IsNaN(*scale) || math.IsInf(*scale, 0) {
		return fmt.Errorf("%w: --scale %g: expected a finite, non-zero factor", errUsage, *scale)
	}
	if len(pos) < 2 {
		return fmt.Errorf("%w: expected a column of history.csv and at least one run", errUsage)
	}
	var series []results.Series
	for _, run := range pos[1:] {
		path := run
		if st, err := os.Stat(run); err == nil && st.IsDir() {
			path = filepath.Join(run, "history.csv")
		}
		s, err := results.ReadColumnAgainst(path, *against, pos[0])
		if err != nil {
			return err
		}
		s.Label = run
		for i := range s.Y {
			s.Y[i] *= *scale
		}
		series = append(series, s)
	}
	if *unit == "" && *scale == 1 { // the values as written: the unit the history gives
		*unit = series[0].Unit
	}
	xlabel := "t (s)"
	if *against != "time" {
		xlabel = *against
		if u := series[0].XUnit; u != "" {
			xlabel += " (" + u + ")"
		}
	}
	if err := plots.CompareAgainst(*out, pos[0], xlabel, *unit, series); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s of %d runs\n", *out, pos[0], len(series))
	return nil
}
