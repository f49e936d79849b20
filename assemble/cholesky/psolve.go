package cholesky

import (
	"runtime"
	"sync"
)

// parallelNNZ is the size of a factor from which its substitutions use two
// cores: below it, the goroutines cost more than they save.
const parallelNNZ = 1 << 21

// solvePlan splits the supernodes for two-core substitutions: parts are two
// sets of whole subtrees, top the supernodes above them (closed upwards),
// inTop marks top's columns. It does not depend on the number of cores,
// and the substitutions with it give the sequential ones' result bit for
// bit: see forwardParallel and backwardParallel.
type solvePlan struct {
	parts [2][]int
	top   []bool // per supernode
	inTop []bool // per column
	logs  [2][]update
}

// update is x[r] -= d from supernode k, logged by a part for a top column.
type update struct {
	k, r int32
	d    float64
}

// plan returns the factor's solve plan, or nil when the substitutions stay
// on one core.
func (f *Factor) plan() *solvePlan {
	if f.sym.nnzL < parallelNNZ || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	if f.splan == nil {
		s := f.sym
		parts, top := s.schedule(2)
		p := &solvePlan{top: make([]bool, len(s.first)-1), inTop: make([]bool, s.n)}
		copy(p.parts[:], parts)
		for _, k := range top {
			p.top[k] = true
			for c := s.first[k]; c < s.first[k+1]; c++ {
				p.inTop[c] = true
			}
		}
		f.splan = p
	}
	return f.splan
}

// forwardParallel is forward on two cores. Each part runs its subtrees in
// postorder, updating its own columns at once and logging its updates of
// top columns; then one sweep over all supernodes in postorder applies a
// part supernode's logged updates, or runs a top supernode. Every x[r]
// thus takes the same subtractions in the same order as in forward.
func (f *Factor) forwardParallel(x []float64, p *solvePlan) {
	var wg sync.WaitGroup
	for w := range p.parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			log := p.logs[w][:0]
			for _, k := range p.parts[w] {
				log = f.forwardNode(x, k, p.inTop, log)
			}
			p.logs[w] = log
		}()
	}
	wg.Wait()
	var next [2]int
	for k := range p.top {
		if p.top[k] {
			f.forwardNode(x, k, nil, nil)
			continue
		}
		for w := range p.logs {
			log := p.logs[w]
			for next[w] < len(log) && int(log[next[w]].k) == k {
				u := log[next[w]]
				x[u.r] -= u.d
				next[w]++
			}
		}
	}
}

// backwardParallel is backward on two cores: the top supernodes first (they
// read only top columns), then the two parts at once, each reading its own
// columns and final top ones. Every x_c takes the same operations as in
// backward.
func (f *Factor) backwardParallel(x []float64, p *solvePlan) {
	for k := len(p.top) - 1; k >= 0; k-- {
		if p.top[k] {
			f.backwardNode(x, k)
		}
	}
	var wg sync.WaitGroup
	for w := range p.parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part := p.parts[w]
			for i := len(part) - 1; i >= 0; i-- {
				f.backwardNode(x, part[i])
			}
		}()
	}
	wg.Wait()
}
