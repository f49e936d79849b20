package signorini

import (
	"fmt"
	"sort"

	"github.com/fecontact/fecontact/internal/reuse"
	"gonum.org/v1/gonum/floats"
)

// Delassus is the matrix W of a problem seen by contacts: 2x2 blocks.
type Delassus interface {
	// Contacts is the number of contacts n (W is 2n x 2n).
	Contacts() int
	// Diag returns W_aa, row-major.
	Diag(a int) [4]float64
	// OffDiag returns sum over b != a of W_ab r_b, normal and tangential
	// components (two results rather than an array: the calling convention
	// keeps them in registers, and a sweep waits on them).
	OffDiag(a int, r []float64) (un, ut float64)
}

// Dense is a Delassus matrix stored densely, row-major, 2n x 2n.
type Dense struct {
	N    int
	Data []float64
}

// Contacts is n.
func (d *Dense) Contacts() int { return d.N }

// Diag returns W_aa.
func (d *Dense) Diag(a int) [4]float64 {
	m := 2 * d.N
	i := 2 * a
	return [4]float64{d.Data[i*m+i], d.Data[i*m+i+1], d.Data[(i+1)*m+i], d.Data[(i+1)*m+i+1]}
}

// OffDiag returns sum over b != a of W_ab r_b.
// The dot products are gonum's (SIMD on amd64): a sweep over a dense W is
// streaming it, which the scalar loop, one dependent addition after
// another, did at a third of the speed.
func (d *Dense) OffDiag(a int, r []float64) (un, ut float64) {
	m := 2 * d.N
	rowN, rowT := d.Data[2*a*m:(2*a+1)*m], d.Data[(2*a+1)*m:(2*a+2)*m]
	return floats.Dot(rowN[:2*a], r[:2*a]) + floats.Dot(rowN[2*a+2:], r[2*a+2:m]),
		floats.Dot(rowT[:2*a], r[:2*a]) + floats.Dot(rowT[2*a+2:], r[2*a+2:m])
}

// BlockSparse stores W by 2x2 blocks in compressed rows: the blocks of
// block row a are Blocks[Ptr[a]:Ptr[a+1]] in columns Col[...], sorted; the
// diagonal block is kept apart.
type BlockSparse struct {
	N      int
	Ptr    []int
	Col    []int
	Blocks [][4]float64
	diag   [][4]float64
}

// Triplet is one entry (I, J, V) of a 2n x 2n matrix.
type Triplet struct {
	I, J int
	V    float64
}

// NewBlockSparse builds W from entries of the 2n x 2n matrix (duplicates
// add up).
func NewBlockSparse(n int, entries []Triplet) (*BlockSparse, error) {
	type key struct{ a, b int }
	blocks := map[key]*[4]float64{}
	for _, e := range entries {
		if e.I < 0 || e.J < 0 || e.I >= 2*n || e.J >= 2*n {
			return nil, fmt.Errorf("signorini: entry (%d, %d) outside the %dx%d matrix", e.I, e.J, 2*n, 2*n)
		}
		k := key{e.I / 2, e.J / 2}
		b := blocks[k]
		if b == nil {
			b = new([4]float64)
			blocks[k] = b
		}
		b[2*(e.I%2)+e.J%2] += e.V
	}
	keys := make([]key, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].a != keys[j].a {
			return keys[i].a < keys[j].a
		}
		return keys[i].b < keys[j].b
	})
	w := &BlockSparse{N: n, Ptr: make([]int, n+1), diag: make([][4]float64, n)}
	for _, k := range keys {
		if k.a == k.b {
			w.diag[k.a] = *blocks[k]
			continue
		}
		w.Col = append(w.Col, k.b)
		w.Blocks = append(w.Blocks, *blocks[k])
		w.Ptr[k.a+1]++
	}
	for a := 0; a < n; a++ {
		w.Ptr[a+1] += w.Ptr[a]
	}
	return w, nil
}

// SetPattern makes w a W of len(ptr)-1 contacts whose blocks are zero,
// stored at the diagonal and at the off-diagonal positions
// col[ptr[a]:ptr[a+1]] of every block row a (sorted, without a), for a
// caller to fill through Block. w keeps ptr and col and reuses its own
// storage for the blocks: a W built every step allocates nothing once it
// has grown.
func (w *BlockSparse) SetPattern(ptr, col []int) error {
	n := len(ptr) - 1
	if n < 0 || ptr[0] != 0 || ptr[n] != len(col) {
		return fmt.Errorf("signorini: a pattern of %d row bounds for %d columns", len(ptr), len(col))
	}
	for a := range n {
		if ptr[a+1] < ptr[a] {
			return fmt.Errorf("signorini: row %d of a pattern starts at %d and ends at %d", a, ptr[a], ptr[a+1])
		}
		row := col[ptr[a]:ptr[a+1]]
		for k, b := range row {
			if b < 0 || b >= n || b == a || (k > 0 && b <= row[k-1]) {
				return fmt.Errorf("signorini: row %d of a pattern of %d contacts has the columns %v: expected them sorted, distinct, in range and without %d", a, n, row, a)
			}
		}
	}
	w.N, w.Ptr, w.Col = n, ptr, col
	w.Blocks, w.diag = reuse.Zeroed(w.Blocks, len(col)), reuse.Zeroed(w.diag, n)
	return nil
}

// Zero sets every stored block to zero and keeps the pattern: a W built
// every step on contacts coupled as the last step's (a pile at rest)
// skips SetPattern's check of the pattern it holds, 2.5 % of a pile's
// step.
func (w *BlockSparse) Zero() {
	clear(w.Blocks)
	clear(w.diag)
}

// Block returns the stored block W_ab (row-major), or nil when the
// pattern has none there.
func (w *BlockSparse) Block(a, b int) *[4]float64 {
	if a == b {
		return &w.diag[a]
	}
	lo, hi := w.Ptr[a], w.Ptr[a+1]
	for lo < hi { // the first column >= b
		mid := int(uint(lo+hi) >> 1)
		if w.Col[mid] < b {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < w.Ptr[a+1] && w.Col[lo] == b {
		return &w.Blocks[lo]
	}
	return nil
}

// RowBlocks sets dst[i] to Block(b, cols[i]) for the ascending columns
// cols, in one pass along row b rather than a search each (a quarter of
// a granular W's fill).
func (w *BlockSparse) RowBlocks(b int, cols []int, dst []*[4]float64) {
	k, end := w.Ptr[b], w.Ptr[b+1]
	for i, a := range cols {
		if a == b {
			dst[i] = &w.diag[b]
			continue
		}
		for k < end && w.Col[k] < a {
			k++
		}
		dst[i] = nil
		if k < end && w.Col[k] == a {
			dst[i] = &w.Blocks[k]
		}
	}
}

// Contacts is n.
func (w *BlockSparse) Contacts() int { return w.N }

// Diag returns W_aa.
func (w *BlockSparse) Diag(a int) [4]float64 { return w.diag[a] }

// OffDiag returns sum over b != a of W_ab r_b.
func (w *BlockSparse) OffDiag(a int, r []float64) (un, ut float64) {
	var u0, u1 float64
	for k := w.Ptr[a]; k < w.Ptr[a+1]; k++ {
		b := &w.Blocks[k]
		c := 2 * w.Col[k]
		r0, r1 := r[c], r[c+1]
		u0 += b[0]*r0 + b[1]*r1
		u1 += b[2]*r0 + b[3]*r1
	}
	return u0, u1
}

// NumBlocks is the number of stored off-diagonal blocks.
func (w *BlockSparse) NumBlocks() int { return len(w.Blocks) }

// Renumbered returns W with contact perm[i] as contact i: its rows in the
// new order, each row's columns sorted again.
func (w *BlockSparse) Renumbered(perm []int) *BlockSparse {
	inv := make([]int, len(perm))
	for i, a := range perm {
		inv[a] = i
	}
	out := &BlockSparse{N: w.N, Ptr: make([]int, w.N+1), Col: make([]int, 0, len(w.Col)),
		Blocks: make([][4]float64, 0, len(w.Blocks)), diag: make([][4]float64, w.N)}
	var row []int
	for i, a := range perm {
		out.diag[i] = w.diag[a]
		row = row[:0]
		for k := w.Ptr[a]; k < w.Ptr[a+1]; k++ {
			row = append(row, k)
		}
		sort.Slice(row, func(x, y int) bool { return inv[w.Col[row[x]]] < inv[w.Col[row[y]]] })
		for _, k := range row {
			out.Col = append(out.Col, inv[w.Col[k]])
			out.Blocks = append(out.Blocks, w.Blocks[k])
		}
		out.Ptr[i+1] = len(out.Col)
	}
	return out
}
