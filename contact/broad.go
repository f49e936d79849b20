package contact

import (
	"math"

	"github.com/fecontact/fecontact/internal/reuse"
)

// box is an axis-aligned bounding box.
type box struct{ lo, hi [2]float64 }

func (b box) grow(d float64) box {
	return box{[2]float64{b.lo[0] - d, b.lo[1] - d}, [2]float64{b.hi[0] + d, b.hi[1] + d}}
}

func (b box) contains(x [2]float64) bool {
	return x[0] >= b.lo[0] && x[0] <= b.hi[0] && x[1] >= b.lo[1] && x[1] <= b.hi[1]
}

func boxOf(pts ...[2]float64) box {
	b := box{pts[0], pts[0]}
	for _, p := range pts[1:] {
		b.lo[0], b.lo[1] = min(b.lo[0], p[0]), min(b.lo[1], p[1])
		b.hi[0], b.hi[1] = max(b.hi[0], p[0]), max(b.hi[1], p[1])
	}
	return b
}

// grid is the broad phase: a uniform grid whose cells list the entries
// whose boxes (grown by the alert distance) overlap them, in compressed
// form. A point within the alert distance of an entry lies in its grown
// box and so in one of the cells the entry is listed in: the grid misses
// nothing, and its cost is linear in the entries and the queries. For
// few entries and queries it is flat: no cells, each query tests every
// box, which costs less than laying the cells out.
type grid struct {
	lo         [2]float64
	size       float64
	nx, ny     int
	start, ids []int
	fill       []int // build's cursor per cell
	boxes      []box
	flat       bool
}

// flatTests is the most box tests (entries times queries) that a flat
// grid makes instead of laying cells out: a box test costs about a
// nanosecond, laying the cells out some 40 per entry. The sides of the
// colliding blocks at refine 1 (12 and 32 edges against 33 and 13 nodes)
// are detected flat, which takes 2.5 % off a step.
const flatTests = 2048

// build lays the grid out anew for the given boxes and about that many
// queries, reusing its storage. The cell size is the larger of the mean
// box extent and the size that gives about one cell per box over the
// covered area.
func (g *grid) build(boxes []box, queries int) {
	g.boxes, g.nx, g.ny = boxes, 0, 0
	g.flat = len(boxes)*queries <= flatTests
	if len(boxes) == 0 || g.flat {
		return
	}
	all := boxes[0]
	var mean float64
	for _, b := range boxes {
		all = boxOf(all.lo, all.hi, b.lo, b.hi)
		mean += max(b.hi[0]-b.lo[0], b.hi[1]-b.lo[1])
	}
	mean /= float64(len(boxes))
	w, h := all.hi[0]-all.lo[0], all.hi[1]-all.lo[1]
	g.size = max(mean, math.Sqrt(w*h/float64(len(boxes))))
	if !(g.size > 0) {
		g.size = 1
	}
	g.lo = all.lo
	g.nx = int(w/g.size) + 1
	g.ny = int(h/g.size) + 1
	nc := g.nx * g.ny
	g.start = reuse.Zeroed(g.start, nc+1)
	for _, b := range boxes {
		i0, i1, j0, j1 := g.span(b)
		for j := j0; j <= j1; j++ {
			for c := j*g.nx + i0; c <= j*g.nx+i1; c++ {
				g.start[c+1]++
			}
		}
	}
	for c := 0; c < nc; c++ {
		g.start[c+1] += g.start[c]
	}
	g.ids = reuse.Zeroed(g.ids, g.start[nc])
	g.fill = append(g.fill[:0], g.start[:nc]...)
	for id, b := range boxes {
		i0, i1, j0, j1 := g.span(b)
		for j := j0; j <= j1; j++ {
			for c := j*g.nx + i0; c <= j*g.nx+i1; c++ {
				g.ids[g.fill[c]] = id
				g.fill[c]++
			}
		}
	}
}

func (g *grid) cell(x [2]float64) (int, int) {
	return int((x[0] - g.lo[0]) / g.size), int((x[1] - g.lo[1]) / g.size)
}

// span is the range of cells, columns i0..i1 and rows j0..j1, that box b
// overlaps.
func (g *grid) span(b box) (i0, i1, j0, j1 int) {
	i0, j0 = g.cell(b.lo)
	i1, j1 = g.cell(b.hi)
	return max(i0, 0), min(i1, g.nx-1), max(j0, 0), min(j1, g.ny-1)
}

// near appends to dst the entries whose grown box contains x, in
// ascending order.
func (g *grid) near(dst []int, x [2]float64) []int {
	if g.flat {
		for id, b := range g.boxes {
			if b.contains(x) {
				dst = append(dst, id)
			}
		}
		return dst
	}
	if g.nx == 0 {
		return dst
	}
	i, j := g.cell(x)
	if i < 0 || j < 0 || i >= g.nx || j >= g.ny || math.IsNaN(x[0]+x[1]) {
		return dst
	}
	c := j*g.nx + i
	for _, id := range g.ids[g.start[c]:g.start[c+1]] {
		if g.boxes[id].contains(x) {
			dst = append(dst, id)
		}
	}
	return dst
}
