package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fecontact/fecontact/timestep"
)

// progress shows a bar with the ETA on a terminal, and plain lines (ten
// per run) otherwise, so that logs stay readable.
type progress struct {
	w        io.Writer
	total    int
	start    time.Time
	last     time.Time
	terminal bool
	quiet    bool
	next     int
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	p := &progress{w: w, total: total, start: time.Now(), quiet: quiet, next: max(total/10, 1)}
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
	elapsed := time.Since(p.start)
	eta := time.Duration(float64(elapsed) / float64(step) * float64(p.total-step)).Round(time.Second)
	e := sim.TotalEnergy()
	if p.terminal {
		if time.Since(p.last) < 100*time.Millisecond && step != p.total {
			return
		}
		p.last = time.Now()
		const width = 30
		done := width * step / p.total
		fmt.Fprintf(p.w, "\r[%s%s] %3d%% step %d/%d t = %.4g s  ETA %v   ", strings.Repeat("#", done), strings.Repeat(" ", width-done),
			100*step/p.total, step, p.total, sim.Stepper.Time(), eta)
		return
	}
	if step%p.next == 0 || step == p.total {
		fmt.Fprintf(p.w, "step %d/%d  t = %.4g s  kinetic %.6g J  elastic %.6g J  contacts %d  ETA %v\n",
			step, p.total, sim.Stepper.Time(), e.Kinetic, e.Elastic, len(sim.Contacts()), eta)
	}
}

func (p *progress) done() {
	if p.terminal && !p.quiet {
		fmt.Fprintln(p.w)
	}
}
