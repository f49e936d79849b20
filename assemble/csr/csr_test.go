package csr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestFromTriplets(t *testing.T) {
	// Out of order, with a duplicate that sums.
	m, err := FromTriplets(3, 4, []int{2, 0, 0, 2, 1}, []int{3, 1, 0, 3, 2}, []float64{1, 2, 3, 4, 5})
	require.NoError(t, err)
	require.NoError(t, m.Check())
	assert.Equal(t, []int{0, 2, 3, 4}, m.Indptr)
	assert.Equal(t, []int{0, 1, 2, 3}, m.Ind)
	assert.Equal(t, []float64{3, 2, 5, 5}, m.Data)
	want := mat.NewDense(3, 4, []float64{3, 2, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5})
	assert.True(t, mat.Equal(want, m), "as a gonum matrix")
	assert.True(t, mat.Equal(want.T(), m.T()))
	assert.Equal(t, m, FromDense(want))
	y := make([]float64, 3)
	m.MulVecTo(y, []float64{1, 10, 100, 1000})
	assert.Equal(t, []float64{23, 500, 5000}, y)
	var seen int
	m.DoNonZero(func(i, j int, v float64) { seen++; assert.Equal(t, want.At(i, j), v) })
	assert.Equal(t, 4, seen)

	_, err = FromTriplets(2, 2, []int{0, 2}, []int{0, 0}, []float64{1, 1})
	assert.ErrorContains(t, err, "entry (2, 0) outside a 2x2 matrix")
	_, err = FromTriplets(2, 2, []int{0}, []int{0, 1}, []float64{1})
	assert.ErrorContains(t, err, "1, 2 and 1 row, column and value entries")
}

// TestCheck: arrays that do not make a matrix are refused by name; a
// caller's unsorted row is a matrix.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rows, cols  int
		indptr, ind []int
		data        []float64
		want        string
	}{
		{"unsorted row", 2, 2, []int{0, 2, 2}, []int{1, 0}, []float64{1, 2}, ""},
		{"short pointers", 2, 2, []int{0, 1}, []int{0}, []float64{1}, "2 row pointers for 2 rows: expected 3"},
		{"no zero", 1, 1, []int{1, 1}, []int{}, []float64{}, "expected 2 starting at 0"},
		{"decreasing", 2, 2, []int{0, 2, 1}, []int{0}, []float64{1}, "row 1 ends before it starts"},
		{"backwards row", 2, 2, []int{0, 2, 1}, []int{0, 1}, []float64{1, 1}, "2 column indices and 2 values for 1 entries"},
		{"negative pointer", 2, 2, []int{0, -1, 0}, []int{}, []float64{}, "row 0 ends before it starts"},
		{"column out", 1, 2, []int{0, 1}, []int{2}, []float64{1}, "row 0: column 2 outside 2 columns"},
		{"values short", 1, 2, []int{0, 1}, []int{0}, nil, "1 column indices and 0 values"},
		{"negative", -1, 2, []int{0}, nil, nil, "a -1x2 matrix"},
	} {
		err := New(tc.rows, tc.cols, tc.indptr, tc.ind, tc.data).Check()
		if tc.want == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	m := New(2, 2, []int{0, 2, 2}, []int{1, 0}, []float64{1, 2})
	assert.Equal(t, 2.0, m.At(0, 0))
	assert.Equal(t, 1.0, m.At(0, 1))
	assert.Panics(t, func() { m.At(2, 0) })
}

// FuzzCheck: whatever arrays a caller hands over, Check says whether they
// make a matrix without panicking, and a matrix it passes can be read.
func FuzzCheck(f *testing.F) {
	f.Add(2, 3, []byte{0, 2, 3}, []byte{0, 2, 1}, 3)
	f.Add(1, 1, []byte{0, 1}, []byte{0}, 1)
	f.Add(2, 2, []byte{0, 2, 1}, []byte{0}, 1)
	f.Fuzz(func(t *testing.T, rows, cols int, ptr, ind []byte, nval int) {
		if rows > 64 || cols > 64 || nval > 256 || nval < 0 {
			return
		}
		indptr := make([]int, len(ptr))
		for i, p := range ptr {
			indptr[i] = int(int8(p))
		}
		cix := make([]int, len(ind))
		for i, c := range ind {
			cix[i] = int(int8(c))
		}
		m := New(rows, cols, indptr, cix, make([]float64, nval))
		if m.Check() != nil {
			return
		}
		x, y := make([]float64, cols), make([]float64, rows)
		m.MulVecTo(y, x)
		m.DoNonZero(func(i, j int, v float64) { _ = m.At(i, j) })
	})
}
