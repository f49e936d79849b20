package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/scene"
)

// infoCmd describes a scene without running it.
func infoCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(stdout)
	refine := fs.Int("refine", 1, "as for run")
	kind := fs.String("kind", "", "as for run")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact info SCENE.toml|EXAMPLE [--refine N] [--kind Q8]")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one scene file or example name", errUsage)
	}
	sc, err := loadScene(pos[0])
	if err != nil {
		return err
	}
	v := scene.Variant{Refine: *refine, Kind: *kind}
	est, err := sc.Estimate(v)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scene %s: %s\n", sc.Name, sc.Title)
	fmt.Fprintf(stdout, "time: h = %g s, theta = %g, %s to %g s\n", sc.Time.H, sc.Time.Theta, plural.S(sc.Steps(), "step"), sc.Time.Duration)
	fmt.Fprintf(stdout, "size before building: %s\n", est)
	if err := est.Check(); err != nil {
		fmt.Fprintln(stdout, "too large: run would refuse it")
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	model, err := sc.Model(v)
	if err != nil {
		return err
	}
	for _, b := range model.Bodies {
		m := b.Space.Mesh
		mat := b.Material
		cp, cs := mat.WaveSpeeds()
		lmin := math.Inf(1)
		for _, e := range m.BoundaryEdges() {
			lmin = math.Min(lmin, m.EdgeLength(e))
		}
		for c := range m.Cells {
			lmin = math.Min(lmin, math.Sqrt(math.Abs(m.Area(c))))
		}
		st, err := cholesky.Analyse(b.M, b.Space.Ordering())
		if err != nil {
			return err
		}
		nnzK := b.K.NNZ()
		// K, M and Mhat (values and column indices), the factor, vectors.
		bytes := 3*12*float64(nnzK) + 8*float64(st.NNZL) + 8*20*float64(b.Space.N())
		fmt.Fprintf(stdout, "body %s: %d nodes, %d cells, %d DOFs (%d fixed); mass %.4g kg\n", b.Name, len(m.Nodes), len(m.Cells),
			b.Space.N(), 2*len(m.Nodes)-b.Space.N(), mat.Rho*mat.T()*m.TotalArea())
		fmt.Fprintf(stdout, "  wave speeds: P %.4g m/s, S %.4g m/s; smallest cell size %.3g m; explicit stable step about %.3g s (h / that = %.3g)\n",
			cp, cs, lmin, lmin/cp, sc.Time.H/(lmin/cp))
		fmt.Fprintf(stdout, "  nnz(K) %d, nnz(L) %d (estimated); matrices and factor about %.1f MB\n", nnzK, st.NNZL, bytes/1e6)
	}
	for i, p := range model.Detector.Pairs {
		ant := fmt.Sprintf("obstacle %q", sc.Contacts[i].Obstacle)
		if r := sc.Contacts[i].Rigid; r != "" {
			ant = fmt.Sprintf("rigid body %q", r)
		}
		if p.Antagonist != nil {
			ant = fmt.Sprintf("%s of body %s (%d edges)", p.Antagonist.Group, sc.Contacts[i].Antagonist.Body, len(p.Antagonist.Edges()))
		}
		fmt.Fprintf(stdout, "contact %q: %d candidate nodes (%s of body %s) against %s; mu %g, law %s, basis %s, alert %.3g m\n",
			p.Name, len(p.Candidate.Nodes()), p.Candidate.Group, sc.Contacts[i].Candidate.Body, ant, p.Mu, sc.Contacts[i].Law, sc.Contacts[i].Basis, p.Alert)
	}
	if model.Rigid != nil {
		rigidInfo(stdout, model.Rigid)
	}
	for _, w := range model.Warnings() {
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	// What the first step refuses, info refuses too (exit 1), after
	// describing the scene.
	if ov := model.Detector.Overlaps(contact.Config{}, true); len(ov) > 0 {
		return fmt.Errorf("%s: %d contact pairs start with a node inside the other body deeper than the alert distance: run would refuse it (see the warnings)", sc.Name, len(ov))
	}
	return estimateRunTime(stdout, sc, model)
}

// trialTime is how long info steps a scene to estimate its run time.
const trialTime = time.Second

// estimateRunTime steps the scene for about trialTime and prints the run
// time that its steps' cost gives for the whole scene. The first steps
// are often the cheapest (grains falling before they touch), which the
// line says.
func estimateRunTime(w io.Writer, sc *scene.Scene, model *scene.Model) error {
	start := time.Now()
	sim, err := model.Simulation()
	if err != nil {
		return err
	}
	setup := time.Since(start)
	steps, done := sc.Steps(), 0
	start = time.Now()
	for done < steps && time.Since(start) < trialTime {
		if _, err := sim.Step(); err != nil {
			return fmt.Errorf("%s: step %d of the trial: %w", sc.Name, done+1, err)
		}
		done++
	}
	per := time.Since(start) / time.Duration(max(done, 1))
	total := setup + per*time.Duration(steps)
	fmt.Fprintf(w, "run time: about %s on this machine (setup %.2g s, then %.3g ms per step over the first %d of %d steps; stretches with more contacts cost more), without writing the outputs\n",
		roundDuration(total), setup.Seconds(), 1e3*per.Seconds(), done, steps)
	return nil
}

// roundDuration keeps two significant figures of seconds, minutes or hours.
func roundDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.2g s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%.2g min", d.Minutes())
	}
	return fmt.Sprintf("%.2g h", d.Hours())
}

// rigidInfo describes the rigid bodies: how many of each kind, their total
// mass, and the rules of their contacts.
func rigidInfo(w io.Writer, sys *rigid.System) {
	var polygons, disks, driven int
	var mass float64
	for _, b := range sys.Bodies {
		switch {
		case b.Driven():
			driven++
		default:
			mass += b.Mass
		}
		if _, ok := b.Shape.(rigid.Disk); ok {
			disks++
		} else {
			polygons++
		}
	}
	fmt.Fprintf(w, "rigid bodies: %d polygons, %d disks, %d of them driven; free mass %.4g kg per m of thickness; alert %.3g m\n",
		polygons, disks, driven, mass, sys.Alert())
	for _, r := range sys.Rules() {
		fmt.Fprintf(w, "rigid contacts %q with %q: mu %g, law %s, restitution %g (dissipation index %.3g)\n",
			r.A, r.B, r.Mu, r.Law, r.Restitution, (1-r.Restitution)/(1+r.Restitution))
	}
}
