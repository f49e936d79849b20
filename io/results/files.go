package results

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/timestep"
)

// history writes the per-step history as CSV. It is written as
// NAME.partial and renamed to NAME only when the run completes, so a run
// that fails or is killed never leaves a truncated history.csv.
type history struct {
	f      *os.File
	w      *bufio.Writer
	path   string       // history.csv; the run writes path.partial until it ends
	kinds  []kind.Drawn // the other kinds' columns (kind.Drawn)
	row    []float64    // their values, reused
	line   []byte       // a row's text, reused
	digits []int        // the digits each is written to
	gaps   gapLedger
	points pointLedger
	newton bool // a column of Newton iterations, for a kind that iterates (kind.Iterated)
}

// newHistory creates the CSV of a run, one line per step: the energies and
// works, the contact statistics, then per contact pair the resultant force
// on the candidate body and the closed units, each kind's columns
// (kind.Drawn: a finite-element body's centroid and momenta, a rigid
// body's centre, rotation and momenta, a point mass's position and
// velocity), the gaps asked for, and per point contact the resultant force
// on its masses.
//
// A history resumed (at >= 0) keeps the first at bytes of the file an
// earlier run wrote (history.csv, or history.csv.partial when that run
// did not end) and appends to them.
func newHistory(files *outdir.Folder, pairs int, newton bool, kinds []kind.Drawn, gl gapLedger, pl pointLedger, at int64) (*history, error) {
	path, err := files.Path("history.csv")
	if err != nil {
		return nil, err
	}
	if _, err := files.Path("history.csv.partial"); err != nil {
		return nil, err
	}
	h := &history{path: path, kinds: kinds, gaps: gl, points: pl, newton: newton}
	var columns []kind.Column
	for _, d := range kinds {
		columns = append(columns, d.Columns()...)
	}
	for _, c := range columns {
		h.digits = append(h.digits, c.Digits)
	}
	if at >= 0 {
		return h, h.reopen(at)
	}
	f, err := atomicfile.Create(path + ".partial")
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "step")
	writeColumns(w, "time", "s")
	for _, e := range []string{"kinetic", "elastic", "external_work", "damping_loss", "numerical_dissipation", "contact_work",
		"total_energy", "balance_error", "normal_work", "friction_work", "obstacle_work", "push_out_work"} {
		writeColumns(w, e, "J")
	}
	writeColumns(w, "contacts", "", "open", "", "stick", "", "slide", "", "sweeps", "", "contact_newton", "", "residual", "", "complementarity", "J",
		"complementarity_rel", "", "cone_violation", "", "converged", "", "min_gap", "m", "depth", "m")
	if h.newton {
		writeColumns(w, "newton", "")
	}
	for k := 1; k <= pairs; k++ {
		c := fmt.Sprintf("contact%d", k)
		writeColumns(w, c+"_fx", "N/m", c+"_fy", "N/m", c+"_closed", "")
	}
	for _, c := range columns {
		writeColumns(w, c.Name, c.Unit)
	}
	h.gaps.header(w)
	h.points.header(w)
	fmt.Fprintln(w)
	h.f, h.w = f, w
	return h, nil
}

// addRun writes one line of a run with contact.
// total_energy is the ledger's constant, Kinetic + Elastic + Damping +
// Numerical - External - Contact, and balance_error its drift from step
// 0's (e0): the figure the summary reports at the end.
func (h *history) addRun(st timestep.StepStats, t float64, e timestep.Energy, e0 float64, sim *timestep.Simulation, force [][2]float64, closed []int) error {
	c := cells(strconv.AppendInt(h.line[:0], int64(st.Step), 10)).g(t, 9)
	for _, v := range []float64{e.Kinetic, e.Elastic, e.External, e.Damping, e.Numerical, e.Contact, e.Balance()} {
		c = c.g(v, 12)
	}
	c = c.g(e.Balance()-e0, 3)
	for _, v := range []float64{sim.NormalWork, sim.FrictionWork, sim.ObstacleWork, sim.PushOutWork} {
		c = c.g(v, 12)
	}
	for _, n := range []int{st.Units, st.Open, st.Stick, st.Slide, st.Sweeps, st.ContactNewton} {
		c = c.d(n)
	}
	c = c.g(st.Residual, 3).g(st.Complementarity, 6).g(st.ComplementarityRel, 3).g(st.ConeViolation, 3).d(converged(st))
	c = c.g(finiteOr(st.MinGap, 0), 6).g(st.Deepest.Depth, 6)
	if h.newton {
		c = c.d(st.NewtonIterations)
	}
	for k := range force {
		c = c.force(force[k], closed[k])
	}
	h.row = h.row[:0]
	for _, d := range h.kinds {
		h.row = d.Row(h.row)
	}
	if len(h.row) != len(h.digits) {
		return fmt.Errorf("results: the kinds gave %d values for their %d history columns at step %d", len(h.row), len(h.digits), st.Step)
	}
	for i, v := range h.row {
		c = c.g(v, h.digits[i])
	}
	c = h.gaps.row(c)
	pf, pc := sim.PointForces()
	c = h.points.row(c, pf, pc)
	h.line = append(c, '\n')
	_, err := h.w.Write(h.line)
	return err
}

// converged is 1 for a step whose contact solve met its tolerance or
// that had none to solve, 0 otherwise.
func converged(st timestep.StepStats) int {
	if st.Converged || st.Units == 0 || st.Step == 0 {
		return 1
	}
	return 0
}

func finiteOr(x, alt float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return alt
	}
	return x
}

// reopen truncates the history an earlier run wrote to its first at
// bytes and appends to it, under the name of a run that has not ended.
func (h *history) reopen(at int64) error {
	partial := h.path + ".partial"
	if _, err := os.Lstat(partial); err != nil {
		if _, err := os.Lstat(h.path); err != nil {
			return fmt.Errorf("resuming: %s and %s.partial are both missing from the run's folder: the run cannot go on without its history; start it again (fecontact run %s -o ANOTHER_FOLDER)", h.path, filepath.Base(h.path), filepath.Join(filepath.Dir(h.path), "scene-as-run.toml"))
		}
		if err := atomicfile.Rename(h.path, partial); err != nil {
			return fmt.Errorf("resuming the history: %w", err)
		}
	}
	if st, err := os.Lstat(partial); err != nil || !st.Mode().IsRegular() || st.Size() < at {
		return fmt.Errorf("resuming: %s is not the history the checkpoint was written with (it has fewer than the %d bytes the run had written, or is not a file): start the run again", partial, at)
	}
	if err := os.Truncate(partial, at); err != nil {
		return fmt.Errorf("resuming the history: %w", err)
	}
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("resuming the history: %w", err)
	}
	h.f, h.w = f, bufio.NewWriter(f)
	return nil
}

// flush writes what is buffered and returns the file's size: the bytes
// a checkpoint's history holds.
func (h *history) flush() (int64, error) {
	if err := h.w.Flush(); err != nil {
		return 0, err
	}
	st, err := h.f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// abandon flushes what was written and leaves it as NAME.partial.
func (h *history) abandon() {
	h.w.Flush()
	h.f.Close()
}

// close completes the file and renames it into place.
func (h *history) close() error {
	if err := h.w.Flush(); err != nil {
		h.f.Close()
		return err
	}
	if err := h.f.Close(); err != nil {
		return err
	}
	return atomicfile.Rename(h.path+".partial", h.path)
}
