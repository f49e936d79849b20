package contact

import (
	"math"

	"github.com/fecontact/fecontact/internal/reuse"
)

// segGrid is a uniform grid over a body's boundary segments, so that the
// depth gauge tests a point against the few segments near it instead of
// all of them: the crossings of a ray towards the nearest side of the
// body's box, and the nearest segment by rings of cells around the
// point. Its storage is kept from one configuration to the next.
type segGrid struct {
	lo     [2]float64
	cell   float64
	nx, ny int
	start  []int32 // cell c's segments are items[start[c]:start[c+1]]
	items  []int32
	fill   []int32  // build's count per cell
	stamp  []uint32 // a segment's last query, so that it counts once
	query  uint32
}

// build indexes segs, whose box is lo-hi, in about one cell per segment.
func (g *segGrid) build(segs [][2][2]float64, lo, hi [2]float64) {
	w, h := hi[0]-lo[0], hi[1]-lo[1]
	g.lo = lo
	g.cell = max(math.Sqrt(w*h/float64(len(segs))), max(w, h)/1024)
	if !(g.cell > 0) {
		g.cell = max(max(w, h), 1)
	}
	g.nx, g.ny = int(w/g.cell)+1, int(h/g.cell)+1
	n := g.nx * g.ny
	g.start = reuse.Zeroed(g.start, n+1)
	for _, sg := range segs {
		i0, i1, j0, j1 := g.span(sg)
		for j := j0; j <= j1; j++ {
			for c := j*g.nx + i0; c <= j*g.nx+i1; c++ {
				g.start[c+1]++
			}
		}
	}
	for c := range n {
		g.start[c+1] += g.start[c]
	}
	g.items, g.fill = reuse.Zeroed(g.items, int(g.start[n])), reuse.Zeroed(g.fill, n)
	for s, sg := range segs {
		i0, i1, j0, j1 := g.span(sg)
		for j := j0; j <= j1; j++ {
			for c := j*g.nx + i0; c <= j*g.nx+i1; c++ {
				g.items[g.start[c]+g.fill[c]] = int32(s)
				g.fill[c]++
			}
		}
	}
	g.stamp, g.query = reuse.Zeroed(g.stamp, len(segs)), 0
}

// span is the range of cells, columns i0..i1 and rows j0..j1, that
// segment sg's box overlaps.
func (g *segGrid) span(sg [2][2]float64) (i0, i1, j0, j1 int) {
	a0, b0 := g.at(sg[0])
	a1, b1 := g.at(sg[1])
	return min(a0, a1), max(a0, a1), min(b0, b1), max(b0, b1)
}

// at is the cell of x, clamped to the grid.
func (g *segGrid) at(x [2]float64) (int, int) {
	i := int((x[0] - g.lo[0]) / g.cell)
	j := int((x[1] - g.lo[1]) / g.cell)
	return max(0, min(g.nx-1, i)), max(0, min(g.ny-1, j))
}

// next starts a query: every segment counts once in it.
func (g *segGrid) next() {
	g.query++
	if g.query == 0 { // wrapped: start the stamps again
		clear(g.stamp)
		g.query = 1
	}
}

// visit calls f for each segment of cell (i, j) not yet seen in the query.
func (g *segGrid) visit(i, j int, f func(s int)) {
	c := j*g.nx + i
	for _, s := range g.items[g.start[c]:g.start[c+1]] {
		if g.stamp[s] != g.query {
			g.stamp[s] = g.query
			f(int(s))
		}
	}
}

// inside tells whether x is inside the closed boundary segs (box lo-hi)
// by the parity of the crossings of a ray from x to the nearest side of
// the box, along the row or column of cells it crosses.
func (g *segGrid) inside(x [2]float64, segs [][2][2]float64, lo, hi [2]float64) bool {
	// The ray's direction: axis k, sign +1 or -1.
	k, sign, best := 0, 1.0, hi[0]-x[0]
	for _, c := range []struct {
		k    int
		sign float64
		d    float64
	}{{0, -1, x[0] - lo[0]}, {1, 1, hi[1] - x[1]}, {1, -1, x[1] - lo[1]}} {
		if c.d < best {
			k, sign, best = c.k, c.sign, c.d
		}
	}
	o := 1 - k // the other axis
	g.next()
	in := false
	cross := func(s int) {
		a, b := segs[s][0], segs[s][1]
		// In the ray's frame: along = sign * coordinate k, across = coordinate o.
		if (a[o] > x[o]) != (b[o] > x[o]) {
			at := sign * (a[k] + (x[o]-a[o])*(b[k]-a[k])/(b[o]-a[o]))
			if sign*x[k] < at {
				in = !in
			}
		}
	}
	i, j := g.at(x)
	switch {
	case k == 0 && sign > 0:
		for ; i < g.nx; i++ {
			g.visit(i, j, cross)
		}
	case k == 0:
		for ; i >= 0; i-- {
			g.visit(i, j, cross)
		}
	case sign > 0:
		for ; j < g.ny; j++ {
			g.visit(i, j, cross)
		}
	default:
		for ; j >= 0; j-- {
			g.visit(i, j, cross)
		}
	}
	return in
}

// nearest2 is the squared distance from x to the nearest segment, by rings
// of cells around x's until no segment further out can be nearer.
func (g *segGrid) nearest2(x [2]float64, segs [][2][2]float64) float64 {
	g.next()
	d2 := math.Inf(1)
	near := func(s int) { d2 = min(d2, segmentDist2(x, segs[s][0], segs[s][1])) }
	ci, cj := g.at(x)
	for r := 0; ; r++ {
		i0, i1, j0, j1 := ci-r, ci+r, cj-r, cj+r
		if i0 < 0 && j0 < 0 && i1 >= g.nx && j1 >= g.ny {
			return d2
		}
		for i := max(i0, 0); i <= min(i1, g.nx-1); i++ { // its bottom and top rows
			for _, j := range [2]int{j0, j1} {
				if j >= 0 && j < g.ny {
					g.visit(i, j, near)
				}
			}
		}
		for j := max(j0+1, 0); j <= min(j1-1, g.ny-1); j++ { // its sides
			for _, i := range [2]int{i0, i1} {
				if i >= 0 && i < g.nx {
					g.visit(i, j, near)
				}
			}
		}
		// Cells beyond ring r are at least r cells from x's cell.
		if reach := float64(r) * g.cell; d2 <= reach*reach {
			return d2
		}
	}
}
