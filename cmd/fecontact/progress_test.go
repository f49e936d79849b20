package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/timestep"
)

// TestProgressOffTerminal: off a terminal (a cluster's log), progress
// prints a line at every tenth of the run and, with a slow step, at
// least every 30 s between them: a fake clock gives the run's first
// hundred steps 20 s each.
func TestProgressOffTerminal(t *testing.T) {
	sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3})
	require.NoError(t, err)
	var buf bytes.Buffer
	p := newProgress(&buf, 10000, false)
	clock := p.start
	p.now = func() time.Time { return clock }
	lines := func() int { return strings.Count(buf.String(), "\n") }
	for step := 1; step <= 100; step++ {
		clock = clock.Add(20 * time.Second)
		p.update(step, sim)
	}
	assert.Equal(t, 50, lines(), "a line every other 20 s step: every 40 s, the first after 30 s or more")
	before := lines()
	for step := 101; step <= 1000; step++ { // fast steps up to the first tenth
		clock = clock.Add(time.Millisecond)
		p.update(step, sim)
	}
	assert.Equal(t, before+1, lines(), "the tenth's line, and no other")
	assert.Contains(t, buf.String(), "step 1000/10000")
}

// TestTickerOffTerminal: a loop's ticker (bench rows, solves, the steps to
// a deposit) prints at every tenth and, when the loop crawls, at least
// every 30 s; detail is asked only for the lines printed.
func TestTickerOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	tk := newTicker(&buf, "step", 1000)
	clock := tk.start
	tk.now = func() time.Time { return clock }
	asked := 0
	detail := func() string { asked++; return "t = 1 s" }
	for k := 1; k <= 10; k++ { // 25 s each
		clock = clock.Add(25 * time.Second)
		tk.tick(k, detail)
	}
	assert.Equal(t, 5, strings.Count(buf.String(), "\n"), "every other 25 s tick: each 50 s")
	for k := 11; k <= 1000; k++ {
		clock = clock.Add(time.Millisecond)
		tk.tick(k, detail)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	assert.Len(t, lines, 5+10, "and each tenth")
	assert.Equal(t, len(lines), asked)
	assert.Equal(t, "step: 1000/1000  t = 1 s  ETA 0s", lines[len(lines)-1])
	assert.Equal(t, "step: 100/1000  t = 1 s  ETA 37m31s", lines[5])
}

// TestETAFromContactSteps: once steps with contacts come, the ETA takes
// their cost, not the mean over a run whose first steps flew freely (the
// slope flow's ETA said 8 s of a 263 s run).
func TestETAFromContactSteps(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, 1000, true)
	clock := p.start
	for step := 1; step <= 100; step++ { // free flight, 1 ms a step
		clock = clock.Add(time.Millisecond)
		assert.LessOrEqual(t, p.eta(clock, step, false), time.Second, "the mean of free steps")
	}
	for step := 101; step <= 200; step++ { // contact, 100 ms a step
		clock = clock.Add(100 * time.Millisecond)
		p.eta(clock, step, true)
	}
	assert.Equal(t, 80*time.Second, p.eta(clock.Add(100*time.Millisecond), 201, true), "799 steps at 100 ms")
}
