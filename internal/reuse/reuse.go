// Package reuse holds the one helper that the packages keeping storage from
// one step to the next share (contact's detection, rigid's broad phase,
// signorini's NLGS results, timestep's step work): a slice made ready for
// n zeroed entries in the storage it already has.
package reuse

import "slices"

// Zeroed returns s with length n and zero entries, reusing its storage.
// Growth is amortised: a size that creeps up from step to step reallocates
// rarely.
func Zeroed[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}
