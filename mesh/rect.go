package mesh

import "fmt"

// Rectangle returns a structured mesh of the rectangle with lower-left corner
// origin, width w and height h, divided into nx by ny quadrangles (Q4, Q8) or
// twice as many triangles (T3, T6, each quadrangle cut along the diagonal
// from its lower-left to its upper-right corner).
//
// Edge groups "bottom", "top", "left", "right" hold the boundary sides, and
// node groups of the same names hold their nodes; cell group "all" holds
// every cell.
func Rectangle(origin [2]float64, w, h float64, nx, ny int, kind Kind) (*Mesh, error) {
	name := fmt.Sprintf("rect(%v %gx%g %dx%d)", kind, w, h, nx, ny)
	switch {
	case !kind.Valid():
		return nil, fmt.Errorf("mesh %s: unknown kind %d", name, int(kind))
	case !(w > 0) || !(h > 0):
		return nil, fmt.Errorf("mesh %s: width and height must be positive", name)
	case nx < 1 || ny < 1:
		return nil, fmt.Errorf("mesh %s: need at least one cell in each direction", name)
	}
	m := New(name)
	g := newGrid(m, origin, w, h, nx, ny, kind)
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			g.addCells(i, j)
		}
	}
	all := make([]int, len(m.Cells))
	for c := range all {
		all[c] = c
	}
	m.CellGroups["all"] = all
	g.addSideGroups()
	return m, nil
}

// grid numbers the nodes of a structured mesh. Linear kinds use the
// (nx+1) x (ny+1) lattice; quadratic kinds a (2nx+1) x (2ny+1) lattice whose
// nodes are created only where a cell uses them (Q8 has no cell centres).
type grid struct {
	m      *Mesh
	kind   Kind
	nx, ny int
	step   int // lattice points per cell side: 1 or 2
	id     []int
	cols   int
	origin [2]float64
	dx, dy float64
}

func newGrid(m *Mesh, origin [2]float64, w, h float64, nx, ny int, kind Kind) *grid {
	step := kind.Order()
	cols, rows := step*nx+1, step*ny+1
	id := make([]int, cols*rows)
	for i := range id {
		id[i] = -1
	}
	return &grid{m: m, kind: kind, nx: nx, ny: ny, step: step, id: id, cols: cols,
		origin: origin, dx: w / float64(step*nx), dy: h / float64(step*ny)}
}

// node returns the node at lattice point (i, j), creating it on first use so
// that nodes are numbered row by row in order of first use.
func (g *grid) node(i, j int) int {
	k := j*g.cols + i
	if g.id[k] < 0 {
		g.id[k] = len(g.m.Nodes)
		g.m.Nodes = append(g.m.Nodes, [2]float64{g.origin[0] + float64(i)*g.dx, g.origin[1] + float64(j)*g.dy})
	}
	return g.id[k]
}

func (g *grid) addCells(ci, cj int) {
	s := g.step
	i, j := s*ci, s*cj
	n := func(a, b int) int { return g.node(i+a, j+b) }
	add := func(k Kind, nodes ...int) { g.m.Cells = append(g.m.Cells, Cell{Kind: k, Nodes: nodes}) }
	switch g.kind {
	case Q4:
		add(Q4, n(0, 0), n(1, 0), n(1, 1), n(0, 1))
	case T3:
		add(T3, n(0, 0), n(1, 0), n(1, 1))
		add(T3, n(0, 0), n(1, 1), n(0, 1))
	case Q8:
		add(Q8, n(0, 0), n(2, 0), n(2, 2), n(0, 2), n(1, 0), n(2, 1), n(1, 2), n(0, 1))
	case T6:
		add(T6, n(0, 0), n(2, 0), n(2, 2), n(1, 0), n(2, 1), n(1, 1))
		add(T6, n(0, 0), n(2, 2), n(0, 2), n(1, 1), n(1, 2), n(0, 1))
	}
}

// addSideGroups collects the boundary sides by the side of the rectangle
// they lie on, in order along it.
func (g *grid) addSideGroups() {
	cellOf := func(ci, cj int) int {
		c := cj*g.nx + ci
		if g.kind.IsTriangle() {
			return 2 * c
		}
		return c
	}
	var bottom, top, left, right []Edge
	for ci := 0; ci < g.nx; ci++ {
		bottom = append(bottom, g.m.side(cellOf(ci, 0), 0))
		if g.kind.IsTriangle() {
			top = append(top, g.m.side(cellOf(ci, g.ny-1)+1, 1))
		} else {
			top = append(top, g.m.side(cellOf(ci, g.ny-1), 2))
		}
	}
	for cj := 0; cj < g.ny; cj++ {
		right = append(right, g.m.side(cellOf(g.nx-1, cj), 1))
		if g.kind.IsTriangle() {
			left = append(left, g.m.side(cellOf(0, cj)+1, 2))
		} else {
			left = append(left, g.m.side(cellOf(0, cj), 3))
		}
	}
	// top and left were collected against their orientation along the
	// rectangle; reverse so that each group runs counter-clockwise.
	reverse(top)
	reverse(left)
	for name, es := range map[string][]Edge{"bottom": bottom, "top": top, "left": left, "right": right} {
		g.m.EdgeGroups[name] = es
		g.m.NodeGroups[name] = EdgeNodes(es)
	}
}

func reverse(es []Edge) {
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
}
