package signorini

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// sweeper updates one contact at a time: the exact single-contact solve
// with the others' current impulses, relaxed, into r.
type sweeper struct {
	p      *Problem
	diag   [][4]float64
	r      []float64
	status []Status
	omega  float64
	team   *team // a coloured sweep's cores
}

// sweepSums are a sweep's sums for the stop tests: the squared change and
// norm of the impulses, and VelocityChange's squared change of the local
// velocities through the contacts' own compliance and their scale.
type sweepSums struct {
	change, norm, dv2, wr2 float64
}

// sweep updates contacts order[lo:hi] (lo to hi-1 when order is nil) in
// turn and returns their sums. The loop is the hot one of a solve: one
// call per sweep or chunk, none per contact.
func (s *sweeper) sweep(lo, hi int, order []int, velocity bool) sweepSums {
	p, diag, r, omega := s.p, s.diag, s.r, s.omega
	var change, norm, dv2, wr2 float64
	for i := lo; i < hi; i++ {
		a := i
		if order != nil {
			a = order[i]
		}
		on, ot := p.W.OffDiag(a, r)
		rn, rt, st := single(&diag[a], p.Q[2*a]+on, p.Q[2*a+1]+ot, p.shift(a), p.Mu[a])
		ra := [2]float64{rn, rt}
		if omega != 1 {
			ra = projectCone([2]float64{omega*ra[0] + (1-omega)*r[2*a], omega*ra[1] + (1-omega)*r[2*a+1]}, p.Mu[a])
		}
		d0, d1 := ra[0]-r[2*a], ra[1]-r[2*a+1]
		change += d0*d0 + d1*d1
		norm += ra[0]*ra[0] + ra[1]*ra[1]
		if velocity {
			w := &diag[a]
			dn, dt := w[0]*d0+w[1]*d1, w[2]*d0+w[3]*d1
			vn, vt := w[0]*ra[0]+w[1]*ra[1], w[2]*ra[0]+w[3]*ra[1]
			dv2, wr2 = dv2+dn*dn+dt*dt, wr2+vn*vn+vt*vt
		}
		r[2*a], r[2*a+1] = ra[0], ra[1]
		s.status[a] = st
	}
	return sweepSums{change, norm, dv2, wr2}
}

// colourChunk is the number of contacts whose sums a coloured sweep takes
// together: fixed, so that the sums, and so the stop, do not depend on how
// many cores share a colour's chunks.
const colourChunk = 64

// coloured runs one sweep colour by colour, contacts [colours[c],
// colours[c+1]) being colour c, the chunks of a colour shared by the
// sweeper's team; the chunks' sums are added in order.
func (s *sweeper) coloured(colours []int, chunks *[]sweepSums, velocity bool) sweepSums {
	start := time.Now()
	alone := s.team.alone()
	sums := (*chunks)[:0]
	for c := range len(colours) - 1 {
		lo, hi := colours[c], colours[c+1]
		first := len(sums)
		for k := lo; k < hi; k += colourChunk {
			sums = append(sums, sweepSums{})
		}
		part := sums[first:]
		s.team.run(len(part), alone, func(k int) {
			part[k] = s.sweep(lo+k*colourChunk, min(lo+(k+1)*colourChunk, hi), nil, velocity)
		})
	}
	s.team.record(time.Since(start))
	*chunks = sums
	var total sweepSums
	for _, c := range sums {
		total.change += c.change
		total.norm += c.norm
		total.dv2 += c.dv2
		total.wr2 += c.wr2
	}
	return total
}

// team is the goroutines that share a coloured solve's colours, one per
// core but the caller's, kept for the solve. A colour is a phase of a
// sweep, a few microseconds of work, so a member waits for the next one
// spinning, but only for a while (spinWait) before it sleeps: on a node
// whose cores other programs share, a member spinning without its own
// core took the time of the very member it waited for. Each goroutine
// takes the items of its own part of the phase one by one, then those
// left in the others' parts: a member the system has not scheduled leaves
// its items to the others instead of holding the phase (one that took an
// item finishes it, and the phase waits for that one); where the team
// still proves slower than its caller alone, the caller sweeps alone for
// a while (pace). Each item writes its own place, so the result does not
// depend on who did it, nor on how many.
type team struct {
	members int                   // besides the caller
	current atomic.Pointer[phase] // the phase under way, or the last one
	quit    atomic.Bool

	mu       sync.Mutex
	started  *sync.Cond   // a new phase, for the members asleep
	finished *sync.Cond   // the phase's items done, for the caller asleep
	sleepers atomic.Int32 // members asleep in started.Wait, or about to be
	waiting  atomic.Bool  // the caller asleep in finished.Wait, or about to be

	pace pace // the team or the caller alone, sweep by sweep
}

// phase is one call of run: its items in one contiguous part per
// goroutine, each part's items handed out by its counter, and the count
// of items done.
type phase struct {
	n, per int64
	job    func(k int)
	next   []counter
	done   atomic.Int64
}

// counter is an atomic counter alone on its cache line, so that the
// goroutines taking items from their own parts do not contend.
type counter struct {
	atomic.Int64
	_ [56]byte
}

// spinWait is how many times a waiting goroutine looks before it sleeps:
// a few microseconds, longer than the gap between two colours of a sweep
// on an idle machine, much shorter than a time slice of the system.
const spinWait = 2000

// newTeam starts a team for the cores there are, GOMAXPROCS but no more
// than the machine has (nil for one core: run then works alone).
func newTeam() *team {
	procs := min(runtime.GOMAXPROCS(0), runtime.NumCPU())
	if procs == 1 {
		return nil
	}
	lastPace.Lock()
	t := &team{members: procs - 1, pace: lastPace.pace}
	lastPace.Unlock()
	t.started, t.finished = sync.NewCond(&t.mu), sync.NewCond(&t.mu)
	t.current.Store(&phase{next: make([]counter, 1)})
	for g := range t.members {
		go t.member(g + 1)
	}
	return t
}

// run does items 0 to n-1 of a phase, by the team or by its caller
// alone, and returns when all are done.
func (t *team) run(n int, alone bool, job func(k int)) {
	if t == nil || n == 1 || alone {
		for k := range n {
			job(k)
		}
		return
	}
	t.together(n, job)
}

// together does a phase's items with the team's members.
func (t *team) together(n int, job func(k int)) {
	parts := int64(t.members + 1)
	ph := &phase{n: int64(n), per: (int64(n) + parts - 1) / parts, job: job, next: make([]counter, parts)}
	t.current.Store(ph)
	if t.sleepers.Load() > 0 {
		t.mu.Lock()
		t.started.Broadcast()
		t.mu.Unlock()
	}
	ph.work(0)
	for spins := 0; ph.done.Load() < ph.n; spins++ {
		if spins < spinWait {
			if spins%64 == 63 {
				runtime.Gosched()
			}
			continue
		}
		t.mu.Lock()
		t.waiting.Store(true)
		for ph.done.Load() < ph.n {
			t.finished.Wait()
		}
		t.waiting.Store(false)
		t.mu.Unlock()
	}
}

// pace decides whether the team or its caller alone does a sweep: it
// times a trial of each (trialSweeps sweeps, the same work), then lets
// the faster do the next runSweeps before it tries both again; the caller
// alone must be faster by 15 %, more than a shared machine's noise,
// where the team loses by 40 % and more. On a node
// whose cores other programs share, a member that took an item and lost
// its core holds the phase, and the team can be slower than one core;
// the trials find it out as the load comes and goes. It is kept from
// solve to solve (lastPace), each solve being a few sweeps; who does an
// item does not change what it computes.
type pace struct {
	stage  int                        // 0: the team's trial, 1: the caller's, 2: the faster's run
	left   int                        // sweeps left in the stage
	solo   bool                       // stage 2 is the caller's alone
	trial  [trialSweeps]time.Duration // the trial's sweeps' times
	byTeam time.Duration              // the team's trial: its median sweep
}

// trialSweeps and runSweeps: a trial's median of three sweeps ignores a
// hiccup of the machine in one; trying the caller alone on an idle
// machine costs about 1 % of the sweeps' time.
const (
	trialSweeps = 3
	runSweeps   = 200
)

// lastPace is the pace where the last solve left it.
var lastPace = struct {
	sync.Mutex
	pace
}{pace: pace{left: trialSweeps}}

// alone reports whether the next sweep is the caller's alone.
func (t *team) alone() bool {
	if t == nil {
		return true
	}
	switch t.pace.stage {
	case 0:
		return false
	case 1:
		return true
	}
	return t.pace.solo
}

// record takes a sweep's time and moves to the next stage when the
// stage's sweeps are done.
func (t *team) record(took time.Duration) {
	if t == nil {
		return
	}
	p := &t.pace
	if p.stage < 2 {
		p.trial[trialSweeps-p.left] = took
	}
	if p.left--; p.left > 0 {
		return
	}
	switch p.stage {
	case 0:
		p.byTeam = median(p.trial)
		p.stage, p.left = 1, trialSweeps
	case 1:
		p.solo = median(p.trial) < p.byTeam*17/20
		p.stage, p.left = 2, runSweeps
	default:
		p.stage, p.left = 0, trialSweeps
	}
}

func median(d [trialSweeps]time.Duration) time.Duration {
	slices.Sort(d[:])
	return d[trialSweeps/2]
}

// work does the phase's items for goroutine g (0 the caller): first
// those of its own part (the same contiguous part of each colour in every
// sweep, whose contacts stay in its core's cache), then what is left of
// the others' parts; it reports whether it did the last of them.
func (ph *phase) work(g int) (last bool) {
	parts := len(ph.next)
	for i := range parts {
		p := (g + i) % parts
		lo, hi := int64(p)*ph.per, min(int64(p+1)*ph.per, ph.n)
		for {
			k := lo + ph.next[p].Add(1) - 1
			if k >= hi {
				break
			}
			ph.job(int(k))
			if ph.done.Add(1) == ph.n {
				return true
			}
		}
	}
	return false
}

// member g (from 1) works each phase it sees until the team stops.
func (t *team) member(g int) {
	seen := t.current.Load()
	for {
		ph := t.await(seen)
		if ph == nil {
			return
		}
		seen = ph
		if ph.work(g) && t.waiting.Load() {
			t.mu.Lock()
			t.finished.Broadcast()
			t.mu.Unlock()
		}
	}
}

// await returns the phase after seen, spinning a while, then asleep; nil
// once the team stops.
func (t *team) await(seen *phase) *phase {
	for spins := 0; spins < spinWait; spins++ {
		if ph := t.current.Load(); ph != seen || t.quit.Load() {
			return t.next(ph)
		}
		if spins%64 == 63 {
			runtime.Gosched()
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sleepers.Add(1)
	for t.current.Load() == seen && !t.quit.Load() {
		t.started.Wait()
	}
	t.sleepers.Add(-1)
	return t.next(t.current.Load())
}

func (t *team) next(ph *phase) *phase {
	if t.quit.Load() {
		return nil
	}
	return ph
}

// stop ends the team's goroutines.
func (t *team) stop() {
	if t == nil {
		return
	}
	lastPace.Lock()
	lastPace.pace = t.pace
	lastPace.Unlock()
	t.quit.Store(true)
	t.mu.Lock()
	t.started.Broadcast()
	t.mu.Unlock()
}

// coloured solves p in Coloured order: it numbers W's contacts colour by
// colour (colours) and sweeps that problem with the colours' bounds.
func coloured(p *Problem, w *BlockSparse, opt Options, res *Result) (*Result, error) {
	perm, bounds := colours(w)
	opt.colours = bounds
	return renumbered(p, w, perm, opt, res)
}

// colours colours W's contacts greedily in contact order, each taking the
// first colour none of its coupled contacts has, and returns the contacts
// colour by colour (in contact order within a colour) and the bounds of
// the colours in that list.
func colours(w *BlockSparse) (perm, bounds []int) {
	n := w.Contacts()
	colour := make([]int, n)
	var used []bool // by colour, for the contact being coloured
	ncol := 0
	for a := range n {
		clear(used)
		for _, b := range w.Col[w.Ptr[a]:w.Ptr[a+1]] {
			if b < a {
				used[colour[b]] = true
			}
		}
		c := 0
		for c < len(used) && used[c] {
			c++
		}
		if c == len(used) {
			used = append(used, false)
		}
		colour[a], ncol = c, max(ncol, c+1)
	}
	perm = make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return colour[a] - colour[b] })
	bounds = make([]int, ncol+1)
	for _, a := range perm {
		bounds[colour[a]+1]++
	}
	for c := range ncol {
		bounds[c+1] += bounds[c]
	}
	return perm, bounds
}
