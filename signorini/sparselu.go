package signorini

import (
	"math"

	"github.com/fecontact/fecontact/internal/reuse"
)

// sparseLU factorises Newton's reduced system K^ + lambda I (newton.go)
// when W is block-sparse and too large for a dense LU: Gaussian
// elimination on its 2 x 2 blocks, one block a closed contact (a sliding
// contact's second unknown is a placeholder row and column of the
// identity), in a minimum-degree order, without pivoting inside the
// order. K^ + lambda I has the block pattern of W's closed contacts,
// symmetric, and a contact pile's graph is nearly planar: a minimum-degree
// elimination keeps its fill to a few blocks a contact. (GMRES with a
// block-Jacobi preconditioner, before, made 100 Newton iterations on
// fc2d's granular flows take 35 and 15 s: docs/performance.md.) The pivots are
// W's closed 2 x 2 blocks made definite by lambda; a pivot that is not
// (a sliding contact's column, a degenerate pile at lambda -> 0) fails
// the factorisation, and Newton raises lambda as it does for a singular
// dense LU.
type sparseLU struct {
	rows  []map[int32]int32 // per node, while eliminating: its neighbours' blocks' places in block
	diag  [][4]float64      // per node: its block of K^ + lambda I
	block [][4]float64      // the off-diagonal blocks the rows point to
	order []int32           // the nodes in elimination order
	inv   [][4]float64      // per node: the inverse of its pivot
	lower [][]entry         // per node v: (x, L_xv) for its neighbours x eliminated after it
	upper [][]entry         // per node v: (y, U_vy)
}

// entry is one block of L or U with the node it couples.
type entry struct {
	node int32
	b    [4]float64
}

// build sets the blocks of K^ + lambda I from W (scaled and, for a sliding
// contact, its normal column turned along the cone's edge as
// applyReduced does): node[b] is contact b's node, -1 where it is open,
// and contacts the nodes' contacts.
func (lu *sparseLU) build(nw *newton, W *BlockSparse, node []int32, contacts []int) {
	lu.rows = lu.rows[:0]
	lu.diag = lu.diag[:0]
	lu.block = lu.block[:0]
	for _, a := range contacts {
		row := make(map[int32]int32, W.Ptr[a+1]-W.Ptr[a])
		for k := W.Ptr[a]; k < W.Ptr[a+1]; k++ {
			b := W.Col[k]
			if y := node[b]; y >= 0 {
				row[y] = int32(len(lu.block))
				lu.block = append(lu.block, nw.scaled(a, b, W.Blocks[k]))
			}
		}
		lu.rows = append(lu.rows, row)
		d := nw.scaled(a, a, W.diag[a])
		d[0] += nw.lambda
		if nw.class[a].slide {
			d[3] = 1
		} else {
			d[3] += nw.lambda
		}
		lu.diag = append(lu.diag, d)
	}
}

// factored, singular and tooDense are how a factorisation ends.
type factorEnd int8

const (
	factored factorEnd = iota
	singular           // a pivot is singular (Newton raises lambda)
	tooDense           // the fill would pass fillLimit (Newton goes on by GMRES)
)

// fillLimit bounds the blocks of a factorisation of m nodes: 64 a node,
// and at least 2^20 (about 60 MB with their places): a pile's graph fills
// to a few a node (fc2d's 07002, every contact closed: 4.7 blocks of L a
// node, W's own 3.5), a random graph's to all of them (7 000 contacts
// coupled at random would take 49 million blocks, gigabytes), where
// GMRES's memory is W's own.
func fillLimit(m int) int { return max(64*m, 1<<20) }

// factor eliminates the nodes in a minimum-degree order (the fewest
// neighbours left, the lowest node among equals: the same order on every
// machine), unless a pivot is singular or the fill would pass fillLimit.
func (lu *sparseLU) factor() factorEnd {
	m := len(lu.rows)
	limit := fillLimit(m)
	lu.order = lu.order[:0]
	lu.inv = reuse.Zeroed(lu.inv, m)
	lu.lower = resizeEntries(lu.lower, m)
	lu.upper = resizeEntries(lu.upper, m)
	done := make([]bool, m)
	h := make(degreeHeap, 0, m)
	for x := range m {
		h.push(degreeOf{len(lu.rows[x]), int32(x)})
	}
	nbr := make([]int32, 0, 16)
	for len(h) > 0 {
		top := h.pop()
		v := top.node
		if done[v] || top.deg != len(lu.rows[v]) {
			continue // an entry from before its degree changed
		}
		done[v] = true
		lu.order = append(lu.order, v)
		inv, ok := inverse2(lu.diag[v])
		if !ok {
			return singular
		}
		lu.inv[v] = inv
		nbr = sortedNeighbours(nbr[:0], lu.rows[v])
		if len(lu.block)+len(nbr)*len(nbr) > limit { // before the fill is made
			return tooDense
		}
		lu.eliminate(v, nbr)
		for _, x := range nbr {
			h.push(degreeOf{len(lu.rows[x]), x})
		}
	}
	return factored
}

// eliminate takes pivot v out of the rows of its neighbours nbr: L_xv =
// A_xv A_vv^-1, U_vy = A_vy, A_xy -= L_xv U_vy (a fill block where x and
// y were not coupled).
func (lu *sparseLU) eliminate(v int32, nbr []int32) {
	lo, up := lu.lower[v][:0], lu.upper[v][:0]
	for _, x := range nbr {
		axv := lu.block[lu.rows[x][v]]
		lo = append(lo, entry{x, mul2(axv, lu.inv[v])})
		up = append(up, entry{x, lu.block[lu.rows[v][x]]})
		delete(lu.rows[x], v)
	}
	for _, l := range lo {
		x := l.node
		for _, u := range up {
			y := u.node
			p := mul2(l.b, u.b)
			if x == y {
				sub2(&lu.diag[x], p)
				continue
			}
			k, ok := lu.rows[x][y]
			if !ok {
				k = int32(len(lu.block))
				lu.block = append(lu.block, [4]float64{})
				lu.rows[x][y] = k
			}
			sub2(&lu.block[k], p)
		}
	}
	lu.lower[v], lu.upper[v] = lo, up
}

// solve solves (K^ + lambda I) x = b in place on the nodes' vector z.
func (lu *sparseLU) solve(z [][2]float64) {
	for _, v := range lu.order {
		zv := z[v]
		for _, l := range lu.lower[v] {
			z[l.node][0] -= l.b[0]*zv[0] + l.b[1]*zv[1]
			z[l.node][1] -= l.b[2]*zv[0] + l.b[3]*zv[1]
		}
	}
	for i := len(lu.order) - 1; i >= 0; i-- {
		v := lu.order[i]
		s := z[v]
		for _, u := range lu.upper[v] {
			y := z[u.node]
			s[0] -= u.b[0]*y[0] + u.b[1]*y[1]
			s[1] -= u.b[2]*y[0] + u.b[3]*y[1]
		}
		p := &lu.inv[v]
		z[v] = [2]float64{p[0]*s[0] + p[1]*s[1], p[2]*s[0] + p[3]*s[1]}
	}
}

// sortedNeighbours lists a row's nodes in increasing order, so that the
// blocks of L and U, and the fill, come in the same order on every run
// (a map's is random).
func sortedNeighbours(dst []int32, row map[int32]int32) []int32 {
	for x := range row {
		dst = append(dst, x)
	}
	for i := 1; i < len(dst); i++ { // rows are short: insertion
		for j := i; j > 0 && dst[j] < dst[j-1]; j-- {
			dst[j], dst[j-1] = dst[j-1], dst[j]
		}
	}
	return dst
}

// inverse2 inverts a 2 x 2 block, row-major; false where it is singular
// to round-off relative to its entries.
func inverse2(b [4]float64) ([4]float64, bool) {
	det := b[0]*b[3] - b[1]*b[2]
	scale := math.Abs(b[0]*b[3]) + math.Abs(b[1]*b[2])
	if !(math.Abs(det) > 1e-13*scale) {
		return [4]float64{}, false
	}
	return [4]float64{b[3] / det, -b[1] / det, -b[2] / det, b[0] / det}, true
}

func mul2(a, b [4]float64) [4]float64 {
	return [4]float64{a[0]*b[0] + a[1]*b[2], a[0]*b[1] + a[1]*b[3], a[2]*b[0] + a[3]*b[2], a[2]*b[1] + a[3]*b[3]}
}

func sub2(a *[4]float64, b [4]float64) {
	a[0] -= b[0]
	a[1] -= b[1]
	a[2] -= b[2]
	a[3] -= b[3]
}

// resizeEntries is s with n lists, each keeping its storage from the
// last factorisation.
func resizeEntries(s [][]entry, n int) [][]entry {
	if cap(s) < n {
		s = append(s[:cap(s)], make([][]entry, n-cap(s))...)
	}
	return s[:n]
}

// degreeOf is a node with its number of neighbours when it was queued.
type degreeOf struct {
	deg  int
	node int32
}

// degreeHeap is a binary min-heap of nodes by degree, then node (typed:
// container/heap's interface calls were a quarter of a pile's Newton
// solve).
type degreeHeap []degreeOf

func (a degreeOf) before(b degreeOf) bool {
	return a.deg < b.deg || (a.deg == b.deg && a.node < b.node)
}

func (h *degreeHeap) push(x degreeOf) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].before(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *degreeHeap) pop() degreeOf {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1].before(s[c]) {
			c++
		}
		if !s[c].before(s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}
