package results

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
)

// Series is one column of a run's history.csv against time.
type Series struct {
	Label string
	Unit  string // from the column's header: "J" of "kinetic [J]"
	T, Y  []float64
}

// ReadColumn reads a column of a history.csv (the file path) against its
// time column; an unknown column is an error listing the file's columns.
func ReadColumn(path, column string) (Series, error) {
	f, err := os.Open(path)
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
	ti, ci := ColumnIndex(rows[0], "time"), ColumnIndex(rows[0], column)
	if ti < 0 || ci < 0 {
		return Series{}, fmt.Errorf("%s: no column %q (columns: %v)", path, column, rows[0])
	}
	s := Series{Label: path, Unit: columnUnit(rows[0][ci])}
	for k, r := range rows[1:] {
		t, err1 := strconv.ParseFloat(r[ti], 64)
		y, err2 := strconv.ParseFloat(r[ci], 64)
		if err1 != nil || err2 != nil {
			return Series{}, fmt.Errorf("%s: line %d: time %q, %s %q: expected numbers", path, k+2, r[ti], column, r[ci])
		}
		s.T, s.Y = append(s.T, t), append(s.Y, y)
	}
	return s, nil
}
