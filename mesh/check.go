package mesh

import (
	"fmt"
	"github.com/fecontact/fecontact/internal/errlist"
	"math"
	"sort"
)

// Check looks for topological problems: cells with a wrong node count or
// out-of-range nodes, a cell using a node twice, cells of mixed order, nodes
// that no cell uses, nodes at the same place, and groups that refer to
// nodes, edges or cells that do not exist. Every problem found is one error
// in the joined result (nil when the mesh is sound). Jacobian checks need
// shape functions and live in package element.
func (m *Mesh) Check() error {
	var errs []error
	add := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("mesh %s: "+format, append([]any{m.Name}, a...)...))
	}
	if len(m.Cells) == 0 {
		add("no cells")
	}
	used := make([]bool, len(m.Nodes))
	order := 0
	for c, cell := range m.Cells {
		if !cell.Kind.Valid() || len(cell.Nodes) != cell.Kind.NumNodes() {
			add("%s: %d nodes for kind %v", m.CellAt(c), len(cell.Nodes), cell.Kind)
			continue
		}
		if order == 0 {
			order = cell.Kind.Order()
		} else if cell.Kind.Order() != order {
			add("%s: kind %v mixes order %d with order %d cells (all cells must share one order)", m.CellAt(c), cell.Kind, cell.Kind.Order(), order)
		}
		seen := map[int]bool{}
		for _, n := range cell.Nodes {
			if n < 0 || n >= len(m.Nodes) {
				add("%s: node %d out of range [0, %d)", m.CellAt(c), n, len(m.Nodes))
				continue
			}
			if seen[n] {
				add("%s: uses %s twice", m.CellAt(c), m.NodeAt(n))
			}
			seen[n] = true
			used[n] = true
		}
	}
	for n, u := range used {
		if !u {
			add("%s at (%g, %g) is used by no cell", m.NodeAt(n), m.Nodes[n][0], m.Nodes[n][1])
		}
	}
	for _, e := range m.duplicateNodes() {
		add("%s and %s are at the same place (%g, %g)", m.NodeAt(e[0]), m.NodeAt(e[1]), m.Nodes[e[0]][0], m.Nodes[e[0]][1])
	}
	errs = append(errs, m.checkGroups()...)
	return errlist.Join(errs, 20)
}

// duplicateNodes returns pairs of nodes closer than 1e-12 of the mesh size,
// found by sorting along x.
func (m *Mesh) duplicateNodes() [][2]int {
	if len(m.Nodes) < 2 {
		return nil
	}
	idx := make([]int, len(m.Nodes))
	lo, hi := m.Nodes[0], m.Nodes[0]
	for i, p := range m.Nodes {
		idx[i] = i
		lo[0], lo[1] = math.Min(lo[0], p[0]), math.Min(lo[1], p[1])
		hi[0], hi[1] = math.Max(hi[0], p[0]), math.Max(hi[1], p[1])
	}
	tol := 1e-12 * math.Max(hi[0]-lo[0], hi[1]-lo[1])
	sort.Slice(idx, func(a, b int) bool { return m.Nodes[idx[a]][0] < m.Nodes[idx[b]][0] })
	var out [][2]int
	for a := range idx {
		for b := a + 1; b < len(idx) && m.Nodes[idx[b]][0]-m.Nodes[idx[a]][0] <= tol; b++ {
			p, q := m.Nodes[idx[a]], m.Nodes[idx[b]]
			if math.Abs(p[1]-q[1]) <= tol {
				i, j := min(idx[a], idx[b]), max(idx[a], idx[b])
				out = append(out, [2]int{i, j})
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

func (m *Mesh) checkGroups() []error {
	var errs []error
	bad := func(what, name, format string, a ...any) {
		errs = append(errs, fmt.Errorf("mesh %s: %s group %q: "+format, append([]any{m.Name, what, name}, a...)...))
	}
	for _, name := range keys(m.NodeGroups) {
		for _, n := range m.NodeGroups[name] {
			if n < 0 || n >= len(m.Nodes) {
				bad("node", name, "node %d does not exist", n)
			}
		}
	}
	for _, name := range keys(m.CellGroups) {
		for _, c := range m.CellGroups[name] {
			if c < 0 || c >= len(m.Cells) {
				bad("cell", name, "cell %d does not exist", c)
			}
		}
	}
	for _, name := range keys(m.EdgeGroups) {
		for _, e := range m.EdgeGroups[name] {
			if e.Cell < 0 || e.Cell >= len(m.Cells) || e.Side < 0 || e.Side >= m.Cells[e.Cell].Kind.NumCorners() {
				bad("edge", name, "edge %v refers to side %d of cell %d, which does not exist", e.Nodes, e.Side, e.Cell)
			}
		}
	}
	return errs
}
