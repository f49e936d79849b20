package mesh

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Cell is one element of the mesh: its kind and its nodes in the order of
// the package documentation.
type Cell struct {
	Kind  Kind
	Nodes []int
}

// Edge is a side of a cell: its nodes (ends first, then the mid-side node of
// a quadratic side), the cell it belongs to and the side number in that cell.
type Edge struct {
	Nodes []int
	Cell  int
	Side  int
}

// Mesh is a 2D mesh with named groups.
type Mesh struct {
	// Name identifies the mesh in messages: a file name or a generator call.
	Name  string
	Nodes [][2]float64
	Cells []Cell

	NodeGroups map[string][]int
	EdgeGroups map[string][]Edge
	CellGroups map[string][]int

	// nodeLine and cellLine give the source line of each node and cell for
	// meshes read from a file; they are nil for generated meshes.
	nodeLine []int
	cellLine []int
}

// New returns an empty mesh with the given name and initialised group maps.
func New(name string) *Mesh {
	return &Mesh{
		Name:       name,
		NodeGroups: map[string][]int{},
		EdgeGroups: map[string][]Edge{},
		CellGroups: map[string][]int{},
	}
}

// CellAt describes cell c for a message: "cell 12" or "cell 12 (line 40)".
func (m *Mesh) CellAt(c int) string {
	if c < len(m.cellLine) && m.cellLine[c] > 0 {
		return fmt.Sprintf("cell %d (line %d)", c, m.cellLine[c])
	}
	return fmt.Sprintf("cell %d", c)
}

// NodeAt describes node n for a message, with its source line if known.
func (m *Mesh) NodeAt(n int) string {
	if n < len(m.nodeLine) && m.nodeLine[n] > 0 {
		return fmt.Sprintf("node %d (line %d)", n, m.nodeLine[n])
	}
	return fmt.Sprintf("node %d", n)
}

// CellNodes copies the coordinates of cell c's nodes into dst and returns it
// (dst is grown if needed).
func (m *Mesh) CellNodes(dst [][2]float64, c int) [][2]float64 {
	dst = dst[:0]
	for _, n := range m.Cells[c].Nodes {
		dst = append(dst, m.Nodes[n])
	}
	return dst
}

// NodeGroup returns the nodes of the named group, or an error listing the
// groups that exist.
func (m *Mesh) NodeGroup(name string) ([]int, error) {
	if g, ok := m.NodeGroups[name]; ok {
		return g, nil
	}
	return nil, m.unknownGroup("node", name, keys(m.NodeGroups))
}

// EdgeGroup returns the edges of the named group, or an error listing the
// groups that exist.
func (m *Mesh) EdgeGroup(name string) ([]Edge, error) {
	if g, ok := m.EdgeGroups[name]; ok {
		return g, nil
	}
	return nil, m.unknownGroup("edge", name, keys(m.EdgeGroups))
}

// CellGroup returns the cells of the named group, or an error listing the
// groups that exist.
func (m *Mesh) CellGroup(name string) ([]int, error) {
	if g, ok := m.CellGroups[name]; ok {
		return g, nil
	}
	return nil, m.unknownGroup("cell", name, keys(m.CellGroups))
}

func (m *Mesh) unknownGroup(what, name string, have []string) error {
	list := "none"
	if len(have) > 0 {
		list = strings.Join(have, ", ")
	}
	return fmt.Errorf("mesh %s: no %s group %q (%s groups: %s)", m.Name, what, name, what, list)
}

// keys returns the sorted keys of a map, so that messages and loops over
// groups are deterministic.
func keys[V any](g map[string]V) []string {
	out := make([]string, 0, len(g))
	for k := range g {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// GroupNames returns the sorted names of the node, edge and cell groups.
func (m *Mesh) GroupNames() (nodes, edges, cells []string) {
	return keys(m.NodeGroups), keys(m.EdgeGroups), keys(m.CellGroups)
}

// EdgeLength is the length of the straight chord or, for a 3-node edge, of
// the parabola through its nodes (5-point Gauss).
func (m *Mesh) EdgeLength(e Edge) float64 {
	a, b := m.Nodes[e.Nodes[0]], m.Nodes[e.Nodes[1]]
	if len(e.Nodes) == 2 {
		return math.Hypot(b[0]-a[0], b[1]-a[1])
	}
	c := m.Nodes[e.Nodes[2]]
	// x(s) = a N0 + b N1 + c N2 with s in [-1,1]; |x'(s)| integrated.
	gs := [...]float64{0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640}
	gw := [...]float64{0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891}
	var l float64
	for i, s := range gs {
		d0, d1, d2 := s-0.5, s+0.5, -2*s
		dx := a[0]*d0 + b[0]*d1 + c[0]*d2
		dy := a[1]*d0 + b[1]*d1 + c[1]*d2
		l += gw[i] * math.Hypot(dx, dy)
	}
	return l
}

// sideKey identifies a side by its sorted end nodes.
type sideKey [2]int

func keyOf(a, b int) sideKey {
	if a > b {
		a, b = b, a
	}
	return sideKey{a, b}
}

// sides maps every side of every cell to the (cell, side) pairs that share it,
// in cell order.
func (m *Mesh) sides() map[sideKey][]Edge {
	out := make(map[sideKey][]Edge, 2*len(m.Cells))
	for c, cell := range m.Cells {
		for s := 0; s < cell.Kind.NumCorners(); s++ {
			e := m.side(c, s)
			k := keyOf(e.Nodes[0], e.Nodes[1])
			out[k] = append(out[k], e)
		}
	}
	return out
}

func (m *Mesh) side(c, s int) Edge {
	cell := m.Cells[c]
	loc := cell.Kind.SideNodes(s)
	nodes := make([]int, len(loc))
	for i, l := range loc {
		nodes[i] = cell.Nodes[l]
	}
	return Edge{Nodes: nodes, Cell: c, Side: s}
}

// BoundaryEdges returns the sides that belong to exactly one cell, oriented
// with the outward normal on their right, sorted by (cell, side).
func (m *Mesh) BoundaryEdges() []Edge {
	var out []Edge
	for c, cell := range m.Cells {
		for s := 0; s < cell.Kind.NumCorners(); s++ {
			out = append(out, m.side(c, s))
		}
	}
	count := make(map[sideKey]int, len(out))
	for _, e := range out {
		count[keyOf(e.Nodes[0], e.Nodes[1])]++
	}
	b := out[:0]
	for _, e := range out {
		if count[keyOf(e.Nodes[0], e.Nodes[1])] == 1 {
			b = append(b, e)
		}
	}
	return b
}

// EdgeNodes returns the sorted, distinct nodes of a list of edges.
func EdgeNodes(edges []Edge) []int {
	seen := map[int]bool{}
	var out []int
	for _, e := range edges {
		for _, n := range e.Nodes {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Ints(out)
	return out
}

// Area returns the signed area of cell c's corner polygon for linear sides;
// quadratic sides add the area between chord and parabola (2/3 of the
// mid-node offset times the chord), which is exact for parabolic sides.
func (m *Mesh) Area(c int) float64 {
	cell := m.Cells[c]
	nc := cell.Kind.NumCorners()
	var a float64
	for s := 0; s < nc; s++ {
		p, q := m.Nodes[cell.Nodes[s]], m.Nodes[cell.Nodes[(s+1)%nc]]
		a += p[0]*q[1] - q[0]*p[1]
		if cell.Kind.Order() == 2 {
			r := m.Nodes[cell.Nodes[nc+s]]
			// Signed area of the segment between chord pq and the parabola
			// through r: (2/3) * cross(q-p, r-mid) with orientation.
			mx, my := (p[0]+q[0])/2, (p[1]+q[1])/2
			cross := (q[0]-p[0])*(r[1]-my) - (q[1]-p[1])*(r[0]-mx)
			a -= 2.0 / 3.0 * cross * 2 // times 2: a holds twice the area
		}
	}
	return a / 2
}

// TotalArea is the sum of the cells' areas.
func (m *Mesh) TotalArea() float64 {
	var a float64
	for c := range m.Cells {
		a += m.Area(c)
	}
	return a
}
