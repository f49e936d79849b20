package cholesky

import (
	"fmt"
	"math"
	"sort"
)

// symbolic is the analysis of a pattern under an ordering: the supernodes
// of L, their row structures, and the supernodal elimination tree.
type symbolic struct {
	n     int
	perm  []int // perm[new] = old
	iperm []int // iperm[old] = new

	// Supernode s holds columns first[s] .. first[s+1]-1; its rows are
	// rows[rowPtr[s]:rowPtr[s+1]], the first ones being its own columns.
	first  []int
	rowPtr []int
	rows   []int
	// below holds each supernode's rows under its diagonal block in the
	// order of their slots in its panel, descending (see Factor.panel):
	// supernode s's are below[rowPtr[s]-first[s] : rowPtr[s+1]-first[s+1]].
	below  []int32
	parent []int // supernodal elimination tree; -1 at roots
	// children[childPtr[s]:childPtr[s+1]] are the supernodes whose parent is s.
	childPtr []int
	children []int
	nnzL     int
}

// analyse computes the elimination tree of the permuted matrix, postorders
// it (a postorder keeps the fill and makes subtrees contiguous), finds the
// fundamental supernodes and their row structures.
func analyse(n int, indptr, ind []int, perm []int) (*symbolic, error) {
	if len(perm) != n {
		return nil, fmt.Errorf("cholesky: ordering has %d entries for %d rows", len(perm), n)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("cholesky: %d rows: at most %d (the solves index rows by int32)", n, math.MaxInt32)
	}
	iperm := make([]int, n)
	for i := range iperm {
		iperm[i] = -1
	}
	for k, p := range perm {
		if p < 0 || p >= n || iperm[p] >= 0 {
			return nil, fmt.Errorf("cholesky: ordering is not a permutation (entry %d = %d)", k, p)
		}
		iperm[p] = k
	}
	parent := etree(n, indptr, ind, perm, iperm)
	post := postorder(parent)
	// Compose: new order is post applied to perm.
	p2 := make([]int, n)
	for k, j := range post {
		p2[k] = perm[j]
	}
	perm = p2
	for k, p := range perm {
		iperm[p] = k
	}
	parent = etree(n, indptr, ind, perm, iperm)
	count := colCounts(n, indptr, ind, perm, iperm, parent)
	s := &symbolic{n: n, perm: perm, iperm: iperm}
	s.supernodes(parent, count)
	s.structure(indptr, ind)
	s.below = make([]int32, len(s.rows)-n)
	for k := 0; k+1 < len(s.first); k++ {
		nc := s.first[k+1] - s.first[k]
		nr := s.rowPtr[k+1] - s.rowPtr[k]
		s.nnzL += nc*nr - nc*(nc-1)/2
		b := s.belowOf(k)
		for j, r := range s.rows[s.rowPtr[k]+nc : s.rowPtr[k+1]] {
			b[len(b)-1-j] = int32(r)
		}
	}
	return s, nil
}

// belowOf returns supernode k's rows under its diagonal block, in the
// order of their slots in its panel.
func (s *symbolic) belowOf(k int) []int32 {
	return s.below[s.rowPtr[k]-s.first[k] : s.rowPtr[k+1]-s.first[k+1]]
}

// etree is Liu's algorithm with path compression on the permuted matrix.
func etree(n int, indptr, ind, perm, iperm []int) []int {
	parent := make([]int, n)
	ancestor := make([]int, n)
	for k := 0; k < n; k++ {
		parent[k], ancestor[k] = -1, -1
		for _, q := range ind[indptr[perm[k]]:indptr[perm[k]+1]] {
			for i := iperm[q]; i >= 0 && i < k; {
				next := ancestor[i]
				ancestor[i] = k
				if next < 0 {
					parent[i] = k
					break
				}
				i = next
			}
		}
	}
	return parent
}

// postorder returns a depth-first postorder of the forest, children in
// increasing order.
func postorder(parent []int) []int {
	n := len(parent)
	head, next := make([]int, n), make([]int, n)
	for i := range head {
		head[i] = -1
	}
	for j := n - 1; j >= 0; j-- {
		if p := parent[j]; p >= 0 {
			next[j] = head[p]
			head[p] = j
		}
	}
	post := make([]int, 0, n)
	stack := make([]int, 0, 64)
	for root := 0; root < n; root++ {
		if parent[root] >= 0 {
			continue
		}
		stack = append(stack, root)
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if c := head[top]; c >= 0 {
				head[top] = next[c]
				stack = append(stack, c)
			} else {
				stack = stack[:len(stack)-1]
				post = append(post, top)
			}
		}
	}
	return post
}

// colCounts counts the entries of each column of L (diagonal included) by
// walking the row subtrees: row i of L has entries in the columns on the
// tree paths from each k with A(i,k) != 0, k < i, up to i.
func colCounts(n int, indptr, ind, perm, iperm, parent []int) []int {
	count := make([]int, n)
	mark := make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	for i := 0; i < n; i++ {
		count[i]++
		mark[i] = i
		for _, q := range ind[indptr[perm[i]]:indptr[perm[i]+1]] {
			for k := iperm[q]; k < i && mark[k] != i; k = parent[k] {
				count[k]++
				mark[k] = i
			}
		}
	}
	return count
}

// supernodes groups consecutive columns j, j+1 when j+1 is j's parent, its
// only child, and L(:,j) has the structure of L(:,j+1) plus the diagonal.
func (s *symbolic) supernodes(parent, count []int) {
	n := s.n
	nchild := make([]int, n)
	for _, p := range parent {
		if p >= 0 {
			nchild[p]++
		}
	}
	s.first = []int{0}
	for j := 1; j < n; j++ {
		same := parent[j-1] == j && nchild[j] == 1 && count[j-1] == count[j]+1
		if !same {
			s.first = append(s.first, j)
		}
	}
	s.first = append(s.first, n)
	ns := len(s.first) - 1
	super := make([]int, n) // column -> supernode
	for k := 0; k < ns; k++ {
		for j := s.first[k]; j < s.first[k+1]; j++ {
			super[j] = k
		}
	}
	s.parent = make([]int, ns)
	for k := 0; k < ns; k++ {
		s.parent[k] = -1
		if p := parent[s.first[k+1]-1]; p >= 0 {
			s.parent[k] = super[p]
		}
	}
	s.childPtr = make([]int, ns+1)
	for _, p := range s.parent {
		if p >= 0 {
			s.childPtr[p+1]++
		}
	}
	for k := 0; k < ns; k++ {
		s.childPtr[k+1] += s.childPtr[k]
	}
	s.children = make([]int, s.childPtr[ns])
	fill := append([]int(nil), s.childPtr[:ns]...)
	for c, p := range s.parent {
		if p >= 0 {
			s.children[fill[p]] = c
			fill[p]++
		}
	}
}

// structure computes each supernode's rows: its columns, then the rows of
// A below them and the rows of its children's structures below them.
func (s *symbolic) structure(indptr, ind []int) {
	ns := len(s.first) - 1
	mark := make([]int, s.n)
	for i := range mark {
		mark[i] = -1
	}
	s.rowPtr = make([]int, 1, ns+1)
	for k := 0; k < ns; k++ {
		f, l := s.first[k], s.first[k+1]
		start := len(s.rows)
		for j := f; j < l; j++ {
			s.rows = append(s.rows, j)
			mark[j] = k
		}
		add := func(i int) {
			if i >= l && mark[i] != k {
				mark[i] = k
				s.rows = append(s.rows, i)
			}
		}
		for j := f; j < l; j++ {
			for _, q := range ind[indptr[s.perm[j]]:indptr[s.perm[j]+1]] {
				add(s.iperm[q])
			}
		}
		for _, c := range s.children[s.childPtr[k]:s.childPtr[k+1]] {
			for _, i := range s.rows[s.rowPtr[c]:s.rowPtr[c+1]] {
				add(i)
			}
		}
		sort.Ints(s.rows[start+(l-f):])
		s.rowPtr = append(s.rowPtr, len(s.rows))
	}
}
