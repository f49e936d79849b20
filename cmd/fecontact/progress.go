package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fecontact/fecontact/timestep"
)

// progress shows a bar with the ETA on a terminal, and plain lines
// otherwise, so that logs stay readable: one at every tenth of the run, and
// one at least every logEvery (a cluster's log of an hour's run was silent
// for twenty minutes between tenths).
type progress struct {
	w        io.Writer
	total    int
	start    time.Time
	last     time.Time
	terminal bool
	quiet    bool
	next     int
	now      func() time.Time // time.Now; a test's clock
	// The time of the last update and the time and count of the steps
	// with contacts since the start: the ETA's cost of a step once there
	// are some (a slope flow's grains fly for a tenth of the run, then
	// each step costs thirty times more).
	prevStep     int
	prevTime     time.Time
	contactTime  time.Duration
	contactSteps int
}

// logEvery is the longest silence of progress off a terminal.
const logEvery = 30 * time.Second

func newProgress(w io.Writer, total int, quiet bool) *progress {
	p := &progress{w: w, total: total, start: time.Now(), quiet: quiet, next: max(total/10, 1), now: time.Now}
	p.last = p.start
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progress) update(step int, sim *timestep.Simulation) {
	if p.quiet {
		return
	}
	now := p.now()
	eta := p.eta(now, step, sim.ContactCount() > 0)
	if p.terminal {
		if now.Sub(p.last) < 100*time.Millisecond && step != p.total {
			return
		}
		p.last = now
		const width = 30
		done := width * step / p.total
		fmt.Fprintf(p.w, "\r[%s%s] %3d%% step %d/%d t = %.4g s  ETA %v   ", strings.Repeat("#", done), strings.Repeat(" ", width-done),
			100*step/p.total, step, p.total, sim.Time(), eta)
		return
	}
	if step%p.next == 0 || step == p.total || now.Sub(p.last) >= logEvery {
		p.last = now
		e := sim.TotalEnergy()
		fmt.Fprintf(p.w, "step %d/%d  t = %.4g s  kinetic %.6g J  elastic %.6g J  contacts %d  ETA %v\n",
			step, p.total, sim.Time(), e.Kinetic, e.Elastic, sim.ContactCount(), eta)
	}
}

// eta estimates the time left at step: the mean cost of the steps with
// contacts once there have been some, the mean cost of every step before.
func (p *progress) eta(now time.Time, step int, contacts bool) time.Duration {
	if p.prevTime.IsZero() {
		p.prevTime = p.start
	}
	if contacts && step > p.prevStep {
		p.contactTime += now.Sub(p.prevTime)
		p.contactSteps += step - p.prevStep
	}
	p.prevTime, p.prevStep = now, step
	perStep := float64(now.Sub(p.start)) / float64(step)
	if p.contactSteps > 0 {
		perStep = float64(p.contactTime) / float64(p.contactSteps)
	}
	return time.Duration(perStep * float64(p.total-step)).Round(time.Second)
}

func (p *progress) done() {
	if p.terminal && !p.quiet {
		fmt.Fprintln(p.w)
	}
}

// ticker says how far a long loop other than a run's steps is (a bench
// row, a solve, the steps to a deposit): a line at every tenth of it and
// at least every logEvery, so that no log stays silent for long.
type ticker struct {
	w           io.Writer
	what        string
	total       int
	start, last time.Time
	next        int
	now         func() time.Time // time.Now; a test's clock
}

func newTicker(w io.Writer, what string, total int) *ticker {
	t := &ticker{w: w, what: what, total: total, next: max(total/10, 1), now: time.Now}
	t.start = t.now()
	t.last = t.start
	return t
}

// tick reports done of the total, followed by what detail says (it is
// called only when a line is due; nil for none).
func (t *ticker) tick(done int, detail func() string) {
	now := t.now()
	if done%t.next != 0 && done != t.total && now.Sub(t.last) < logEvery {
		return
	}
	t.last = now
	more := ""
	if detail != nil {
		more = "  " + detail()
	}
	eta := time.Duration(float64(now.Sub(t.start)) / float64(max(done, 1)) * float64(t.total-done)).Round(time.Second)
	fmt.Fprintf(t.w, "%s: %d/%d%s  ETA %v\n", t.what, done, t.total, more, eta)
}
