package vtk

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/fecontact/fecontact/mesh"
)

// Encoding selects how data arrays are stored.
type Encoding int

// Encodings.
const (
	Base64 Encoding = iota // inline binary, base64 (default)
	Raw                    // appended raw binary
	ASCII                  // text
)

// ParseEncoding reads "base64", "raw" or "ascii".
func ParseEncoding(s string) (Encoding, error) {
	switch s {
	case "base64", "binary", "":
		return Base64, nil
	case "raw", "appended":
		return Raw, nil
	case "ascii":
		return ASCII, nil
	}
	return 0, fmt.Errorf("vtk encoding %q: expected base64, raw or ascii", s)
}

// Field is a named array with Components values per point or cell.
// Integer fields (labels, counts, flags) hold whole numbers and are
// written as Int64, so that ParaView thresholds and colours them as such.
type Field struct {
	Name       string
	Components int
	Values     []float64
	Integer    bool
}

// Grid is an unstructured grid to write. A grid without cells is a point
// cloud: each point is written as a VTK vertex (type 1), which ParaView
// shows as points and can glyph. Polygons, when set instead of Cells, are
// VTK polygons (type 7) of any number of points (the outlines of rigid
// bodies).
type Grid struct {
	Points    [][2]float64
	Cells     []mesh.Cell
	Polygons  [][]int
	Polylines [][]int // VTK poly-lines (type 4), instead of cells or polygons: obstacles
	PointData []Field
	CellData  []Field
}

// FromMesh returns a grid of the mesh's nodes and cells with no fields.
func FromMesh(m *mesh.Mesh) *Grid {
	return &Grid{Points: m.Nodes, Cells: m.Cells}
}

// AddPointVector adds a 2D vector field given as (x, y) pairs per point
// (len 2 x points), written with z = 0.
func (g *Grid) AddPointVector(name string, xy []float64) {
	g.PointData = append(g.PointData, Field{Name: name, Components: 3, Values: pad3(xy)})
}

// AddPointScalar adds one value per point.
func (g *Grid) AddPointScalar(name string, v []float64) {
	g.PointData = append(g.PointData, Field{Name: name, Components: 1, Values: v})
}

// AddPointInteger adds one whole number per point (written as Int64).
func (g *Grid) AddPointInteger(name string, v []float64) {
	g.PointData = append(g.PointData, Field{Name: name, Components: 1, Values: v, Integer: true})
}

// AddCellInteger adds one whole number per cell (written as Int64).
func (g *Grid) AddCellInteger(name string, v []float64) {
	g.CellData = append(g.CellData, Field{Name: name, Components: 1, Values: v, Integer: true})
}

// AddCellScalar adds one value per cell.
func (g *Grid) AddCellScalar(name string, v []float64) {
	g.CellData = append(g.CellData, Field{Name: name, Components: 1, Values: v})
}

// AddCellVector adds a 2D vector per cell, given as (x, y) pairs.
func (g *Grid) AddCellVector(name string, xy []float64) {
	g.CellData = append(g.CellData, Field{Name: name, Components: 3, Values: pad3(xy)})
}

func pad3(xy []float64) []float64 {
	out := make([]float64, 3*len(xy)/2)
	for i := 0; i < len(xy)/2; i++ {
		out[3*i], out[3*i+1] = xy[2*i], xy[2*i+1]
	}
	return out
}

// CellType is the VTK cell type of a mesh kind.
func CellType(k mesh.Kind) uint8 {
	return [...]uint8{mesh.T3: 5, mesh.Q4: 9, mesh.T6: 22, mesh.Q8: 23}[k]
}

// check reports fields whose size does not match the grid, and values that
// are not finite (a NaN in a result must not reach a file silently).
func (g *Grid) check() error {
	for _, set := range []struct {
		what   string
		n      int
		fields []Field
	}{{"point", len(g.Points), g.PointData}, {"cell", g.numCells(), g.CellData}} {
		for _, f := range set.fields {
			if f.Components < 1 || len(f.Values) != set.n*f.Components {
				return fmt.Errorf("vtk: %s field %q has %d values for %d %ss x %d components", set.what, f.Name, len(f.Values), set.n, set.what, f.Components)
			}
			for i, v := range f.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("vtk: %s field %q: value %d of %s %d is %v", set.what, f.Name, i%f.Components, set.what, i/f.Components, v)
				}
			}
		}
	}
	for _, fs := range [][]Field{g.PointData, g.CellData} {
		for _, f := range fs {
			if err := xmlName(f.Name); err != nil {
				return fmt.Errorf("vtk: field name: %w", err)
			}
		}
	}
	for i, p := range g.Points {
		if math.IsNaN(p[0]+p[1]) || math.IsInf(p[0]+p[1], 0) {
			return fmt.Errorf("vtk: point %d is at (%v, %v)", i, p[0], p[1])
		}
	}
	return g.checkCells()
}

// checkCells refuses cells of an unknown kind, with the wrong number of
// nodes, or naming a point the grid does not have.
func (g *Grid) checkCells() error {
	if (g.Cells != nil && g.Polygons != nil) || (g.Polylines != nil && (g.Cells != nil || g.Polygons != nil)) {
		return errors.New("vtk: a grid has cells, polygons or poly-lines, one kind only")
	}
	for _, set := range []struct {
		what  string
		least int
		items [][]int
	}{{"polygon", 3, g.Polygons}, {"poly-line", 2, g.Polylines}} {
		for c, poly := range set.items {
			if len(poly) < set.least {
				return fmt.Errorf("vtk: %s %d has %d points: expected at least %d", set.what, c, len(poly), set.least)
			}
			for _, n := range poly {
				if n < 0 || n >= len(g.Points) {
					return fmt.Errorf("vtk: %s %d: point %d is not one of the %d points", set.what, c, n, len(g.Points))
				}
			}
		}
	}
	for c, cell := range g.Cells {
		if !cell.Kind.Valid() || len(cell.Nodes) != cell.Kind.NumNodes() {
			return fmt.Errorf("vtk: cell %d: %d nodes of kind %v: expected a T3, Q4, T6 or Q8 cell with its nodes", c, len(cell.Nodes), cell.Kind)
		}
		for _, n := range cell.Nodes {
			if n < 0 || n >= len(g.Points) {
				return fmt.Errorf("vtk: cell %d: node %d is not one of the %d points", c, n, len(g.Points))
			}
		}
	}
	return nil
}

func (g *Grid) numCells() int {
	switch {
	case g.Polygons != nil:
		return len(g.Polygons)
	case g.Polylines != nil:
		return len(g.Polylines)
	case g.Cells == nil:
		return len(g.Points)
	}
	return len(g.Cells)
}

// array is one DataArray before encoding.
type array struct {
	name  string
	typ   string // Float64, Int64, UInt8
	comps int
	f64   []float64
	i64   []int64
	u8    []uint8
}

// size is the length of the array's binary form.
func (a *array) size() int { return 8*(len(a.f64)+len(a.i64)) + len(a.u8) }

func (a *array) bytes() []byte {
	switch a.typ {
	case "Float64":
		b := make([]byte, 8*len(a.f64))
		for i, v := range a.f64 {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		return b
	case "Int64":
		b := make([]byte, 8*len(a.i64))
		for i, v := range a.i64 {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
		return b
	}
	return a.u8
}

func (a *array) ascii(w *bufio.Writer) {
	var buf []byte
	n := max(len(a.f64), len(a.i64), len(a.u8))
	for i := 0; i < n; i++ {
		buf = buf[:0]
		switch a.typ {
		case "Float64":
			buf = strconv.AppendFloat(buf, a.f64[i], 'g', -1, 64)
		case "Int64":
			buf = strconv.AppendInt(buf, a.i64[i], 10)
		default:
			buf = strconv.AppendUint(buf, uint64(a.u8[i]), 10)
		}
		if (i+1)%a.comps == 0 || i == n-1 {
			buf = append(buf, '\n')
		} else {
			buf = append(buf, ' ')
		}
		w.Write(buf)
	}
}

// EncodeVTU writes the grid as a VTK XML unstructured grid to w.
func EncodeVTU(w io.Writer, g *Grid, enc Encoding) error {
	if enc < Base64 || enc > ASCII {
		return fmt.Errorf("vtk: encoding %d: expected Base64, Raw or ASCII", int(enc))
	}
	if err := g.check(); err != nil {
		return err
	}
	pts := make([]float64, 3*len(g.Points))
	for i, p := range g.Points {
		pts[3*i], pts[3*i+1] = p[0], p[1]
	}
	conn, offs, types := g.topology()
	fields := func(fs []Field) []*array {
		var out []*array
		for _, f := range fs {
			if f.Integer {
				ints := make([]int64, len(f.Values))
				for i, v := range f.Values {
					ints[i] = int64(v)
				}
				out = append(out, &array{name: f.Name, typ: "Int64", comps: f.Components, i64: ints})
				continue
			}
			out = append(out, &array{name: f.Name, typ: "Float64", comps: f.Components, f64: f.Values})
		}
		return out
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	e := &encoder{w: bw, enc: enc}
	e.printf("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<UnstructuredGrid>\n")
	e.printf("<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", len(g.Points), len(types))
	e.section("PointData", fields(g.PointData))
	e.section("CellData", fields(g.CellData))
	e.section("Points", []*array{{name: "Points", typ: "Float64", comps: 3, f64: pts}})
	e.section("Cells", []*array{
		{name: "connectivity", typ: "Int64", comps: 1, i64: conn},
		{name: "offsets", typ: "Int64", comps: 1, i64: offs},
		{name: "types", typ: "UInt8", comps: 1, u8: types},
	})
	e.printf("</Piece>\n</UnstructuredGrid>\n")
	if enc == Raw {
		e.printf("<AppendedData encoding=\"raw\">\n_")
		for _, a := range e.appended {
			b := a.bytes()
			var head [8]byte
			binary.LittleEndian.PutUint64(head[:], uint64(len(b)))
			bw.Write(head[:])
			bw.Write(b)
		}
		e.printf("\n</AppendedData>\n")
	}
	e.printf("</VTKFile>\n")
	return bw.Flush()
}

// topology returns the connectivity, offsets and VTK types of the cells,
// or of one vertex per point for a point cloud.
func (g *Grid) topology() (conn, offs []int64, types []uint8) {
	for _, set := range []struct {
		items [][]int
		typ   uint8
	}{{g.Polygons, 7}, {g.Polylines, 4}} {
		if set.items == nil {
			continue
		}
		for _, p := range set.items {
			for _, n := range p {
				conn = append(conn, int64(n))
			}
			offs = append(offs, int64(len(conn)))
			types = append(types, set.typ)
		}
		return conn, offs, types
	}
	if g.Cells == nil {
		for i := range g.Points {
			conn = append(conn, int64(i))
			offs = append(offs, int64(i+1))
			types = append(types, 1)
		}
		return conn, offs, types
	}
	for _, c := range g.Cells {
		for _, n := range c.Nodes {
			conn = append(conn, int64(n))
		}
		offs = append(offs, int64(len(conn)))
		types = append(types, CellType(c.Kind))
	}
	return conn, offs, types
}

type encoder struct {
	w        *bufio.Writer
	enc      Encoding
	offset   int64
	appended []*array
}

func (e *encoder) printf(format string, a ...any) { fmt.Fprintf(e.w, format, a...) }

func (e *encoder) section(tag string, arrays []*array) {
	if len(arrays) == 0 && tag != "Points" && tag != "Cells" {
		return
	}
	e.printf("<%s>\n", tag)
	for _, a := range arrays {
		e.printf("<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"", a.typ, xmlEscape(a.name), a.comps)
		switch e.enc {
		case ASCII:
			e.printf(" format=\"ascii\">\n")
			a.ascii(e.w)
		case Base64:
			b := a.bytes()
			buf := make([]byte, 8+len(b))
			binary.LittleEndian.PutUint64(buf, uint64(len(b)))
			copy(buf[8:], b)
			e.printf(" format=\"binary\">\n")
			enc := base64.NewEncoder(base64.StdEncoding, e.w)
			enc.Write(buf)
			enc.Close()
			e.printf("\n")
		case Raw:
			e.printf(" format=\"appended\" offset=\"%d\">\n", e.offset)
			e.appended = append(e.appended, a)
			e.offset += 8 + int64(a.size())
		}
		e.printf("</DataArray>\n")
	}
	e.printf("</%s>\n", tag)
}

// xmlName refuses what XML 1.0 cannot hold in an attribute, even escaped:
// invalid UTF-8 and control characters other than tab, newline and return.
func xmlName(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%q is not valid UTF-8", s)
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return fmt.Errorf("%q holds the control character %U, which XML cannot hold", s, r)
		}
	}
	return nil
}

func xmlEscape(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
