package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/run"
)

// granularCmd measures the grains of a run's folder (run.Granular).
func granularCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("granular", flag.ContinueOnError)
	fs.SetOutput(stdout)
	region := fs.String("region", "", "xmin,xmax,ymin,ymax (m): the grains whose centre lies in this box (default: the free grains' box at each time)")
	window := fs.String("window", "", "from,to (s): the output times of the means and distributions (default: all)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact granular RUN [--region xmin,xmax,ymin,ymax] [--window from,to]\n\nMeasures the rigid grains of a run's folder at its output times: granular.csv, forces.png, fabric.png.")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one run folder, got %d arguments", errUsage, len(pos))
	}
	r, err := numbers("--region", *region, 4)
	if err != nil {
		return err
	}
	w, err := numbers("--window", *window, 2)
	if err != nil {
		return err
	}
	if r != nil && (!(r[1] > r[0]) || !(r[3] > r[2])) {
		return fmt.Errorf("%w: --region %s: expected xmin < xmax and ymin < ymax", errUsage, *region)
	}
	if w != nil && (w[0] < 0 || !(w[1] > w[0])) {
		return fmt.Errorf("%w: --window %s: expected 0 <= from < to", errUsage, *window)
	}
	sr, err := run.Granular(pos[0], *run.GranularOptions(r, w))
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, sr.Summary())
	fmt.Fprintf(stdout, "wrote %s: granular.csv, forces.png, fabric.png\n", pos[0])
	return nil
}

// numbers reads n comma-separated finite numbers (nil for "").
func numbers(flagName, s string, n int) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("%w: %s %s: expected %d numbers separated by commas", errUsage, flagName, s, n)
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || v != v || v > 1e300 || v < -1e300 {
			return nil, fmt.Errorf("%w: %s %s: %q is not a finite number", errUsage, flagName, s, p)
		}
		out[i] = v
	}
	return out, nil
}
