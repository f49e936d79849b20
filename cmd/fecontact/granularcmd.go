package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/run"
)

// granularCmd measures the grains of a run's folder (run.Granular).
func granularCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("granular", flag.ContinueOnError)
	fs.SetOutput(stdout)
	region := fs.String("region", "", "xmin,xmax,ymin,ymax (m): the grains whose centre lies in this box (default: the free grains' box at each time)")
	window := fs.String("window", "", "from,to (s): the output times of the means and distributions (default: the run's scene's [output] granular, else all)")
	surface := fs.String("surface", "", "x0,x1 (m): fit the free surface over this span at each output time, its angle in granular.csv and the summary (a heap's flank: its angle of repose)")
	out := fs.String("o", "", "the folder to write granular.csv, forces.png and fabric.png into (required: the run's own stay as the run wrote them)")
	overwrite := fs.Bool("overwrite", false, "write into a folder that holds files fecontact did not write")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact granular RUN -o DIR [--region xmin,xmax,ymin,ymax] [--window from,to] [--surface x0,x1]\n\nMeasures the rigid grains of a run's folder at its output times into DIR: granular.csv, forces.png, fabric.png.\nWithout --region and --window, the run's scene's [output] granular.")
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
	sf, err := numbers("--surface", *surface, 2)
	if err != nil {
		return err
	}
	if sf != nil && !(sf[1] > sf[0]) {
		return fmt.Errorf("%w: --surface %s: expected x0 < x1", errUsage, *surface)
	}
	req := run.GranularRequest{Run: pos[0], Out: *out, Folder: outdir.Options{Overwrite: *overwrite, Command: commandLine("granular", args)}}
	if r != nil || w != nil || sf != nil {
		req.Options = run.GranularOptions(r, w, sf)
	}
	sr, warnings, err := run.Granular(req)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning: "+w)
	}
	fmt.Fprintln(stdout, sr.Summary())
	fmt.Fprintf(stdout, "wrote %s: granular.csv, forces.png, fabric.png\n", *out)
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
