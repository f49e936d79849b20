// Package csr is fecontact's compressed-sparse-row matrix: the type of
// the stiffness, mass and tangent matrices in its API (assemble,
// assemble/cholesky, timestep). It is our own, small and stable, so that
// the API names no type of an untagged module; it implements gonum's
// mat.Matrix, so that gonum's dense code reads it.
package csr

import (
	"cmp"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Matrix is a rows x cols matrix in compressed sparse rows: row i's
// entries are Data[Indptr[i]:Indptr[i+1]] in columns Ind[...] (sorted in
// the matrices fecontact makes; a caller's may be in any order).
// The pattern (Indptr, Ind) is often shared by matrices of one Space: a
// caller may write Data, never the pattern.
type Matrix struct {
	rows, cols int
	Indptr     []int
	Ind        []int
	Data       []float64
}

// New wraps the three arrays of a rows x cols matrix, without copying
// or checking them (Check does).
func New(rows, cols int, indptr, ind []int, data []float64) *Matrix {
	return &Matrix{rows: rows, cols: cols, Indptr: indptr, Ind: ind, Data: data}
}

// Check tells whether the arrays describe a rows x cols matrix: row
// pointers from 0, non-decreasing, as many column indices and values as
// entries, each row's columns in range.
func (m *Matrix) Check() error {
	rows, cols, indptr, ind := m.rows, m.cols, m.Indptr, m.Ind
	switch {
	case rows < 0 || cols < 0:
		return fmt.Errorf("csr: a %dx%d matrix", rows, cols)
	case len(indptr) != rows+1 || indptr[0] != 0:
		return fmt.Errorf("csr: %d row pointers for %d rows: expected %d starting at 0", len(indptr), rows, rows+1)
	case len(ind) != indptr[rows] || len(m.Data) != indptr[rows]:
		return fmt.Errorf("csr: %d column indices and %d values for %d entries", len(ind), len(m.Data), indptr[rows])
	}
	for i := range rows {
		if indptr[i+1] < indptr[i] {
			return fmt.Errorf("csr: row %d ends before it starts", i)
		}
	}
	for i := range rows {
		for k := indptr[i]; k < indptr[i+1]; k++ {
			if ind[k] < 0 || ind[k] >= cols {
				return fmt.Errorf("csr: row %d: column %d outside %d columns", i, ind[k], cols)
			}
		}
	}
	return nil
}

// FromTriplets builds a rows x cols matrix from entries (i[k], j[k],
// v[k]), summing those at one place.
func FromTriplets(rows, cols int, i, j []int, v []float64) (*Matrix, error) {
	if len(i) != len(j) || len(i) != len(v) {
		return nil, fmt.Errorf("csr: %d, %d and %d row, column and value entries", len(i), len(j), len(v))
	}
	order := make([]int, len(i))
	for k := range order {
		if i[k] < 0 || i[k] >= rows || j[k] < 0 || j[k] >= cols {
			return nil, fmt.Errorf("csr: entry (%d, %d) outside a %dx%d matrix", i[k], j[k], rows, cols)
		}
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(i[a], i[b]), cmp.Compare(j[a], j[b])) })
	m := &Matrix{rows: rows, cols: cols, Indptr: make([]int, rows+1)}
	for n, k := range order {
		if n > 0 && i[k] == i[order[n-1]] && j[k] == j[order[n-1]] {
			m.Data[len(m.Data)-1] += v[k]
			continue
		}
		m.Ind, m.Data = append(m.Ind, j[k]), append(m.Data, v[k])
		m.Indptr[i[k]+1]++
	}
	for r := range rows {
		m.Indptr[r+1] += m.Indptr[r]
	}
	return m, nil
}

// FromDense is the nonzero entries of a.
func FromDense(a mat.Matrix) *Matrix {
	r, c := a.Dims()
	var is, js []int
	var vs []float64
	for i := range r {
		for j := range c {
			if v := a.At(i, j); v != 0 {
				is, js, vs = append(is, i), append(js, j), append(vs, v)
			}
		}
	}
	m, _ := FromTriplets(r, c, is, js, vs) // in range by construction
	return m
}

// Dims returns the numbers of rows and columns.
func (m *Matrix) Dims() (int, int) { return m.rows, m.cols }

// NNZ is the number of stored entries.
func (m *Matrix) NNZ() int { return len(m.Data) }

// At returns entry (i, j), 0 where none is stored.
func (m *Matrix) At(i, j int) float64 {
	if i < 0 || i >= m.rows || j < 0 || j >= m.cols {
		panic(mat.ErrIndexOutOfRange)
	}
	var v float64
	for k := m.Indptr[i]; k < m.Indptr[i+1]; k++ { // in any order; duplicates sum
		if m.Ind[k] == j {
			v += m.Data[k]
		}
	}
	return v
}

// T is the transpose, as gonum's mat.Matrix asks.
func (m *Matrix) T() mat.Matrix { return mat.Transpose{Matrix: m} }

// Rows is the number of rows.
func (m *Matrix) Rows() int { return m.rows }

// Cols is the number of columns.
func (m *Matrix) Cols() int { return m.cols }

// DoNonZero calls f for every stored entry, row by row (gonum's
// mat.NonZeroDoer).
func (m *Matrix) DoNonZero(f func(i, j int, v float64)) {
	for i := range m.rows {
		for k := m.Indptr[i]; k < m.Indptr[i+1]; k++ {
			f(i, m.Ind[k], m.Data[k])
		}
	}
}

// MulVecTo sets dst = A x.
func (m *Matrix) MulVecTo(dst, x []float64) {
	if len(dst) != m.rows || len(x) != m.cols {
		panic(fmt.Sprintf("csr: MulVecTo of a %dx%d matrix with %d and %d entries", m.rows, m.cols, len(dst), len(x)))
	}
	for i := range dst {
		var s float64
		for k := m.Indptr[i]; k < m.Indptr[i+1]; k++ {
			s += m.Data[k] * x[m.Ind[k]]
		}
		dst[i] = s
	}
}

// Entries build a matrix entry by entry, in any order.
type Entries struct {
	rows, cols int
	v          map[[2]int]float64
}

// NewEntries starts a rows x cols matrix with no entry.
func NewEntries(rows, cols int) *Entries {
	return &Entries{rows: rows, cols: cols, v: map[[2]int]float64{}}
}

// Set sets entry (i, j) to v.
func (e *Entries) Set(i, j int, v float64) { e.v[[2]int{i, j}] = v }

// Matrix is the matrix of the entries set (an entry set to 0 is stored).
func (e *Entries) Matrix() (*Matrix, error) {
	var is, js []int
	var vs []float64
	for k, v := range e.v {
		is, js, vs = append(is, k[0]), append(js, k[1]), append(vs, v)
	}
	return FromTriplets(e.rows, e.cols, is, js, vs)
}
