package contact

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/assemble"
	"github.com/fecontact/fecontact/mesh"
)

// TestValleyUnits: a node near the bottom of a V groove is held out of
// both faces (the body is the union of their half-planes), by a unit on
// each with its face's normal and distance; near a vertex whose faces turn
// by less than valleyTurn, one unit. Under the shock law, one unit.
func TestValleyUnits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		slope float64
		law   Law
		units int
	}{{"groove", 0.3, Positional, 4}, {"shallow", 0.15, Positional, 2}, {"shock law", 0.3, Shock, 2}} {
		s := tc.slope
		// Nodes at x = -0.02 and 0.02, 0.5 mm above the faces y = -s x
		// and y = s x, 2 (0.02 s + 0.0005) / hypot(1, s) above the other.
		m, err := mesh.Rectangle([2]float64{-0.02, 0.02*s + 0.0005}, 0.04, 0.04, 1, 1, mesh.Q4)
		require.NoError(t, err)
		dofs, err := assemble.NewDOFMap(m, nil)
		require.NoError(t, err)
		side, err := NewSide(0, m, dofs, "bottom", 1)
		require.NoError(t, err)
		groove := &Obstacle{Name: "groove", Points: [][2]float64{{-1, s}, {0, 0}, {1, s}}}
		d, err := NewDetector(&Pair{Name: "g", Candidate: side, Obstacle: groove, Alert: 0.02, Law: tc.law})
		require.NoError(t, err)
		units, _, err := d.Detect(Config{})
		require.NoError(t, err)
		require.Len(t, units, tc.units, tc.name)
		if tc.units == 2 {
			continue
		}
		l := math.Hypot(1, s)
		for _, u := range units {
			x := u.X
			left, right := [2]float64{s / l, 1 / l}, [2]float64{-s / l, 1 / l}
			n := left
			if u.Key.Edge == 1 {
				n = right
			}
			assert.InDeltaSlice(t, n[:], u.N[:], 1e-12, "%+v", u.Key)
			assert.InDelta(t, dot(x, n), u.Gap/u.Weight, 1e-12, "%+v", u.Key)
		}
	}
}
