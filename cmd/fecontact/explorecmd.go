package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/explore"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/plural"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
)

type exploreFlags struct {
	out                string
	solutions          int
	modality, contacts string
	seed               uint64
	tol                float64
	exactAll, moving   bool
	overwrite          bool
	state              string
	files              *outdir.Folder // the output folder, once taken
}

// exploreCmd runs a scene of rigid bodies to its end (a deposit at rest)
// and surveys the contact forces that hold it ([M04] section 3.1).
func exploreCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(stdout)
	var f exploreFlags
	fs.StringVar(&f.out, "o", "explore", "output folder")
	fs.IntVar(&f.solutions, "solutions", 300, "Gauss-Seidel runs per modality")
	fs.StringVar(&f.modality, "modality", "both", "guess (random initial guess), order (random order of the contacts) or both")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the first run")
	fs.Float64Var(&f.tol, "tol", 1e-8, "NLGS residual of a run")
	fs.StringVar(&f.contacts, "contacts", "", "contacts to draw, e.g. 3,17 (default: those of grains on two supports and the most indeterminate)")
	fs.BoolVar(&f.exactAll, "exact-all", false, "compute the exact set of every contact, not only of those drawn")
	fs.BoolVar(&f.moving, "moving", false, "keep the bodies' velocities: the force fan of the step at the scene's end (a flow), in random order")
	fs.StringVar(&f.state, "state", "", "start from the state.json a run of the scene wrote instead of running it")
	fs.BoolVar(&f.overwrite, "overwrite", false, "write into an output folder that holds files fecontact did not write (files of the names it writes are replaced, the others stay)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact explore SCENE.toml|EXAMPLE [-o DIR] [--state DIR/state.json] [--solutions 300] [--modality both] [--seed 1] [--tol 1e-8] [--contacts 3,17]")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one scene file or example name", errUsage)
	}
	modalities, err := parseModality(f.modality)
	if err != nil {
		return err
	}
	if err := (explore.Options{Solutions: f.solutions, Tol: f.tol}).Check(); err != nil {
		return fmt.Errorf("%w (--solutions %d, --tol %g)", err, f.solutions, f.tol)
	}
	sc, err := loadScene(pos[0])
	if err != nil {
		return err
	}
	if len(sc.Rigid) == 0 {
		return fmt.Errorf("%s: explore surveys rigid bodies at rest: the scene has no [[rigid]] body", sc.Name)
	}
	model, err := sc.Model(scene.Variant{})
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	// The earlier survey goes first: an interrupted one leaves no mix.
	files, n, err := outdir.Create(f.out, "explore", outdir.Options{Overwrite: f.overwrite, Command: commandLine("explore", args)})
	if err != nil {
		return err
	}
	defer files.Close()
	if n > 0 {
		fmt.Fprintf(stdout, "removed %s of an earlier survey from %s\n", plural.S(n, "file"), f.out)
	}
	f.files = files
	if err := reachState(ctx, sc, model, f.state, stdout); err != nil {
		return err
	}
	newSurvey := explore.New
	if f.moving {
		newSurvey, modalities = explore.NewMoving, []explore.Modality{explore.RandomOrder}
	}
	s, err := newSurvey(model.Rigid, sc.Time.H)
	if err != nil {
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	return survey(ctx, s, f, modalities, stdout)
}

// errSurveyInterrupted says what an interrupted survey leaves.
func errSurveyInterrupted(dir string) error {
	return fmt.Errorf("%w: the survey stopped before its files were written; %s holds none of them", errInterrupted, dir)
}

// reachState brings the model's rigid bodies to the state to survey: the
// one a run of the scene saved (state, when given), or the scene's end.
func reachState(ctx context.Context, sc *scene.Scene, model *scene.Model, state string, stdout io.Writer) error {
	if state != "" {
		st, err := results.ReadState(state)
		if err != nil {
			return err
		}
		if st.Scene != sc.Name { // the same file under another path, or a copy
			fmt.Fprintf(stdout, "note: %s was written by a run of %s\n", state, st.Scene)
		}
		if err := st.Apply(model.Rigid); err != nil {
			return fmt.Errorf("%s: %w", state, err)
		}
		fmt.Fprintf(stdout, "%s: from %s (step %d, t = %.6g s)\n", sc.Name, state, st.Step, st.Time)
		return nil
	}
	sim, err := model.Simulation()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: running %s to the state the scene ends in\n", sc.Name, plural.S(sc.Steps(), "step"))
	tick := newTicker(stdout, "step", sc.Steps())
	for k := range sc.Steps() {
		if ctx.Err() != nil {
			return fmt.Errorf("%w while running the scene to its end, at t = %g s: nothing was surveyed", errInterrupted, sim.Time())
		}
		if _, err := sim.Step(); err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		tick.tick(k+1, func() string {
			return fmt.Sprintf("t = %.4g s  kinetic %.3g J", sim.Time(), sim.TotalEnergy().Kinetic)
		})
	}
	fmt.Fprintf(stdout, "at t = %g s: kinetic energy %.3g J\n", sim.Time(), sim.TotalEnergy().Kinetic)
	return nil
}

func parseModality(m string) ([]explore.Modality, error) {
	switch m {
	case "both":
		return []explore.Modality{explore.RandomOrder, explore.RandomGuess}, nil
	case "guess":
		return []explore.Modality{explore.RandomGuess}, nil
	case "order":
		return []explore.Modality{explore.RandomOrder}, nil
	}
	return nil, fmt.Errorf("%w: --modality %q: expected guess, order or both", errUsage, m)
}

// loadScene reads a scene file, or a built-in example by name. A folder
// is never a scene: an example's name is the example even beside a folder
// of that name (the output folder of `fecontact example NAME -o NAME`).
func loadScene(arg string) (*scene.Scene, error) {
	if isSceneFile(arg) {
		return scene.Load(arg)
	}
	if _, err := examples.Scene(arg); err != nil {
		return nil, fmt.Errorf("%w: %s is no scene file, and %v", errUsage, arg, err)
	}
	return exampleScene(arg)
}

// isSceneFile reports whether a command's argument is a scene file (one
// that exists and is not a folder, or any .toml name: its error then names
// the file) rather than a built-in example's name.
func isSceneFile(arg string) bool {
	if strings.HasSuffix(arg, ".toml") {
		return true
	}
	fi, err := os.Stat(arg)
	return err == nil && !fi.IsDir()
}

// survey runs the modalities, computes the exact sets of the contacts it
// draws (of all with --exact-all), and writes the files and the report.
func survey(ctx context.Context, s *explore.Survey, f exploreFlags, modalities []explore.Modality, stdout io.Writer) error {
	n := len(s.Units)
	var report bytes.Buffer
	if s.Moving() {
		fmt.Fprintf(&report, "%s, %s, in motion: the force fan of one step, in random order\n", plural.S(n, "contact"), plural.N(len(s.Sys.Bodies), "body", "bodies"))
	} else {
		fmt.Fprintf(&report, "%s, %s\n", plural.S(n, "contact"), plural.N(len(s.Sys.Bodies), "body", "bodies"))
	}
	sols := map[explore.Modality][]explore.Solution{}
	for _, m := range modalities {
		if ctx.Err() != nil {
			return errSurveyInterrupted(f.out)
		}
		if m == explore.RandomGuess {
			if err := s.Bound(); err != nil { // not in the runs' time
				return err
			}
		}
		start := time.Now()
		got, rejected, err := s.Run(m, explore.Options{Solutions: f.solutions, Seed: f.seed, Tol: f.tol})
		if err != nil {
			return err
		}
		el := time.Since(start)
		sweeps := 0
		for _, sol := range got {
			sweeps += sol.Sweeps
		}
		if m == explore.RandomGuess {
			fmt.Fprintf(&report, "random guesses draw R_N in [0, %.4g] N/m, the largest admissible R_N (linear programming)\n", s.Box()/s.H())
		}
		fmt.Fprintf(&report, "%s: %d solutions (%d runs left out: not converged, or not in equilibrium to 1e-4 of the weight), %.0f sweeps each, %.0f solutions/s\n",
			m, len(got), rejected, float64(sweeps)/math.Max(float64(len(got)), 1), float64(f.solutions)/el.Seconds())
		sols[m] = got
	}
	if s.Moving() {
		return fanReport(&report, s, f, sols[explore.RandomOrder], stdout)
	}
	supported, err := s.TwoSupports()
	if err != nil {
		return err
	}
	draw, err := contactsToDraw(f.contacts, n, sols, supported)
	if err != nil {
		return err
	}
	exact := draw
	if f.exactAll {
		exact = make([]int, n)
		for c := range exact {
			exact[c] = c
		}
	}
	polys := map[int][][2]float64{}
	start := time.Now()
	for _, c := range exact {
		if ctx.Err() != nil {
			return errSurveyInterrupted(f.out)
		}
		if polys[c], err = s.Admissible(c); err != nil {
			return err
		}
	}
	fmt.Fprintf(&report, "exact admissible sets of %d contacts (linear programming) in %.2f s\n", len(exact), time.Since(start).Seconds())
	outside := coverageReport(&report, s, exact, polys, sols, modalities)
	for _, sp := range supported {
		if sp.Wedged {
			fmt.Fprintf(&report, "%s on two supports (contacts %d and %d) is wedged: its own equilibrium bounds nothing\n", s.Sys.Bodies[sp.Body].Name, sp.Contacts[0]+1, sp.Contacts[1]+1)
			continue
		}
		seg := sp.Segments[0]
		fmt.Fprintf(&report, "%s on two supports (contacts %d and %d): at contact %d its own equilibrium allows (R_T, R_N) from (%.4g, %.4g) to (%.4g, %.4g) N/m\n", s.Sys.Bodies[sp.Body].Name,
			sp.Contacts[0]+1, sp.Contacts[1]+1, sp.Contacts[0]+1, seg[0][0], seg[0][1], seg[len(seg)-1][0], seg[len(seg)-1][1])
	}
	if ctx.Err() != nil {
		return errSurveyInterrupted(f.out)
	}
	if err := writeExplore(f.files, s, polys, sols, modalities, draw, supported); err != nil {
		return err
	}
	fmt.Fprintf(&report, "wrote %s: solutions.csv, admissible.csv, forces.png, contact_*.png (contacts %s), explore.txt\n", f.out, joinInts(draw))
	stdout.Write(report.Bytes())
	if err := writeOut(f.files, "explore.txt", func(w io.Writer) error {
		_, err := w.Write(report.Bytes())
		return err
	}); err != nil {
		return err
	}
	if outside > 0 {
		return fmt.Errorf("%d solutions lie outside the exact admissible sets: a solver or geometry error (explore.txt)", outside)
	}
	return nil
}

// fanReport writes a moving sample's survey: per drawn contact its status
// in the first solution and the spread of its forces over the runs
// (sliding contacts show none, [M04] section 3.2), the solutions and the
// pictures.
func fanReport(report *bytes.Buffer, s *explore.Survey, f exploreFlags, sols []explore.Solution, stdout io.Writer) error {
	sets := map[explore.Modality][]explore.Solution{explore.RandomOrder: sols}
	draw, err := contactsToDraw(f.contacts, len(s.Units), sets, nil)
	if err != nil {
		return err
	}
	if len(sols) == 0 {
		return errors.New("explore: no run converged")
	}
	fan := explore.FanOf(sols, len(s.Units))
	fmt.Fprintf(report, "contacts sliding in every run: %d, median spread of their force %.3g N/m; sticking in every run: %d, median spread %.3g N/m\n",
		len(fan.Sliding), explore.Median(fan.Sliding), len(fan.Sticking), explore.Median(fan.Sticking))
	for _, c := range draw {
		sp := explore.Spread(sols, c)
		fmt.Fprintf(report, "contact %d: %s; R_N spreads over %.3g N/m, R_T over %.3g N/m\n", c+1, sols[0].Status[c], sp[0], sp[1])
	}
	if err := writeExplore(f.files, s, map[int][][2]float64{}, sets, []explore.Modality{explore.RandomOrder}, draw, nil); err != nil {
		return err
	}
	fmt.Fprintf(report, "wrote %s: solutions.csv, forces.png, contact_*.png (contacts %s), explore.txt\n", f.out, joinInts(draw))
	stdout.Write(report.Bytes())
	return writeOut(f.files, "explore.txt", func(w io.Writer) error {
		_, err := w.Write(report.Bytes())
		return err
	})
}

func joinInts(cs []int) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, strconv.Itoa(c+1))
	}
	return strings.Join(parts, ", ")
}

// contactsToDraw parses --contacts (1-based), or picks the first contact
// of up to two grains on two supports and the two contacts whose sampled
// forces spread over the largest area.
func contactsToDraw(list string, n int, sols map[explore.Modality][]explore.Solution, supported []explore.Supported) ([]int, error) {
	var out []int
	if list != "" {
		for _, f := range strings.Split(list, ",") {
			c, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || c < 1 || c > n {
				return nil, fmt.Errorf("%w: --contacts: %q is not a contact number in 1..%d", errUsage, f, n)
			}
			out = append(out, c-1)
		}
		return out, nil
	}
	for _, sp := range supported {
		if !sp.Wedged && len(out) < 2 {
			out = append(out, sp.Contacts[0])
		}
	}
	var sets [][]explore.Solution
	for _, ss := range sols {
		sets = append(sets, ss)
	}
	out = append(out, explore.Widest(sets, n, 2, out)...)
	return out, nil
}

// coverageReport says how much of the exact sets the dots cover and how
// many lie outside (farther than 1e-4 of the weight: none may), and
// returns that count.
func coverageReport(w io.Writer, s *explore.Survey, exact []int, polys map[int][][2]float64, sols map[explore.Modality][]explore.Solution, modalities []explore.Modality) int {
	bad := 0
	for _, m := range modalities {
		c := s.CoverageOf(exact, polys, sols[m])
		fmt.Fprintf(w, "%s: the dots cover %.0f %% of the exact sets on average (%d indeterminate contacts); %d dots lie outside them by more than %.2g N/m (farthest %.2g N/m)\n",
			m, 100*c.Mean, c.Indeterminate, c.Outside, c.Tol, c.Farthest)
		bad += c.Outside
	}
	return bad
}

// writeExplore writes every solution and exact set as CSV, a picture per
// drawn contact (the modalities side by side) and the forces of one
// solution.
func writeExplore(files *outdir.Folder, s *explore.Survey, polys map[int][][2]float64, sols map[explore.Modality][]explore.Solution, modalities []explore.Modality, draw []int, supported []explore.Supported) error {
	name := func(b int) string { return s.Sys.Bodies[b].Name }
	err := writeOut(files, "solutions.csv", func(w io.Writer) error {
		fmt.Fprintln(w, "modality,run,contact,candidate,antagonist,x,y,R_N,R_T,imbalance")
		for _, m := range modalities {
			for _, sol := range sols[m] {
				for c, r := range sol.R {
					u := s.Units[c]
					fmt.Fprintf(w, "%s,%d,%d,%s,%s,%.9g,%.9g,%.9g,%.9g,%.3g\n", strings.ReplaceAll(m.String(), " ", "_"), sol.Run, c+1, name(u.Key.A), name(u.Key.B), u.X[0], u.X[1], r[0], r[1], sol.Imbalance)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = writeOut(files, "admissible.csv", func(w io.Writer) error {
		fmt.Fprintln(w, "contact,vertex,R_T,R_N")
		for c := range len(s.Units) {
			for k, v := range polys[c] {
				fmt.Fprintf(w, "%d,%d,%.9g,%.9g\n", c+1, k+1, v[0], v[1])
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range draw {
		var predicted [][2]float64
		for _, sp := range supported {
			for k, sc := range sp.Contacts {
				if sc == c {
					predicted = sp.Segments[k]
				}
			}
		}
		var panels []plots.ForcePanel
		for _, m := range modalities {
			dots := make([][2]float64, len(sols[m]))
			for i, sol := range sols[m] {
				dots[i] = [2]float64{sol.R[c][1], sol.R[c][0]}
			}
			panels = append(panels, plots.ForcePanel{Title: m.String(), Dots: dots, Admissible: polys[c], Predicted: predicted})
		}
		u := s.Units[c]
		title := fmt.Sprintf("contact %d (%s on %s)", c+1, name(u.Key.A), name(u.Key.B))
		path, err := files.Path(fmt.Sprintf("contact_%d.png", c+1))
		if err != nil {
			return err
		}
		if err := plots.ForcePlane(path, title, panels); err != nil {
			return err
		}
	}
	var one []explore.Solution
	for _, m := range modalities {
		one = append(one, sols[m]...)
	}
	if len(one) == 0 {
		return nil
	}
	forces := make([]plots.Force, len(s.Units))
	for c, u := range s.Units {
		r := one[0].R[c]
		forces[c] = plots.Force{X: u.X, F: [2]float64{r[0]*u.N[0] + r[1]*u.T[0], r[0]*u.N[1] + r[1]*u.T[1]}}
	}
	path, err := files.Path("forces.png")
	if err != nil {
		return err
	}
	return plots.Forces(path, fmt.Sprintf("contact forces of one solution (%s)", one[0].Modality), s.Sys, forces)
}

// writeOut lists a file in the output folder and writes it atomically.
func writeOut(files *outdir.Folder, name string, write func(io.Writer) error) error {
	path, err := files.Path(name)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, write)
}
