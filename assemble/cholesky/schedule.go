package cholesky

import "sort"

// schedule splits the supernodes for parallel factorisation: parts[w] are
// whole subtrees for worker w, each list in increasing (post)order, and top
// are the remaining supernodes above them, processed afterwards in order.
// Subtrees are opened from the top, largest first, until the largest left
// weighs at most half the total; they are then dealt to the workers,
// heaviest first, to the least loaded one. Work is estimated as nc m^2 per
// supernode (m rows, nc columns).
func (s *symbolic) schedule(workers int) (parts [][]int, top []int) {
	ns := len(s.first) - 1
	work := make([]float64, ns) // subtree work
	var total float64
	for k := 0; k < ns; k++ {
		m := float64(s.rowPtr[k+1] - s.rowPtr[k])
		work[k] += float64(s.first[k+1]-s.first[k]) * m * m
		if p := s.parent[k]; p >= 0 {
			work[p] += work[k]
		} else {
			total += work[k]
		}
	}
	var cands []int
	for k, p := range s.parent {
		if p < 0 {
			cands = append(cands, k)
		}
	}
	if workers > 1 {
		for len(top) < 64 {
			sort.Slice(cands, func(a, b int) bool { return work[cands[a]] > work[cands[b]] })
			big := cands[0]
			nch := s.childPtr[big+1] - s.childPtr[big]
			if work[big] <= total/2 || nch == 0 {
				break
			}
			top = append(top, big)
			cands = append(cands[1:], s.children[s.childPtr[big]:s.childPtr[big+1]]...)
		}
	} else {
		workers = 1
	}
	sort.Slice(cands, func(a, b int) bool { return work[cands[a]] > work[cands[b]] })
	parts = make([][]int, workers)
	load := make([]float64, workers)
	for _, c := range cands {
		w := 0
		for i := range load {
			if load[i] < load[w] {
				w = i
			}
		}
		load[w] += work[c]
		parts[w] = append(parts[w], s.subtree(c)...)
	}
	for _, p := range parts {
		sort.Ints(p)
	}
	sort.Ints(top)
	return parts, top
}

// subtree lists the supernodes of the subtree rooted at k: in a postorder
// they are the contiguous range ending at k.
func (s *symbolic) subtree(k int) []int {
	lo := k
	for {
		c := s.childPtr[lo]
		if c == s.childPtr[lo+1] {
			break
		}
		lo = s.children[c] // first child has the smallest index
	}
	out := make([]int, 0, k-lo+1)
	for i := lo; i <= k; i++ {
		out = append(out, i)
	}
	return out
}
