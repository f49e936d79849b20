package scene

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/inputfile"
)

// maxRecordAcceleration bounds a record's acceleration (m/s^2): 1e5 g,
// past any shake table or earthquake, before its integral overflows.
const maxRecordAcceleration = 1e6

// maxMotionOffset bounds a displacement record's samples (m): the
// coordinates' own bound.
const maxMotionOffset = 1e15

// article is "an" before a vowel, else "a".
func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// maxRecordBytes bounds a record's CSV file (an accelerogram of a day at
// 1 kHz is a few MB).
const maxRecordBytes = 256 << 20

// record reads a record motion's file (beside the scene, or in an
// example's files) into a contact.Record: the time from its first column,
// the acceleration from Column (default the second) times Scale.
func (m Motion) record(s *Scene) (*contact.Record, error) {
	data, path, err := s.readBeside(m.File, "ground motion record (CSV)", maxRecordBytes)
	if err != nil {
		return nil, fmt.Errorf("motion.file: %w", err)
	}
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	q, what, unit, bound := contact.Acceleration, "acceleration", "m/s^2", maxRecordAcceleration
	switch m.Quantity {
	case "velocity":
		q, what, unit, bound = contact.Velocity, "velocity", "m/s", maxMotionSpeed
	case "displacement":
		q, what, unit, bound = contact.Displacement, "displacement", "m", maxMotionOffset
	}
	ok := func(_, a float64) bool { return math.Abs(scale*a) <= bound }
	t, a, err := csvColumns(data, path, m.Column, "motion.column", "the "+what,
		ok, fmt.Sprintf("a time and %s %s, finite numbers, the %s times motion.scale within +-%g %s", article(what), what, what, bound, unit))
	if err != nil {
		return nil, err
	}
	for i := range a {
		a[i] *= scale
	}
	r, err := contact.NewRecordOf(q, t, a, [2]float64{m.Direction[0], m.Direction[1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// readBeside reads a data file a scene names: at its absolute path, in
// an example's files, or beside the scene; path is where it was read.
func (s *Scene) readBeside(file, what string, max int64) (data []byte, path string, err error) {
	path = file
	switch {
	case filepath.IsAbs(path):
		data, err = inputfile.ReadFile(path, max, what)
	case s.Files != nil:
		path = filepath.Join(s.Dir, file)
		var f io.ReadCloser
		if f, err = s.Files.Open(filepath.ToSlash(filepath.Clean(file))); err == nil {
			data, err = inputfile.Read(f, path, max, what)
			f.Close()
		}
	default:
		path = filepath.Join(s.Dir, file)
		data, err = inputfile.ReadFile(path, max, what)
	}
	return data, path, err
}

// csvColumns reads a CSV's time (its first column) and one value column
// (the header's column, default the second; key is the scene key that
// names it), each row's pair finite and accepted by ok, else refused
// naming the line and what was expected (want).
func csvColumns(data []byte, path, column, key, value string, ok func(t, v float64) bool, want string) (t, v []float64, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	head, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: no header line: expected the time's column, then %s's", path, value)
	}
	col := 1
	if column != "" {
		col = -1
		for i, h := range head {
			if strings.TrimSpace(h) == column {
				col = i
			}
		}
		if col < 0 {
			return nil, nil, fmt.Errorf("%s: no column %q (it has %s): give %s as the header names it", path, column, strings.Join(head, ", "), key)
		}
	}
	if col == 0 || col >= len(head) {
		return nil, nil, fmt.Errorf("%s: %d columns: expected the time's, then %s's", path, len(head), value)
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		x, err1 := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(rec[col]), 64)
		if err1 != nil || err2 != nil || math.IsNaN(x+y) || math.IsInf(x+y, 0) || !ok(x, y) {
			line, _ := r.FieldPos(0)
			return nil, nil, fmt.Errorf("%s line %d: %q, %q: expected %s", path, line, rec[0], rec[col], want)
		}
		t, v = append(t, x), append(v, y)
	}
	return t, v, nil
}
