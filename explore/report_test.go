package explore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fecontact/fecontact/signorini"
)

func sol(st []signorini.Status, r ...[2]float64) Solution { return Solution{R: r, Status: st} }

// TestFanAndSpread: three runs of three contacts: the first slides in
// every run (its force the same), the second sticks in every run (its
// force anywhere), the third changes: only the first two are counted.
func TestFanAndSpread(t *testing.T) {
	const slide, stick = signorini.SlideForward, signorini.Stick
	sols := []Solution{
		sol([]signorini.Status{slide, stick, stick}, [2]float64{1, 0.3}, [2]float64{2, 0}, [2]float64{1, 0}),
		sol([]signorini.Status{signorini.SlideBackward, stick, slide}, [2]float64{1, 0.3}, [2]float64{5, 4}, [2]float64{1, 0}),
		sol([]signorini.Status{slide, stick, stick}, [2]float64{1, 0.3}, [2]float64{2, -1}, [2]float64{3, 0}),
	}
	assert.Equal(t, [2]float64{0, 0}, Spread(sols, 0))
	assert.Equal(t, [2]float64{3, 5}, Spread(sols, 1))
	f := FanOf(sols, 3)
	assert.Equal(t, []float64{0}, f.Sliding)
	assert.InDeltaSlice(t, []float64{math.Hypot(3, 5)}, f.Sticking, 1e-15)
	assert.Equal(t, 0.0, Median(f.Sliding))
	assert.True(t, math.IsNaN(Median(nil)))
	assert.Equal(t, 2.0, Median([]float64{1, 2, 3}))
}

// TestWidest: the contacts whose dots spread over the largest hull come
// first; a contact whose dots lie on a line has no area; skip is left out.
func TestWidest(t *testing.T) {
	run := func(a, b, c [2]float64) Solution { return Solution{R: [][2]float64{a, b, c}} }
	sols := [][]Solution{{
		run([2]float64{0, 0}, [2]float64{0, 0}, [2]float64{0, 0}),
		run([2]float64{1, 0}, [2]float64{2, 0}, [2]float64{1, 1}),
		run([2]float64{0, 1}, [2]float64{0, 2}, [2]float64{2, 2}),
	}}
	assert.Equal(t, []int{1, 0}, Widest(sols, 3, 2, nil))
	assert.Equal(t, []int{0}, Widest(sols, 3, 2, []int{1}))
	assert.Equal(t, []int{1}, Widest(sols, 3, 1, nil))
}
