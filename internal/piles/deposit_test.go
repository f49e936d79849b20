package piles

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDeposit: the deposit's disks do not overlap, each can rest under
// gravity on its contacts (the floor, or normals that push up and push
// both ways along x: two disks, a disk and a wall, a wedge under an
// overhanging disk), and the pile is about as high as the box is wide.
func TestDeposit(t *testing.T) {
	p := Deposit(1000, 1)
	var top float64
	for i, x := range p.X {
		top = max(top, x[1]+p.R[i])
		if x[1]-p.R[i] < 1e-9 {
			require.Greater(t, x[1]-p.R[i], -1e-9, "disk %d below the floor", i)
			continue
		}
		var normals [][2]float64 // pushing on disk i
		for j, y := range p.X {
			d := math.Hypot(x[0]-y[0], x[1]-y[1])
			if g := d - p.R[i] - p.R[j]; j != i && g < 1e-9 {
				require.Greater(t, g, -1e-9, "disks %d and %d overlap", i, j)
				normals = append(normals, [2]float64{(x[0] - y[0]) / d, (x[1] - y[1]) / d})
			}
		}
		if x[0]-p.R[i] < 1e-9 {
			normals = append(normals, [2]float64{1, 0})
		}
		if p.Width-x[0]-p.R[i] < 1e-9 {
			normals = append(normals, [2]float64{-1, 0})
		}
		lo, hi, up := 1.0, -1.0, -1.0
		for _, n := range normals {
			lo, hi, up = min(lo, n[0]), max(hi, n[0]), max(up, n[1])
		}
		require.True(t, lo <= 0 && hi >= 0 && up > 0, "disk %d at %v cannot rest on %v", i, x, normals)
	}
	require.InDelta(t, p.Width, top, 0.3*p.Width)
}
