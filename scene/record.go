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

// maxRecordBytes bounds a record's CSV file (an accelerogram of a day at
// 1 kHz is a few MB).
const maxRecordBytes = 256 << 20

// record reads a record motion's file (beside the scene, or in an
// example's files) into a contact.Record: the time from its first column,
// the acceleration from Column (default the second) times Scale.
func (m Motion) record(s *Scene) (*contact.Record, error) {
	path := m.File
	var data []byte
	var err error
	switch {
	case filepath.IsAbs(path):
		data, err = inputfile.ReadFile(path, maxRecordBytes, "ground motion record (CSV)")
	case s.Files != nil:
		path = filepath.Join(s.Dir, m.File)
		var f io.ReadCloser
		if f, err = s.Files.Open(filepath.ToSlash(filepath.Clean(m.File))); err == nil {
			data, err = inputfile.Read(f, path, maxRecordBytes, "ground motion record (CSV)")
			f.Close()
		}
	default:
		path = filepath.Join(s.Dir, m.File)
		data, err = inputfile.ReadFile(path, maxRecordBytes, "ground motion record (CSV)")
	}
	if err != nil {
		return nil, fmt.Errorf("motion.file: %w", err)
	}
	t, a, err := m.columns(data, path)
	if err != nil {
		return nil, err
	}
	r, err := contact.NewRecord(t, a, [2]float64{m.Direction[0], m.Direction[1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// columns reads the time and the scaled acceleration of a record's CSV.
func (m Motion) columns(data []byte, path string) (t, a []float64, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	head, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: no header line: expected the time's column, then the acceleration's", path)
	}
	col := 1
	if m.Column != "" {
		col = -1
		for i, h := range head {
			if strings.TrimSpace(h) == m.Column {
				col = i
			}
		}
		if col < 0 {
			return nil, nil, fmt.Errorf("%s: no column %q (it has %s): give motion.column as the header names it", path, m.Column, strings.Join(head, ", "))
		}
	}
	if col == 0 || col >= len(head) {
		return nil, nil, fmt.Errorf("%s: %d columns: expected the time's, then the acceleration's", path, len(head))
	}
	scale := m.Scale
	if scale == 0 {
		scale = 1
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
		v, err2 := strconv.ParseFloat(strings.TrimSpace(rec[col]), 64)
		if err1 != nil || err2 != nil || math.IsNaN(x+v) || math.IsInf(x+v, 0) || math.Abs(scale*v) > maxRecordAcceleration {
			line, _ := r.FieldPos(0)
			return nil, nil, fmt.Errorf("%s line %d: %q, %q: expected a time and an acceleration, finite numbers, the acceleration times motion.scale within +-%g m/s^2", path, line, rec[0], rec[col], maxRecordAcceleration)
		}
		t, a = append(t, x), append(a, scale*v)
	}
	return t, a, nil
}
