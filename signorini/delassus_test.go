package signorini_test

import (
	"testing"

	"github.com/fecontact/fecontact/signorini"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetPattern: a pattern set on a W gives each stored block its own
// storage, found by Block (nil where the pattern has none), zeroed when
// the W is set again on another pattern or zeroed on its own; patterns that are not sorted,
// distinct, in range and off the diagonal are refused.
func TestSetPattern(t *testing.T) {
	var w signorini.BlockSparse
	require.NoError(t, w.SetPattern([]int{0, 2, 3, 5}, []int{1, 2, 0, 0, 1}))
	require.Equal(t, 3, w.Contacts())
	for _, ab := range [][2]int{{0, 1}, {0, 2}, {1, 0}, {2, 0}, {2, 1}, {0, 0}, {1, 1}, {2, 2}} {
		blk := w.Block(ab[0], ab[1])
		require.NotNil(t, blk, "W_%d%d", ab[0], ab[1])
		blk[0] = float64(10*ab[0] + ab[1] + 1)
	}
	assert.Nil(t, w.Block(1, 2), "not in the pattern")
	un, _ := w.OffDiag(2, []float64{1, 0, 1, 0, 1, 0})
	assert.Equal(t, 21.0+22.0, un, "row 2's off-diagonal blocks, not its diagonal")
	assert.Equal(t, 23.0, w.Diag(2)[0])

	w.Zero()
	assert.Equal(t, [4]float64{}, *w.Block(2, 1), "blocks zeroed, the pattern kept")
	assert.Equal(t, [4]float64{}, w.Diag(2), "diagonal zeroed, the pattern kept")
	assert.Nil(t, w.Block(1, 2), "still not in the pattern")

	require.NoError(t, w.SetPattern([]int{0, 1, 2}, []int{1, 0}))
	assert.Equal(t, [4]float64{}, *w.Block(0, 1), "blocks zeroed on a new pattern")
	assert.Equal(t, [4]float64{}, w.Diag(0), "diagonal zeroed on a new pattern")

	for _, tc := range []struct {
		name     string
		ptr, col []int
		want     string
	}{
		{"no bounds", nil, nil, "a pattern of 0 row bounds for 0 columns"},
		{"last bound", []int{0, 1, 3}, []int{1, 0}, "a pattern of 3 row bounds for 2 columns"},
		{"diagonal", []int{0, 1, 2}, []int{0, 0}, "row 0 of a pattern of 2 contacts has the columns [0]"},
		{"unsorted", []int{0, 2, 2, 2}, []int{2, 1}, "row 0 of a pattern of 3 contacts has the columns [2 1]"},
		{"repeated", []int{0, 2, 2, 2}, []int{1, 1}, "row 0 of a pattern of 3 contacts has the columns [1 1]"},
		{"row bounds decreasing", []int{0, 2, 1, 2}, []int{1, 2}, "row 1 of a pattern starts at 2 and ends at 1"},
		{"out of range", []int{0, 1, 1}, []int{2}, "row 0 of a pattern of 2 contacts has the columns [2]"},
	} {
		err := w.SetPattern(tc.ptr, tc.col)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// TestRowBlocks: a row's blocks found in one pass are Block's, for
// columns that include the diagonal, skip stored ones and name one the
// pattern lacks (nil).
func TestRowBlocks(t *testing.T) {
	var w signorini.BlockSparse
	require.NoError(t, w.SetPattern([]int{0, 3, 4, 6, 6}, []int{1, 2, 3, 0, 0, 1}))
	for _, tc := range []struct {
		row  int
		cols []int
	}{
		{0, []int{0, 1, 2, 3}}, {0, []int{1, 3}}, {0, []int{0, 3}}, {1, []int{0, 1, 2}},
		{2, []int{0, 1, 2, 3}}, {3, []int{3}}, {3, []int{0, 3}}, {0, nil},
	} {
		got := make([]*[4]float64, len(tc.cols))
		w.RowBlocks(tc.row, tc.cols, got)
		for i, c := range tc.cols {
			assert.Same(t, w.Block(tc.row, c), got[i], "row %d, column %d", tc.row, c)
		}
	}
}
