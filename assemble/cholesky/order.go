package cholesky

import (
	"fmt"
	"sort"
)

// Graph is an undirected graph in compressed adjacency form: the
// neighbours of vertex v are Adj[Xadj[v]:Xadj[v+1]], without v itself.
type Graph struct {
	Xadj, Adj []int
}

// N is the number of vertices.
func (g Graph) N() int { return len(g.Xadj) - 1 }

// GraphOf returns the adjacency graph of the pattern of a square matrix in
// CSR form (indptr, ind), leaving out the diagonal.
func GraphOf(n int, indptr, ind []int) Graph {
	g := Graph{Xadj: make([]int, n+1), Adj: make([]int, 0, len(ind))}
	for i := 0; i < n; i++ {
		for _, j := range ind[indptr[i]:indptr[i+1]] {
			if j != i {
				g.Adj = append(g.Adj, j)
			}
		}
		g.Xadj[i+1] = len(g.Adj)
	}
	return g
}

// leafSize is the size below which nested dissection stops splitting: a
// part this small is nearly dense in the factor anyway.
const leafSize = 24

// NestedDissection returns a fill-reducing ordering of g as a permutation
// perm, perm[new] = old. With coordinates (one point per vertex) each part
// is split at the median of its longer extent, which gives straight
// separators on meshes; without them, at the median level of a breadth-first
// search from a pseudo-peripheral vertex. The vertex separator is the
// smaller of the two sides' boundaries; it is numbered after both halves.
func NestedDissection(g Graph, coords [][2]float64) ([]int, error) {
	n := g.N()
	if coords != nil && len(coords) != n {
		return nil, fmt.Errorf("cholesky: %d coordinates for %d vertices", len(coords), n)
	}
	d := &dissector{g: g, coords: coords, label: make([]int, n), level: make([]int, n)}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	d.order = make([]int, 0, n)
	d.dissect(all)
	return d.order, nil
}

type dissector struct {
	g      Graph
	coords [][2]float64
	label  []int // current part of each vertex; parts get fresh ids
	nextID int
	level  []int
	order  []int
}

func (d *dissector) relabel(vs []int) int {
	d.nextID++
	for _, v := range vs {
		d.label[v] = d.nextID
	}
	return d.nextID
}

func (d *dissector) dissect(vs []int) {
	if len(vs) <= leafSize {
		d.order = append(d.order, vs...)
		return
	}
	left, right := d.split(vs)
	if len(left) == 0 || len(right) == 0 {
		d.order = append(d.order, vs...)
		return
	}
	lid, rid := d.relabel(left), d.relabel(right)
	bl, br := d.boundary(left, rid), d.boundary(right, lid)
	sep := bl
	if len(br) < len(bl) {
		sep = br
	}
	d.relabel(sep) // separator vertices belong to neither half from now on
	left, right = d.without(left, lid), d.without(right, rid)
	d.dissect(left)
	d.dissect(right)
	d.order = append(d.order, sep...)
}

// without keeps the vertices of vs that still carry label id.
func (d *dissector) without(vs []int, id int) []int {
	out := vs[:0:0]
	for _, v := range vs {
		if d.label[v] == id {
			out = append(out, v)
		}
	}
	return out
}

// boundary returns the vertices of vs with a neighbour labelled other.
func (d *dissector) boundary(vs []int, other int) []int {
	var out []int
	for _, v := range vs {
		for _, u := range d.g.Adj[d.g.Xadj[v]:d.g.Xadj[v+1]] {
			if d.label[u] == other {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// split divides vs in two at the median of a key: a coordinate, or the
// breadth-first level.
func (d *dissector) split(vs []int) (left, right []int) {
	key := make([]float64, len(vs))
	if d.coords != nil {
		lo, hi := d.coords[vs[0]], d.coords[vs[0]]
		for _, v := range vs {
			p := d.coords[v]
			lo[0], lo[1] = min(lo[0], p[0]), min(lo[1], p[1])
			hi[0], hi[1] = max(hi[0], p[0]), max(hi[1], p[1])
		}
		axis := 0
		if hi[1]-lo[1] > hi[0]-lo[0] {
			axis = 1
		}
		for i, v := range vs {
			key[i] = d.coords[v][axis]
		}
	} else {
		d.bfsLevels(vs)
		for i, v := range vs {
			key[i] = float64(d.level[v])
		}
	}
	sorted := append([]float64(nil), key...)
	sort.Float64s(sorted)
	median := sorted[len(sorted)/2]
	if median == sorted[0] {
		// More than half the part shares the smallest key: split above it.
		i := sort.Search(len(sorted), func(i int) bool { return sorted[i] > median })
		if i == len(sorted) {
			return nil, nil
		}
		median = sorted[i]
	}
	for i, v := range vs {
		if key[i] < median {
			left = append(left, v)
		} else {
			right = append(right, v)
		}
	}
	return left, right
}

// bfsLevels sets d.level for the vertices of vs to their breadth-first
// distance from a pseudo-peripheral vertex of vs (found by repeated sweeps).
// Vertices of vs unreachable from it (another component) keep level -1 and
// so fall on the near side, which splits components apart for free.
func (d *dissector) bfsLevels(vs []int) {
	id := d.relabel(vs)
	start := vs[0]
	ecc := -1
	for it := 0; it < 4; it++ {
		far, depth := d.bfs(vs, start, id)
		if depth <= ecc {
			break
		}
		ecc, start = depth, far
	}
	d.bfs(vs, start, id)
}

func (d *dissector) bfs(vs []int, start, id int) (far, depth int) {
	for _, v := range vs {
		d.level[v] = -1
	}
	d.level[start] = 0
	queue := []int{start}
	far = start
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		far = v
		for _, u := range d.g.Adj[d.g.Xadj[v]:d.g.Xadj[v+1]] {
			if d.label[u] == id && d.level[u] < 0 {
				d.level[u] = d.level[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return far, d.level[far]
}
