package vtk

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fecontact/fecontact/internal/vtkcheck"
	"github.com/fecontact/fecontact/mesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is a Q8 mesh with a displacement field u = (x y, -x) and a cell
// field equal to the cell number.
func sample(t *testing.T, kind mesh.Kind) *Grid {
	m, err := mesh.Rectangle([2]float64{0, 0}, 2, 1, 3, 2, kind)
	require.NoError(t, err)
	g := FromMesh(m)
	u := make([]float64, 2*len(m.Nodes))
	for i, p := range m.Nodes {
		u[2*i], u[2*i+1] = p[0]*p[1], -p[0]
	}
	g.AddPointVector("displacement", u)
	ids := make([]float64, len(m.Cells))
	for i := range ids {
		ids[i] = float64(i)
	}
	g.AddCellInteger("cell", ids)
	return g
}

// xmlArray and xmlFile mirror the parts of a VTU file the test reads.
type xmlArray struct {
	Type   string `xml:"type,attr"`
	Name   string `xml:"Name,attr"`
	Comps  int    `xml:"NumberOfComponents,attr"`
	Format string `xml:"format,attr"`
	Offset int    `xml:"offset,attr"`
	Text   string `xml:",chardata"`
}

type xmlFile struct {
	Piece struct {
		NPoints   int        `xml:"NumberOfPoints,attr"`
		NCells    int        `xml:"NumberOfCells,attr"`
		PointData []xmlArray `xml:"PointData>DataArray"`
		CellData  []xmlArray `xml:"CellData>DataArray"`
		Points    []xmlArray `xml:"Points>DataArray"`
		Cells     []xmlArray `xml:"Cells>DataArray"`
	} `xml:"UnstructuredGrid>Piece"`
}

// decode reads an array back as float64 whatever its type and encoding;
// appended is the raw content after the '_' marker.
func decode(t *testing.T, a xmlArray, appended []byte) []float64 {
	var raw []byte
	switch a.Format {
	case "ascii":
		var out []float64
		for _, f := range strings.Fields(a.Text) {
			v, err := strconv.ParseFloat(f, 64)
			require.NoError(t, err)
			out = append(out, v)
		}
		return out
	case "binary":
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(a.Text))
		require.NoError(t, err)
		require.Equal(t, uint64(len(b)-8), binary.LittleEndian.Uint64(b))
		raw = b[8:]
	case "appended":
		n := binary.LittleEndian.Uint64(appended[a.Offset:])
		raw = appended[a.Offset+8 : a.Offset+8+int(n)]
	}
	var out []float64
	switch a.Type {
	case "Float64":
		for i := 0; i < len(raw); i += 8 {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
	case "Int64":
		for i := 0; i < len(raw); i += 8 {
			out = append(out, float64(int64(binary.LittleEndian.Uint64(raw[i:]))))
		}
	case "UInt8":
		for _, b := range raw {
			out = append(out, float64(b))
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, enc := range []Encoding{ASCII, Base64, Raw} {
		for _, kind := range mesh.Kinds {
			g := sample(t, kind)
			var buf bytes.Buffer
			require.NoError(t, EncodeVTU(&buf, g, enc))
			text := buf.Bytes()
			var appended []byte
			if i := bytes.Index(text, []byte("<AppendedData encoding=\"raw\">\n_")); i >= 0 {
				appended = text[i+len("<AppendedData encoding=\"raw\">\n_"):]
				text = append(text[:i:i], []byte("</VTKFile>")...)
			}
			var f xmlFile
			require.NoError(t, xml.Unmarshal(text, &f), "encoding %d", enc)
			p := f.Piece
			assert.Equal(t, len(g.Points), p.NPoints)
			assert.Equal(t, len(g.Cells), p.NCells)
			pts := decode(t, p.Points[0], appended)
			for i, q := range g.Points {
				assert.Equal(t, []float64{q[0], q[1], 0}, pts[3*i:3*i+3])
			}
			assert.Equal(t, g.PointData[0].Values, decode(t, p.PointData[0], appended))
			assert.Equal(t, g.CellData[0].Values, decode(t, p.CellData[0], appended))
			assert.Equal(t, "Int64", p.CellData[0].Type, "a label is written as an integer")
			types := decode(t, p.Cells[2], appended)
			conn := decode(t, p.Cells[0], appended)
			for i := range g.Cells {
				assert.Equal(t, float64(CellType(kind)), types[i])
			}
			assert.Equal(t, float64(g.Cells[0].Nodes[1]), conn[1])
		}
	}
}

func TestRejectsNaNAndSizeMismatch(t *testing.T) {
	g := sample(t, mesh.Q4)
	g.PointData[0].Values[7] = math.NaN()
	var buf bytes.Buffer
	assert.ErrorContains(t, EncodeVTU(&buf, g, Base64), `point field "displacement": value 1 of point 2 is NaN`)
	g = sample(t, mesh.Q4)
	g.CellData[0].Values = g.CellData[0].Values[1:]
	assert.ErrorContains(t, EncodeVTU(&buf, g, Base64), `cell field "cell" has 5 values for 6 cells`)
}

func TestRejectsWhatXMLAndVTKCannotHold(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(g *Grid)
		enc   Encoding
		want  string
	}{
		{"kind", func(g *Grid) { g.Cells[2].Kind = mesh.Kind(7) }, Base64, "vtk: cell 2: 4 nodes of kind Kind(7)"},
		{"node count", func(g *Grid) { g.Cells[1].Nodes = g.Cells[1].Nodes[:3] }, Base64, "vtk: cell 1: 3 nodes of kind Q4"},
		{"missing point", func(g *Grid) { g.Cells[0].Nodes[3] = 99 }, Base64, "vtk: cell 0: node 99 is not one of the 12 points"},
		{"control", func(g *Grid) { g.PointData[0].Name = "a\u0001b" }, Base64, `"a\x01b" holds the control character U+0001`},
		{"utf8", func(g *Grid) { g.CellData[0].Name = "a\xffb" }, Base64, `"a\xffb" is not valid UTF-8`},
		{"encoding", func(*Grid) {}, Encoding(9), "vtk: encoding 9"},
	} {
		g := sample(t, mesh.Q4)
		tc.spoil(g)
		var buf bytes.Buffer
		assert.ErrorContains(t, EncodeVTU(&buf, g, tc.enc), tc.want, tc.name)
	}
	var c Collection
	c.Add(0, 0, "body_a\u0001b_00000.vtu")
	assert.ErrorContains(t, c.Write(filepath.Join(t.TempDir(), "x.pvd")), "holds the control character U+0001")
}

func TestAtomicWriteLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.vtu")
	g := sample(t, mesh.Q4)
	require.NoError(t, WriteVTU(path, g, Base64))
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	// A failing write (a NaN) keeps the old complete file and no temporary.
	g.PointData[0].Values[0] = math.Inf(1)
	require.Error(t, WriteVTU(path, g, Base64))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

func TestVTKReadsOurFiles(t *testing.T) {
	dir := t.TempDir()
	var c Collection
	for i, kind := range mesh.Kinds {
		for _, enc := range []Encoding{ASCII, Base64, Raw} {
			g := sample(t, kind)
			name := kind.String() + "_" + strconv.Itoa(int(enc)) + ".vtu"
			require.NoError(t, WriteVTU(filepath.Join(dir, name), g, enc))
			c.Add(float64(i)*0.5, int(enc), name)
		}
	}
	require.NoError(t, c.Write(filepath.Join(dir, "all.pvd")))
	info := vtkcheck.Read(t, filepath.Join(dir, "all.pvd"))
	require.Len(t, info, 12)
	for i, got := range info {
		kind := mesh.Kinds[i/3]
		g := sample(t, kind)
		assert.Equal(t, 0, got.Errors)
		assert.Equal(t, len(g.Points), got.Points, "%v", kind)
		assert.Equal(t, len(g.Cells), got.Cells, "%v", kind)
		assert.Equal(t, []int{int(CellType(kind))}, got.Types)
		assert.Equal(t, 3, got.NComp)
		assert.Equal(t, g.PointData[0].Values[9:12], got.U3)
		assert.Equal(t, float64(i/3)*0.5, got.Time)
	}
}
