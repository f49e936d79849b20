package team

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Team is the goroutines that share a coloured solve's colours, one per
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
type Team struct {
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

// phase is one call of Run: its items in one contiguous part per
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

// New starts a team for the cores there are, GOMAXPROCS but no more
// than the machine has (nil for one core: run then works alone).
func New() *Team {
	procs := min(runtime.GOMAXPROCS(0), runtime.NumCPU())
	if procs == 1 {
		return nil
	}
	lastPace.Lock()
	t := &Team{members: procs - 1, pace: lastPace.pace}
	lastPace.Unlock()
	t.started, t.finished = sync.NewCond(&t.mu), sync.NewCond(&t.mu)
	t.current.Store(&phase{next: make([]counter, 1)})
	for g := range t.members {
		go t.member(g + 1)
	}
	return t
}

// Run does items 0 to n-1 of a phase, by the team or by its caller
// alone, and returns when all are done.
func (t *Team) Run(n int, alone bool, job func(k int)) {
	if t == nil || n == 1 || alone {
		for k := range n {
			job(k)
		}
		return
	}
	t.together(n, job)
}

// together does a phase's items with the team's members.
func (t *Team) together(n int, job func(k int)) {
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

// Alone reports whether the next sweep is the caller's alone.
func (t *Team) Alone() bool {
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

// Record takes a sweep's time and moves to the next stage when the
// stage's sweeps are done.
func (t *Team) Record(took time.Duration) {
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
func (t *Team) member(g int) {
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
func (t *Team) await(seen *phase) *phase {
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

func (t *Team) next(ph *phase) *phase {
	if t.quit.Load() {
		return nil
	}
	return ph
}

// Stop ends the team's goroutines.
func (t *Team) Stop() {
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
