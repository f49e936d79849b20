package vtk

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/inputfile"
)

// MaxFileBytes bounds a .vtu or .pvd that ReadVTU or ReadPVD reads.
const MaxFileBytes = 1 << 30

// Piece is a .vtu file as ReadVTU reads it: the grid's points, its cells'
// connectivity (VTK types and points, whatever the kind) and its fields.
type Piece struct {
	Points    [][2]float64
	Cells     [][]int
	Types     []uint8
	PointData []Field
	CellData  []Field
}

// Point returns the point field of that name, nil if there is none.
func (p *Piece) Point(name string) *Field { return find(p.PointData, name) }

// Cell returns the cell field of that name, nil if there is none.
func (p *Piece) Cell(name string) *Field { return find(p.CellData, name) }

func find(fs []Field, name string) *Field {
	for i := range fs {
		if fs[i].Name == name {
			return &fs[i]
		}
	}
	return nil
}

// ReadVTU reads a .vtu file that EncodeVTU wrote (any of its encodings):
// the values come back exactly as they were given.
func ReadVTU(path string) (*Piece, error) {
	data, err := inputfile.ReadFile(path, MaxFileBytes, "VTK unstructured grid (.vtu)")
	if err != nil {
		return nil, err
	}
	p, err := DecodeVTU(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// vtuFile is the part of a .vtu file DecodeVTU reads.
type vtuFile struct {
	XMLName  xml.Name `xml:"VTKFile"`
	Type     string   `xml:"type,attr"`
	Header   string   `xml:"header_type,attr"`
	Order    string   `xml:"byte_order,attr"`
	Piece    vtuPiece `xml:"UnstructuredGrid>Piece"`
	Appended *struct {
		Encoding string `xml:"encoding,attr"`
	} `xml:"AppendedData"`
}

type vtuPiece struct {
	Points    int        `xml:"NumberOfPoints,attr"`
	Cells     int        `xml:"NumberOfCells,attr"`
	PointData []vtuArray `xml:"PointData>DataArray"`
	CellData  []vtuArray `xml:"CellData>DataArray"`
	Coords    []vtuArray `xml:"Points>DataArray"`
	Topology  []vtuArray `xml:"Cells>DataArray"`
}

type vtuArray struct {
	Type       string `xml:"type,attr"`
	Name       string `xml:"Name,attr"`
	Components int    `xml:"NumberOfComponents,attr"`
	Format     string `xml:"format,attr"`
	Offset     int64  `xml:"offset,attr"`
	Text       string `xml:",chardata"`
}

// DecodeVTU decodes the bytes of a .vtu file that EncodeVTU wrote.
func DecodeVTU(data []byte) (*Piece, error) {
	var f vtuFile
	// The appended block is raw bytes, not XML: cut it off before parsing.
	head, appended := data, []byte(nil)
	if i := bytes.Index(data, []byte("<AppendedData")); i >= 0 {
		j := bytes.IndexByte(data[i:], '_')
		if j < 0 {
			return nil, fmt.Errorf("vtk: appended data without its '_' mark")
		}
		head, appended = append(append([]byte(nil), data[:i]...), "</VTKFile>"...), data[i+j+1:]
	}
	if err := xml.Unmarshal(head, &f); err != nil {
		return nil, fmt.Errorf("vtk: not a VTK XML file: %w", err)
	}
	if f.Type != "UnstructuredGrid" || f.Header != "UInt64" || f.Order != "LittleEndian" {
		return nil, fmt.Errorf("vtk: a %s file with %s headers, %s: expected fecontact's (UnstructuredGrid, UInt64, LittleEndian)", f.Type, f.Header, f.Order)
	}
	d := decoder{appended: appended}
	pc := f.Piece
	if pc.Points < 0 || pc.Cells < 0 || pc.Points > MaxFileBytes/24 || pc.Cells > MaxFileBytes/8 {
		return nil, fmt.Errorf("vtk: %d points and %d cells: expected sizes a file of at most %d bytes holds", pc.Points, pc.Cells, MaxFileBytes)
	}
	p := &Piece{}
	if len(pc.Coords) != 1 {
		return nil, fmt.Errorf("vtk: %d point coordinate arrays: expected 1", len(pc.Coords))
	}
	xyz, err := d.values(pc.Coords[0], 3*pc.Points)
	if err != nil {
		return nil, err
	}
	p.Points = make([][2]float64, pc.Points)
	for i := range p.Points {
		p.Points[i] = [2]float64{xyz[3*i], xyz[3*i+1]}
	}
	if p.Cells, p.Types, err = d.topology(pc.Topology, pc.Cells, pc.Points); err != nil {
		return nil, err
	}
	if p.PointData, err = d.fields(pc.PointData, pc.Points); err != nil {
		return nil, err
	}
	if p.CellData, err = d.fields(pc.CellData, pc.Cells); err != nil {
		return nil, err
	}
	return p, nil
}

// decoder reads DataArrays, inline or in the appended block.
type decoder struct{ appended []byte }

// raw returns an array's bytes, as base64 or appended data hold them.
func (d decoder) raw(a vtuArray) ([]byte, error) {
	var b []byte
	switch a.Format {
	case "binary":
		dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(a.Text))
		if err != nil {
			return nil, fmt.Errorf("vtk: array %q: %w", a.Name, err)
		}
		b = dec
	case "appended":
		if a.Offset < 0 || a.Offset > int64(len(d.appended)) {
			return nil, fmt.Errorf("vtk: array %q: offset %d past the appended data (%d bytes)", a.Name, a.Offset, len(d.appended))
		}
		b = d.appended[a.Offset:]
	default:
		return nil, fmt.Errorf("vtk: array %q: format %q", a.Name, a.Format)
	}
	if len(b) < 8 {
		return nil, fmt.Errorf("vtk: array %q: no length header", a.Name)
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) {
		return nil, fmt.Errorf("vtk: array %q: %d bytes declared, %d there", a.Name, n, len(b)-8)
	}
	return b[8 : 8+n], nil
}

// values decodes an array into float64s (whole numbers for integer
// types), expecting n of them.
func (d decoder) values(a vtuArray, n int) ([]float64, error) {
	size := map[string]int{"Float64": 8, "Int64": 8, "UInt8": 1}[a.Type]
	if size == 0 {
		return nil, fmt.Errorf("vtk: array %q: type %q: expected Float64, Int64 or UInt8", a.Name, a.Type)
	}
	out := make([]float64, 0, n)
	if a.Format == "ascii" {
		for _, w := range strings.Fields(a.Text) {
			v, err := strconv.ParseFloat(w, 64)
			if err != nil {
				return nil, fmt.Errorf("vtk: array %q: %w", a.Name, err)
			}
			out = append(out, v)
		}
	} else {
		b, err := d.raw(a)
		if err != nil {
			return nil, err
		}
		for i := 0; i+size <= len(b); i += size {
			switch a.Type {
			case "Float64":
				out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b[i:])))
			case "Int64":
				out = append(out, float64(int64(binary.LittleEndian.Uint64(b[i:]))))
			default:
				out = append(out, float64(b[i]))
			}
		}
	}
	if len(out) != n {
		return nil, fmt.Errorf("vtk: array %q: %d values, expected %d", a.Name, len(out), n)
	}
	return out, nil
}

// fields decodes point or cell arrays of count tuples each.
func (d decoder) fields(as []vtuArray, count int) ([]Field, error) {
	var out []Field
	for _, a := range as {
		comps := max(a.Components, 1)
		v, err := d.values(a, comps*count)
		if err != nil {
			return nil, err
		}
		out = append(out, Field{Name: a.Name, Components: comps, Values: v, Integer: a.Type != "Float64"})
	}
	return out, nil
}

// topology decodes the cells' connectivity, offsets and types.
func (d decoder) topology(as []vtuArray, cells, points int) ([][]int, []uint8, error) {
	arrays := map[string]vtuArray{}
	for _, a := range as {
		arrays[a.Name] = a
	}
	offs, err := d.values(arrays["offsets"], cells)
	if err != nil {
		return nil, nil, err
	}
	total := 0
	if cells > 0 {
		total = int(offs[cells-1])
	}
	conn, err := d.values(arrays["connectivity"], total)
	if err != nil {
		return nil, nil, err
	}
	types, err := d.values(arrays["types"], cells)
	if err != nil {
		return nil, nil, err
	}
	out, ts := make([][]int, cells), make([]uint8, cells)
	start := 0
	for c := range cells {
		end := int(offs[c])
		if end < start || end > total {
			return nil, nil, fmt.Errorf("vtk: cell %d: offsets not increasing", c)
		}
		for _, v := range conn[start:end] {
			if v < 0 || int(v) >= points {
				return nil, nil, fmt.Errorf("vtk: cell %d: point %g of %d", c, v, points)
			}
			out[c] = append(out[c], int(v))
		}
		ts[c], start = uint8(types[c]), end
	}
	return out, ts, nil
}

// ReadPVD reads a .pvd collection: its entries, their files joined to the
// collection's folder.
func ReadPVD(path string) ([]Entry, error) {
	data, err := inputfile.ReadFile(path, MaxFileBytes, "VTK collection (.pvd)")
	if err != nil {
		return nil, err
	}
	var f struct {
		Sets []struct {
			Time float64 `xml:"timestep,attr"`
			Part int     `xml:"part,attr"`
			File string  `xml:"file,attr"`
		} `xml:"Collection>DataSet"`
	}
	if err := xml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a VTK collection: %w", path, err)
	}
	out := make([]Entry, len(f.Sets))
	for i, s := range f.Sets {
		if s.File == "" || filepath.Base(s.File) != s.File || s.File == ".." {
			return nil, fmt.Errorf("%s: data set %d names %q: expected a file beside the collection", path, i+1, s.File)
		}
		out[i] = Entry{Time: s.Time, Part: s.Part, File: filepath.Join(filepath.Dir(path), s.File)}
	}
	return out, nil
}

// Piece returns the grid as ReadVTU reads it back from its file: the same
// values, so that what a program computes from a grid it writes and from
// the file agree to the bit.
func (g *Grid) Piece() *Piece {
	conn, offs, types := g.topology()
	p := &Piece{Points: g.Points, Types: types, PointData: g.PointData, CellData: g.CellData, Cells: make([][]int, len(types))}
	all := make([]int, len(conn)) // one backing array for every cell
	for i, v := range conn {
		all[i] = int(v)
	}
	start := 0
	for c, end := range offs {
		p.Cells[c] = all[start:end:end]
		start = int(end)
	}
	return p
}
