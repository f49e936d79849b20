package sweep

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
)

// Table is what a study's variants gave, a row each in the variants'
// order.
type Table struct {
	Settings []Setting
	Rows     []Row
	// Failed counts the rows with an error from their run, Missing those
	// without a result (not run, stopped, cancelled).
	Failed, Missing int
}

// Row is one variant's: its values (in the settings' order), its folder,
// and its figures or why it has none.
type Row struct {
	Values  []string
	Dir     string
	Figures results.Figures
	Err     error
}

// Painter draws sweep.png (plots.Painter): a figure (the surface angle of
// a heap, or the contact duration) against a setting, a series per
// combination of the other settings' values.
type Painter interface {
	Sweep(path, xlabel string, y results.SweepFigure, series []results.Series) error
}

func (p *Plan) table() *Table {
	t := &Table{Settings: p.m.Set, Rows: make([]Row, p.Len())}
	for k := range t.Rows {
		t.Rows[k] = Row{Values: p.values(k), Dir: p.VariantDir(k)}
	}
	return t
}

// Gather reads the variants' results from their folders: the figures of
// those that ended, the error of those that failed; the others are marked
// as without a result.
func (p *Plan) Gather() *Table {
	t := p.table()
	for k := range t.Rows {
		row := &t.Rows[k]
		var err error
		if row.Figures, err = readFigures(row.Dir); err == nil {
			continue
		}
		if msg, ferr := inputfile.ReadFile(filepath.Join(row.Dir, failedFile), maxFailed, "variant's error"); ferr == nil {
			row.Err, t.Failed = errors.New(strings.TrimSpace(string(msg))), t.Failed+1
			continue
		}
		row.Err, t.Missing = errors.New("no result: not run, stopped or cancelled"), t.Missing+1
	}
	return t
}

// maxFailed bounds a variant's failed.txt as read.
const maxFailed = 1 << 20

// WriteTable writes the table into the study's folder (Table.Write),
// taking the folder for it when the Plan does not hold it (a gathering
// job); it returns the names of the files it wrote.
func (p *Plan) WriteTable(t *Table, painter Painter) ([]string, error) {
	release, err := p.hold()
	if err != nil {
		return nil, err
	}
	defer release()
	return t.Write(p.files, painter)
}

// Write writes sweep.csv (a row per variant) into a study's folder and,
// with a painter, sweep.png; it returns the names of the files it wrote.
func (t *Table) Write(files *outdir.Folder, painter Painter) ([]string, error) {
	path, err := files.Path("sweep.csv")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(path, t.writeCSV); err != nil {
		return nil, err
	}
	wrote := []string{"sweep.csv"}
	y := t.figure()
	x, series := t.durations(y)
	if painter == nil || len(series) == 0 {
		return wrote, nil
	}
	if path, err = files.Path("sweep.png"); err != nil {
		return wrote, err
	}
	if err := painter.Sweep(path, t.Settings[x].Key, y, series); err != nil {
		return wrote, err
	}
	return append(wrote, "sweep.png"), nil
}

// figure is the figure sweep.png plots: the first of
// results.SweepFigures that every variant with figures has.
func (t *Table) figure() results.SweepFigure {
	for _, y := range results.SweepFigures {
		every := true
		for _, r := range t.Rows {
			every = every && (r.Err != nil || !math.IsNaN(y.Of(r.Figures)))
		}
		if every {
			return y
		}
	}
	return results.SweepFigures[len(results.SweepFigures)-1]
}

// durations are figure y of the variants with figures against the swept
// setting: of those whose values are numbers (an array by its norm), the
// one with the most distinct values among the variants with figures (the
// first of equals); a series per combination of the other settings'
// values; none when no such variant has a number to put on the axis.
func (t *Table) durations(y results.SweepFigure) (x int, series []results.Series) {
	x = -1
	most := 0
	for k := range t.Settings {
		seen := map[float64]bool{}
		for _, r := range t.Rows {
			if v, ok := Number(r.Values[k]); ok && r.Err == nil {
				seen[v] = true
			}
		}
		if len(seen) > most {
			x, most = k, len(seen)
		}
	}
	if x < 0 {
		return -1, nil
	}
	index := map[string]int{}
	for _, r := range t.Rows {
		v, ok := Number(r.Values[x])
		if !ok || r.Err != nil {
			continue // a value that is not a number, or a run without figures
		}
		label := strings.Join(slices.Delete(slices.Clone(r.Values), x, x+1), ", ")
		i, seen := index[label]
		if !seen {
			i, index[label] = len(series), len(series)
			series = append(series, results.Series{Label: label})
		}
		series[i].T = append(series[i].T, v)
		series[i].Y = append(series[i].Y, y.Of(r.Figures))
	}
	return x, series
}

func (t *Table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"variant", "folder"}
	for _, s := range t.Settings {
		head = append(head, s.Key)
	}
	head = append(head, "contact_duration [s]", "peak_force [N/m]", "kinetic_ratio", "kinetic [J]", "elastic [J]",
		"contact_law_work [J]", "friction_work [J]", "numerical_dissipation [J]", "surface_angle [deg]", "error")
	if err := cw.Write(head); err != nil {
		return err
	}
	for k, v := range t.Rows {
		row := []string{strconv.Itoa(k + 1), filepath.Base(v.Dir)}
		for _, val := range v.Values {
			row = append(row, strings.Trim(val, `"`)) // "neohookean" as neohookean
		}
		f := v.Figures
		for _, x := range []float64{f.ContactDuration, f.PeakForce, f.KineticRatio(), f.Kinetic, f.Elastic, f.ContactLawWork, f.FrictionWork, f.NumericalDissipation, f.SurfaceAngle} {
			if v.Err != nil {
				x = math.NaN() // no figures of a run that did not end
			}
			row = append(row, cell(x))
		}
		msg := ""
		if v.Err != nil {
			msg = v.Err.Error()
		}
		if err := cw.Write(append(row, msg)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell writes a figure of sweep.csv: empty where there is none (NaN: no
// peak force without a [[contact]] pair, no ratio without an initial
// kinetic energy).
func cell(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 8, 64)
}
