package vtk

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadBack: a grid written in each encoding reads back exactly:
// points, polygons, point and cell fields (floats to the bit, integers as
// integers), and a .pvd's entries with their files beside it.
func TestReadBack(t *testing.T) {
	g := &Grid{Points: [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0.1, math.Pi}}, Polygons: [][]int{{0, 1, 2}, {0, 2, 3}}}
	g.AddPointVector("v", []float64{1, 2, 3, 4, 5, 6, 7, math.SmallestNonzeroFloat64})
	g.AddPointInteger("id", []float64{0, 1, -2, 3})
	g.AddCellScalar("area", []float64{0.5, 1.0 / 3})
	for _, enc := range []Encoding{Base64, Raw, ASCII} {
		var buf bytes.Buffer
		require.NoError(t, EncodeVTU(&buf, g, enc))
		p, err := DecodeVTU(buf.Bytes())
		require.NoError(t, err, "encoding %d", enc)
		assert.Equal(t, g.Points, p.Points)
		assert.Equal(t, g.Polygons, p.Cells)
		assert.Equal(t, []uint8{7, 7}, p.Types)
		assert.Equal(t, []float64{1, 2, 0, 3, 4, 0, 5, 6, 0, 7, math.SmallestNonzeroFloat64, 0}, p.Point("v").Values)
		assert.Equal(t, 3, p.Point("v").Components)
		assert.True(t, p.Point("id").Integer)
		assert.Equal(t, []float64{0, 1, -2, 3}, p.Point("id").Values)
		assert.Equal(t, []float64{0.5, 1.0 / 3}, p.Cell("area").Values)
		assert.Nil(t, p.Point("none"))
		assert.Equal(t, g.Piece(), p, "the grid's own piece is its file's")
	}
	dir := t.TempDir()
	var c Collection
	c.Add(0, 0, "a_00000.vtu")
	c.Add(0.5, 1, "a_00001.vtu")
	require.NoError(t, c.Write(filepath.Join(dir, "a.pvd")))
	es, err := ReadPVD(filepath.Join(dir, "a.pvd"))
	require.NoError(t, err)
	assert.Equal(t, []Entry{{0, 0, filepath.Join(dir, "a_00000.vtu")}, {0.5, 1, filepath.Join(dir, "a_00001.vtu")}}, es)
}

// TestReadRefuses: a file that is not ours, a truncated array and a
// collection that names a file elsewhere are errors that say so.
func TestReadRefuses(t *testing.T) {
	var buf bytes.Buffer
	g := &Grid{Points: [][2]float64{{0, 0}, {1, 0}}}
	g.AddPointScalar("s", []float64{1, 2})
	require.NoError(t, EncodeVTU(&buf, g, Base64))
	good := buf.Bytes()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not xml", []byte("hello"), "not a VTK XML file"},
		{"big endian", bytes.Replace(good, []byte("LittleEndian"), []byte("BigEndian"), 1), "expected fecontact's"},
		{"short array", bytes.Replace(good, []byte(`NumberOfPoints="2"`), []byte(`NumberOfPoints="3"`), 1), "values, expected"},
	} {
		_, err := DecodeVTU(tc.data)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	dir := t.TempDir()
	pvd := filepath.Join(dir, "x.pvd")
	require.NoError(t, os.WriteFile(pvd, []byte(`<VTKFile><Collection><DataSet timestep="0" file="../etc/passwd"/></Collection></VTKFile>`), 0o644))
	_, err := ReadPVD(pvd)
	assert.ErrorContains(t, err, `names "../etc/passwd": expected a file beside the collection`)
}
