package mesh

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/inputfile"
)

// ReadGmsh reads a Gmsh ASCII mesh file, format 4.1 or 2.2.
//
// Triangles (3 and 6 nodes) and quadrangles (4 and 8 nodes) become cells;
// physical surfaces become cell groups, physical curves edge groups (their
// line elements matched to cell sides, oriented as the cell's side) and
// physical points node groups, all by name (or by number when unnamed).
// Every edge and cell group also gets a node group of the same name unless a
// physical point already has it, so that any group can be fixed by name.
// Other element types, binary files and anything malformed are refused with
// an error naming the file and line.
func ReadGmsh(path string) (*Mesh, error) {
	f, err := inputfile.Open(path, MaxGmshBytes, "Gmsh mesh (.msh, ASCII 4.1 or 2.2)")
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	defer f.Close()
	return DecodeGmsh(f, path)
}

// MaxGmshBytes bounds a mesh file: some ten million cells.
const MaxGmshBytes = 1 << 30

// DecodeGmsh reads a Gmsh ASCII mesh from r; name is used in messages.
func DecodeGmsh(r io.Reader, name string) (*Mesh, error) {
	p := &gmshParser{sc: bufio.NewScanner(r), name: name, m: New(name),
		physName: map[[2]int]string{}, entPhys: map[[2]int][]int{}, nodeIdx: map[int]int{}}
	p.sc.Buffer(make([]byte, 1<<20), 1<<26)
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// gmshElement is a raw element before it is sorted into cells and groups.
type gmshElement struct {
	typ   int
	nodes []int // indices into m.Nodes
	phys  []int
	line  int
}

type gmshParser struct {
	sc      *bufio.Scanner
	name    string
	line    int
	m       *Mesh
	version string

	physName map[[2]int]string // (dim, tag) -> name
	entPhys  map[[2]int][]int  // (dim, entity tag) -> physical tags (4.1)
	nodeIdx  map[int]int       // node tag -> index
	elems    []gmshElement
}

func (p *gmshParser) errorf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: "+format, append([]any{p.name, p.line}, a...)...)
}

// next returns the next non-empty line's fields, or an error at end of file.
func (p *gmshParser) next(want string) ([]string, error) {
	for p.sc.Scan() {
		p.line++
		if f := strings.Fields(p.sc.Text()); len(f) > 0 {
			return f, nil
		}
	}
	if err := p.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", p.name, p.line, err)
	}
	return nil, p.errorf("unexpected end of file, expected %s", want)
}

// count checks a count read from the file. Nothing is allocated from it:
// a count larger than the file is found out by reaching its end.
func (p *gmshParser) count(v int, what string) error {
	if v < 0 {
		return p.errorf("%s = %d: expected a count >= 0", what, v)
	}
	return nil
}

// ints reads a line of at least n integers.
func (p *gmshParser) ints(n int, want string) ([]int, error) {
	f, err := p.next(want)
	if err != nil {
		return nil, err
	}
	if len(f) < n {
		return nil, p.errorf("expected %s (%d integers), got %q", want, n, strings.Join(f, " "))
	}
	out := make([]int, len(f))
	for i, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, p.errorf("expected %s, %q is not an integer", want, s)
		}
		out[i] = v
	}
	return out, nil
}

func (p *gmshParser) parse() error {
	sawNodes, sawElems := false, false
	for {
		f, err := p.next("a section")
		if err != nil {
			switch {
			case p.sc.Err() != nil:
				return err
			case p.version == "":
				return p.errorf("not a Gmsh mesh: no $MeshFormat section")
			case !sawNodes || !sawElems:
				return p.errorf("no $Nodes or $Elements section")
			}
			break
		}
		if p.version == "" && f[0] != "$MeshFormat" {
			return p.errorf("not a Gmsh mesh: expected $MeshFormat, got %q", f[0])
		}
		switch f[0] {
		case "$MeshFormat":
			err = p.format()
		case "$PhysicalNames":
			err = p.physicalNames()
		case "$Entities":
			err = p.entities()
		case "$Nodes":
			sawNodes = true
			if p.version == "2.2" {
				err = p.nodes22()
			} else {
				err = p.nodes41()
			}
		case "$Elements":
			if !sawNodes {
				return p.errorf("$Elements before $Nodes")
			}
			sawElems = true
			if p.version == "2.2" {
				err = p.elements22()
			} else {
				err = p.elements41()
			}
		default:
			if !strings.HasPrefix(f[0], "$") || strings.HasPrefix(f[0], "$End") {
				return p.errorf("expected a section header, got %q", f[0])
			}
			err = p.skip(f[0])
		}
		if err != nil {
			return err
		}
	}
	return p.build()
}

func (p *gmshParser) expectEnd(section string) error {
	f, err := p.next("$End" + section)
	if err != nil {
		return err
	}
	if f[0] != "$End"+section {
		return p.errorf("expected $End%s, got %q", section, strings.Join(f, " "))
	}
	return nil
}

// skip passes over a section fecontact does not use ($NodeData, $Periodic...).
func (p *gmshParser) skip(header string) error {
	end := "$End" + header[1:]
	for {
		f, err := p.next(end)
		if err != nil {
			return err
		}
		if f[0] == end {
			return nil
		}
	}
}

func (p *gmshParser) format() error {
	f, err := p.next("version, file type and data size")
	if err != nil {
		return err
	}
	if len(f) != 3 {
		return p.errorf("expected \"version file-type data-size\", got %q", strings.Join(f, " "))
	}
	switch f[0] {
	case "4.1", "2.2":
		p.version = f[0]
	default:
		return p.errorf("Gmsh format %s is not supported: expected 4.1 or 2.2 (gmsh -format msh41)", f[0])
	}
	if f[1] != "0" {
		return p.errorf("binary Gmsh files are not supported: write ASCII (gmsh -bin 0)")
	}
	return p.expectEnd("MeshFormat")
}

func (p *gmshParser) physicalNames() error {
	n, err := p.ints(1, "the number of physical names")
	if err != nil {
		return err
	}
	if err := p.count(n[0], "number of physical names"); err != nil {
		return err
	}
	for i := 0; i < n[0]; i++ {
		f, err := p.next("a physical name")
		if err != nil {
			return err
		}
		if len(f) < 3 {
			return p.errorf("expected \"dim tag \\\"name\\\"\", got %q", strings.Join(f, " "))
		}
		dim, e1 := strconv.Atoi(f[0])
		tag, e2 := strconv.Atoi(f[1])
		if e1 != nil || e2 != nil {
			return p.errorf("expected integer dimension and tag, got %q", strings.Join(f[:2], " "))
		}
		name := strings.Trim(strings.Join(f[2:], " "), "\"")
		p.physName[[2]int{dim, tag}] = name
	}
	return p.expectEnd("PhysicalNames")
}

// entities reads the physical tags of each point, curve and surface (4.1).
func (p *gmshParser) entities() error {
	counts, err := p.ints(4, "numbers of points, curves, surfaces, volumes")
	if err != nil {
		return err
	}
	for dim, what := range []string{"numPoints", "numCurves", "numSurfaces", "numVolumes"} {
		if err := p.count(counts[dim], what); err != nil {
			return err
		}
	}
	for dim := 0; dim < 4; dim++ {
		for i := 0; i < counts[dim]; i++ {
			f, err := p.next("an entity")
			if err != nil {
				return err
			}
			// point: tag x y z nphys phys...; others: tag 6 box values nphys phys... nbound ...
			at := 4
			if dim > 0 {
				at = 7
			}
			if len(f) <= at {
				return p.errorf("entity of dimension %d: too few fields", dim)
			}
			tag, e1 := strconv.Atoi(f[0])
			nphys, e2 := strconv.Atoi(f[at])
			if e1 != nil || e2 != nil || nphys < 0 || len(f) < at+1+nphys {
				return p.errorf("entity of dimension %d: malformed tag or physical tag count", dim)
			}
			for _, s := range f[at+1 : at+1+nphys] {
				ph, err := strconv.Atoi(s)
				if err != nil {
					return p.errorf("entity %d: physical tag %q is not an integer", tag, s)
				}
				p.entPhys[[2]int{dim, tag}] = append(p.entPhys[[2]int{dim, tag}], abs(ph))
			}
		}
	}
	return p.expectEnd("Entities")
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func (p *gmshParser) addNode(tag int, f []string) error {
	if len(f) < 2 {
		return p.errorf("node %d: expected coordinates x y z", tag)
	}
	var x [3]float64
	for i := 0; i < len(f) && i < 3; i++ {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return p.errorf("node %d: coordinate %q is not a number", tag, f[i])
		}
		x[i] = v
	}
	if x[2] != 0 {
		return p.errorf("node %d: z = %g, but fecontact meshes are 2D (z must be 0)", tag, x[2])
	}
	if _, dup := p.nodeIdx[tag]; dup {
		return p.errorf("node tag %d appears twice", tag)
	}
	p.nodeIdx[tag] = len(p.m.Nodes)
	p.m.Nodes = append(p.m.Nodes, [2]float64{x[0], x[1]})
	p.m.nodeLine = append(p.m.nodeLine, p.line)
	return nil
}

func (p *gmshParser) nodes22() error {
	n, err := p.ints(1, "the number of nodes")
	if err != nil {
		return err
	}
	if err := p.count(n[0], "number of nodes"); err != nil {
		return err
	}
	for i := 0; i < n[0]; i++ {
		f, err := p.next("a node")
		if err != nil {
			return err
		}
		tag, err := strconv.Atoi(f[0])
		if err != nil {
			return p.errorf("expected a node tag, got %q", f[0])
		}
		if err := p.addNode(tag, f[1:]); err != nil {
			return err
		}
	}
	return p.expectEnd("Nodes")
}

func (p *gmshParser) nodes41() error {
	head, err := p.ints(4, "numEntityBlocks numNodes minNodeTag maxNodeTag")
	if err != nil {
		return err
	}
	if err := p.blockCounts(head, "numNodes"); err != nil {
		return err
	}
	left := head[1]
	for b := 0; b < head[0]; b++ {
		bh, err := p.ints(4, "entityDim entityTag parametric numNodesInBlock")
		if err != nil {
			return err
		}
		if bh[2] != 0 {
			return p.errorf("parametric node coordinates are not supported")
		}
		if bh[3] < 0 || bh[3] > left {
			return p.errorf("numNodesInBlock = %d: expected a count in [0, %d], the nodes the header's numNodes leaves", bh[3], left)
		}
		left -= bh[3]
		var tags []int
		for i := 0; i < bh[3]; i++ {
			t, err := p.ints(1, "a node tag")
			if err != nil {
				return err
			}
			tags = append(tags, t[0])
		}
		for _, tag := range tags {
			f, err := p.next("node coordinates")
			if err != nil {
				return err
			}
			if err := p.addNode(tag, f); err != nil {
				return err
			}
		}
	}
	return p.expectEnd("Nodes")
}

// blockCounts checks a 4.1 section header: numEntityBlocks and the total.
func (p *gmshParser) blockCounts(head []int, total string) error {
	if err := p.count(head[0], "numEntityBlocks"); err != nil {
		return err
	}
	return p.count(head[1], total)
}

// gmshNodes is the number of nodes of each Gmsh element type fecontact reads.
var gmshNodes = map[int]int{1: 2, 2: 3, 3: 4, 8: 3, 9: 6, 15: 1, 16: 8}

// gmshTypeName names element types that are refused, for the message.
var gmshTypeName = map[int]string{4: "4-node tetrahedron", 5: "8-node hexahedron", 6: "6-node prism",
	7: "5-node pyramid", 10: "9-node quadrangle", 11: "10-node tetrahedron", 12: "27-node hexahedron",
	17: "20-node hexahedron", 20: "9-node triangle", 21: "10-node triangle", 26: "4-node line"}

func (p *gmshParser) element(typ int, tagsAndNodes []int, phys []int) error {
	want, ok := gmshNodes[typ]
	if !ok {
		what := gmshTypeName[typ]
		if what == "" {
			what = "type " + strconv.Itoa(typ)
		}
		return p.errorf("element %d: Gmsh element %s (type %d) is not supported: expected 3- or 6-node triangles, 4- or 8-node quadrangles, and lines or points for groups", tagsAndNodes[0], what, typ)
	}
	if len(tagsAndNodes)-1 != want {
		return p.errorf("element %d of type %d: expected %d nodes, got %d", tagsAndNodes[0], typ, want, len(tagsAndNodes)-1)
	}
	nodes := make([]int, want)
	for i, t := range tagsAndNodes[1:] {
		idx, ok := p.nodeIdx[t]
		if !ok {
			return p.errorf("element %d: node tag %d is not defined in $Nodes", tagsAndNodes[0], t)
		}
		nodes[i] = idx
	}
	p.elems = append(p.elems, gmshElement{typ: typ, nodes: nodes, phys: phys, line: p.line})
	return nil
}

func (p *gmshParser) elements22() error {
	n, err := p.ints(1, "the number of elements")
	if err != nil {
		return err
	}
	if err := p.count(n[0], "number of elements"); err != nil {
		return err
	}
	for i := 0; i < n[0]; i++ {
		f, err := p.ints(3, "an element: tag type ntags tags... nodes...")
		if err != nil {
			return err
		}
		ntags := f[2]
		if ntags < 0 || len(f) < 3+ntags+1 {
			return p.errorf("element %d: malformed tag count %d", f[0], ntags)
		}
		var phys []int
		if ntags > 0 && f[3] != 0 {
			phys = []int{f[3]}
		}
		rest := append([]int{f[0]}, f[3+ntags:]...)
		if err := p.element(f[1], rest, phys); err != nil {
			return err
		}
	}
	return p.expectEnd("Elements")
}

func (p *gmshParser) elements41() error {
	head, err := p.ints(4, "numEntityBlocks numElements minElementTag maxElementTag")
	if err != nil {
		return err
	}
	if err := p.blockCounts(head, "numElements"); err != nil {
		return err
	}
	left := head[1]
	for b := 0; b < head[0]; b++ {
		bh, err := p.ints(4, "entityDim entityTag elementType numElementsInBlock")
		if err != nil {
			return err
		}
		if bh[3] < 0 || bh[3] > left {
			return p.errorf("numElementsInBlock = %d: expected a count in [0, %d], the elements the header's numElements leaves", bh[3], left)
		}
		left -= bh[3]
		phys := p.entPhys[[2]int{bh[0], bh[1]}]
		for i := 0; i < bh[3]; i++ {
			f, err := p.ints(2, "an element: tag nodes...")
			if err != nil {
				return err
			}
			if err := p.element(bh[2], f, phys); err != nil {
				return err
			}
		}
	}
	return p.expectEnd("Elements")
}

// groupName returns the physical group's name, or its number when unnamed.
func (p *gmshParser) groupName(dim, tag int) string {
	if s, ok := p.physName[[2]int{dim, tag}]; ok {
		return s
	}
	return strconv.Itoa(tag)
}

var cellKind = map[int]Kind{2: T3, 3: Q4, 9: T6, 16: Q8}

// build sorts the raw elements into cells and groups.
func (p *gmshParser) build() error {
	m := p.m
	for _, e := range p.elems {
		if k, ok := cellKind[e.typ]; ok {
			for _, ph := range e.phys {
				name := p.groupName(2, ph)
				m.CellGroups[name] = append(m.CellGroups[name], len(m.Cells))
			}
			m.Cells = append(m.Cells, Cell{Kind: k, Nodes: e.nodes})
			m.cellLine = append(m.cellLine, e.line)
		}
	}
	if len(m.Cells) == 0 {
		return fmt.Errorf("%s: no triangles or quadrangles in the file", p.name)
	}
	sides := m.sides()
	for _, e := range p.elems {
		switch e.typ {
		case 15:
			for _, ph := range e.phys {
				name := p.groupName(0, ph)
				m.NodeGroups[name] = append(m.NodeGroups[name], e.nodes[0])
			}
		case 1, 8:
			if len(e.phys) == 0 {
				continue
			}
			match := sides[keyOf(e.nodes[0], e.nodes[1])]
			if len(match) == 0 || len(match[0].Nodes) != len(e.nodes) || (len(e.nodes) == 3 && match[0].Nodes[2] != e.nodes[2]) {
				return fmt.Errorf("%s:%d: line element with nodes %v is not a side of any cell", p.name, e.line, e.nodes)
			}
			for _, ph := range e.phys {
				name := p.groupName(1, ph)
				m.EdgeGroups[name] = append(m.EdgeGroups[name], match[0])
			}
		}
	}
	for name, g := range m.NodeGroups {
		m.NodeGroups[name] = sortUnique(g)
	}
	for name, es := range m.EdgeGroups {
		if _, ok := m.NodeGroups[name]; !ok {
			m.NodeGroups[name] = EdgeNodes(es)
		}
	}
	for name, cs := range m.CellGroups {
		if _, ok := m.NodeGroups[name]; !ok {
			var nodes []int
			for _, c := range cs {
				nodes = append(nodes, m.Cells[c].Nodes...)
			}
			m.NodeGroups[name] = sortUnique(nodes)
		}
	}
	return nil
}

func sortUnique(a []int) []int {
	sort.Ints(a)
	out := a[:0]
	for i, v := range a {
		if i == 0 || v != a[i-1] {
			out = append(out, v)
		}
	}
	return out
}
