package results

import (
	"encoding/csv"
	"fmt"
	"strconv"

	"github.com/fecontact/fecontact/internal/inputfile"
)

// Series is one column of a run's history.csv against time.
type Series struct {
	Label string
	Unit  string // from the column's header: "J" of "kinetic [J]"
	XUnit string // the unit of T: "s", or another column's (ReadColumnAgainst)
	T, Y  []float64
}

// MaxHistoryBytes bounds a history read whole for a plot.
const MaxHistoryBytes = 1 << 30

// ReadColumn reads a column of a history.csv (the file path) against its
// time column; an unknown column is an error listing the file's columns.
func ReadColumn(path, column string) (Series, error) { return ReadColumnAgainst(path, "time", column) }

// ReadColumnAgainst reads a column of a history.csv against another (its
// T): a trajectory in the plane of two columns, such as a contact's
// resultant force (point1_fx, point1_fy).
func ReadColumnAgainst(path, x, column string) (Series, error) {
	f, err := inputfile.Open(path, MaxHistoryBytes, "history (CSV, as fecontact run writes it)")
	if err != nil {
		return Series{}, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return Series{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) < 2 {
		return Series{}, fmt.Errorf("%s: no steps", path)
	}
	ti, ci := ColumnIndex(rows[0], x), ColumnIndex(rows[0], column)
	for _, c := range []struct {
		name string
		i    int
	}{{x, ti}, {column, ci}} {
		if c.i < 0 {
			return Series{}, fmt.Errorf("%s: no column %q (columns: %v)", path, c.name, rows[0])
		}
	}
	s := Series{Label: path, Unit: columnUnit(rows[0][ci]), XUnit: columnUnit(rows[0][ti])}
	for k, r := range rows[1:] {
		t, err1 := strconv.ParseFloat(r[ti], 64)
		y, err2 := strconv.ParseFloat(r[ci], 64)
		if err1 != nil || err2 != nil {
			return Series{}, fmt.Errorf("%s: line %d: %s %q, %s %q: expected numbers", path, k+2, x, r[ti], column, r[ci])
		}
		s.T, s.Y = append(s.T, t), append(s.Y, y)
	}
	return s, nil
}
