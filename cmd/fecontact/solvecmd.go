package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/signorini"
)

// solveCmd solves frictional contact problems in the exchange format of
// signorini/testdata/fc2d (signorini.Solve: NLGS, Newton's method, or
// NLGS handed to Newton where it stalls) and prints sweeps, Newton
// iterations, residual and time: the counterpart of Siconos's
// fc2d solvers (their figures in that folder's README).
func solveCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stdout)
	tol := fs.Float64("tol", 1e-8, "tolerance on the natural-map residual")
	runs := fs.Int("K", 5, "runs per problem; the time printed is the fastest")
	order := fs.String("order", "natural", "natural, alternating, random or coloured (colour by colour, the colours shared by the cores)")
	maxSweeps := fs.Int("max-sweeps", 100000, "sweeps before giving up")
	method := fs.String("method", "nlgs", "nlgs, newton (a semismooth Newton method) or auto (NLGS handed to Newton where it stalls)")
	out := fs.String("out", "", "write each problem's solution to this JSON file: its impulses r, velocities u = W r + q, statuses and certificate, to compare with another code's")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact solve [--tol 1e-8] [-K 5] [--method nlgs|newton|auto] [--out FILE.json] PROBLEM.json...")
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
	if *out != "" {
		if err := atomicfile.CheckTarget(*out); err != nil {
			return fmt.Errorf("%w: --out %w", errUsage, err)
		}
	}
	var solutions []solution
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
		solutions = append(solutions, solutionOf(file, m, p, res, err == nil, best))
	}
	if *out != "" {
		if err := atomicfile.Write(*out, func(w io.Writer) error { return writeSolutions(w, solutions) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: the solutions\n", *out)
	}
	if failed > 0 {
		return fmt.Errorf("%d problems did not converge", failed)
	}
	return nil
}

// solution is one problem's answer as --out writes it: what a user
// compares with another code's impulses.
type solution struct {
	Problem          string    `json:"problem"`
	Contacts         int       `json:"contacts"`
	Method           string    `json:"method"`
	Converged        bool      `json:"converged"`
	Sweeps           int       `json:"sweeps"`
	NewtonIterations int       `json:"newton_iterations"`
	Residual         float64   `json:"residual"`
	Seconds          float64   `json:"seconds"`
	R                []float64 `json:"r"`
	U                []float64 `json:"u"`
	Status           []string  `json:"status"`
	signorini.Certificate
}

func solutionOf(file string, m signorini.Method, p *signorini.Problem, res *signorini.Result, converged bool, took time.Duration) solution {
	s := solution{Problem: file, Contacts: p.W.Contacts(), Method: m.String(), Converged: converged, Sweeps: res.Sweeps,
		NewtonIterations: res.NewtonIterations, Residual: res.Residual, Seconds: took.Seconds(), R: res.R, U: res.U,
		Certificate: signorini.Certify(p, res.R, res.U)}
	for _, st := range res.Status {
		s.Status = append(s.Status, st.String())
	}
	return s
}

// writeSolutions writes the solutions as JSON, every digit of a float.
func writeSolutions(w io.Writer, s []solution) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(s)
}
