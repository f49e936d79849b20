package reuse

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestZeroed: the entries are zero whatever was there, the storage is kept
// when it suffices, and a growing size does not reallocate every time.
func TestZeroed(t *testing.T) {
	s := []int{1, 2, 3, 4}
	z := Zeroed(s, 3)
	assert.Equal(t, []int{0, 0, 0}, z)
	assert.Same(t, &s[0], &z[0], "storage kept")
	grown := 0
	for n := 1; n <= 1000; n++ {
		old := cap(z)
		z = Zeroed(z, n)
		assert.Len(t, z, n)
		if cap(z) != old {
			grown++
		}
	}
	assert.Less(t, grown, 20, "amortised growth")
	assert.Equal(t, make([]int, 1000), z)
}
