package team

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRunDoesEveryItemOnce: every item of every phase is done exactly
// once, by the team or by its caller alone, on one core (a nil team)
// and on every core there is.
func TestRunDoesEveryItemOnce(t *testing.T) {
	for _, procs := range []int{1, runtime.NumCPU()} {
		prev := runtime.GOMAXPROCS(procs)
		tm := New()
		if procs == 1 {
			assert.Nil(t, tm, "one core: no team")
		}
		for phase := range 200 {
			n := 1 + phase%37
			done := make([]atomic.Int32, n)
			tm.Run(n, tm.Alone(), func(k int) { done[k].Add(1) })
			for k := range done {
				assert.EqualValues(t, 1, done[k].Load(), "procs %d phase %d item %d", procs, phase, k)
			}
			tm.Record(time.Microsecond)
		}
		tm.Stop()
		runtime.GOMAXPROCS(prev)
	}
}
