package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fecontact/fecontact/signorini"
)

// solveCmd solves frictional contact problems in the exchange format of
// testdata/fc2d (signorini.Solve: NLGS, Newton's method, or NLGS handed
// to Newton where it stalls) and prints sweeps, Newton iterations,
// residual and time: the counterpart of
// ../shared/peers/siconos/fc2d_solve.py.
func solveCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stdout)
	tol := fs.Float64("tol", 1e-8, "tolerance on the natural-map residual")
	runs := fs.Int("K", 5, "runs per problem; the time printed is the fastest")
	order := fs.String("order", "natural", "natural, alternating, random or coloured (colour by colour, the colours shared by the cores)")
	maxSweeps := fs.Int("max-sweeps", 100000, "sweeps before giving up")
	method := fs.String("method", "nlgs", "nlgs, newton (a semismooth Newton method) or auto (NLGS handed to Newton where it stalls)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact solve [--tol 1e-8] [-K 5] [--method nlgs|newton|auto] PROBLEM.json...")
		fs.PrintDefaults()
	}
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: expected problem files (.json)", errUsage)
	}
	o, err := signorini.ParseOrder(*order)
	if err != nil {
		return fmt.Errorf("%w: --%w", errUsage, err)
	}
	m, err := signorini.ParseMethod(*method)
	if err != nil {
		return fmt.Errorf("%w: --%w", errUsage, err)
	}
	if *runs < 1 {
		return fmt.Errorf("%w: -K %d: expected at least 1", errUsage, *runs)
	}
	if !(*tol > 0) || math.IsInf(*tol, 0) {
		return fmt.Errorf("%w: --tol %g: expected a positive, finite tolerance", errUsage, *tol)
	}
	if *maxSweeps < 1 {
		return fmt.Errorf("%w: --max-sweeps %d: expected at least 1", errUsage, *maxSweeps)
	}
	fmt.Fprintf(stdout, "%-40s %8s %8s %7s %10s %12s\n", "problem", "contacts", "sweeps", "newton", "residual", "time (s)")
	failed := 0
	for _, file := range files {
		p, _, err := signorini.ReadProblem(file)
		if err != nil {
			return err
		}
		best := time.Duration(math.MaxInt64)
		var res *signorini.Result
		for k := 0; k < *runs; k++ {
			// Every 100 sweeps, a line at least every 30 s: a solve of
			// minutes is not silent.
			tick := newTicker(os.Stderr, fmt.Sprintf("%s, run %d of %d: sweep", filepath.Base(file), k+1, *runs), max(*maxSweeps, 1))
			tick.next = math.MaxInt // no tenths: the sweeps' total is a cap
			progress := func(sweeps int) { tick.tick(sweeps, nil) }
			start := time.Now()
			res, err = signorini.Solve(p, signorini.Options{Method: m, Tol: *tol, MaxSweeps: *maxSweeps, Order: o, Progress: progress})
			best = min(best, time.Since(start))
			if err != nil && !errors.Is(err, signorini.ErrNotConverged) {
				return fmt.Errorf("%s: %w", file, err)
			}
		}
		note := ""
		if err != nil {
			note, failed = "  (not converged)", failed+1
		}
		fmt.Fprintf(stdout, "%-40s %8d %8d %7d %10.2g %12.3g%s\n", filepath.Base(file), p.W.Contacts(), res.Sweeps, res.NewtonIterations, res.Residual, best.Seconds(), note)
	}
	if failed > 0 {
		return fmt.Errorf("%d problems did not converge", failed)
	}
	return nil
}
