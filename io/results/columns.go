package results

import (
	"fmt"
	"io"
	"strings"
)

// A CSV column's header carries its unit in brackets, "kinetic [J]", so
// that a spreadsheet, pandas or ParaView shows it; counts and ratios have
// none. Readers find a column by its name alone (ColumnIndex).
func column(name, unit string) string {
	if unit == "" {
		return name
	}
	return name + " [" + unit + "]"
}

// writeColumns writes ",name [unit]" for each name, unit pair.
func writeColumns(w io.Writer, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprint(w, ",", column(pairs[i], pairs[i+1]))
	}
}

// ColumnName is a CSV header's column name without its unit.
func ColumnName(header string) string {
	if i := strings.Index(header, " ["); i >= 0 && strings.HasSuffix(header, "]") {
		return header[:i]
	}
	return header
}

// columnUnit is a CSV header's unit, "" when it has none.
func columnUnit(header string) string {
	name := ColumnName(header)
	if name == header {
		return ""
	}
	return header[len(name)+2 : len(header)-1]
}

// ColumnIndex is the index of the column called name (with or without its
// unit) in a header row, or -1.
func ColumnIndex(header []string, name string) int {
	for i, h := range header {
		if h == name || ColumnName(h) == name {
			return i
		}
	}
	return -1
}
