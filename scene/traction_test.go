package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barScene is a bar 1 m long, 0.1 m high, clamped on its left edge and
// pulled on its right by a traction (or a pressure) ramped over 20 ms,
// plane stress, nu 0: uniaxial, its static elongation sigma L / E.
func barScene(kind, load string) string {
	return fmt.Sprintf(`[time]
h = 1e-4
duration = 0.1
[[body]]
name = "bar"
rectangle = { kind = "%s", origin = [0.0, 0.0], size = [1.0, 0.1], cells = [20, 2] }
E = 1e9
nu = 0.0
rho = 1000
plane = "stress"
ramp = 0.02
damping = { alpha = 200.0 }
fixed = [{ group = "left" }]
traction = [%s]
`, kind, load)
}

// TestBarUnderEndTraction: a bar pulled by a traction of 1e5 Pa on its
// end, on Q4 and Q8 meshes (straight two- and three-node edges), settles
// to the elongation sigma L / E = 0.1 mm within 1 %; a pressure of -1e5
// Pa (pulling) gives the same, one of 1e5 Pa the opposite; the ledger
// closes with the tractions' work booked as external work. A traction on
// an unknown group, or with neither or both of value and pressure, is
// refused naming it.
func TestBarUnderEndTraction(t *testing.T) {
	for _, kind := range []string{"Q4", "Q8"} {
		for _, tc := range []struct {
			load string
			want float64
		}{
			{`{ group = "right", value = [1e5, 0.0] }`, 1e-4},
			{`{ group = "right", pressure = -1e5 }`, 1e-4},
			{`{ group = "right", pressure = 1e5 }`, -1e-4},
		} {
			sc, err := Decode(strings.NewReader(barScene(kind, tc.load)), "bar.toml")
			require.NoError(t, err)
			m, err := sc.Model(Variant{})
			require.NoError(t, err)
			sim, err := m.Simulation()
			require.NoError(t, err)
			e0 := sim.TotalEnergy().Balance()
			for range sc.Steps() {
				_, err := sim.Step()
				require.NoError(t, err)
			}
			b := m.Bodies[0]
			u := b.Displacement()
			n := 0
			for i, x := range b.Space.Mesh.Nodes {
				if math.Abs(x[0]-1) < 1e-12 {
					assert.InEpsilon(t, tc.want, u[2*i], 0.01, "%s, %s: the end's elongation", kind, tc.load)
					n++
				}
			}
			require.Positive(t, n)
			e := sim.TotalEnergy()
			assert.InDelta(t, e0, e.Balance(), 1e-9*math.Abs(e.External), "%s: the ledger closes", kind)
			assert.InEpsilon(t, 0.5*1e5*0.1*1e-4, e.Elastic, 0.02, "%s: the stored energy sigma A delta / 2", kind)
		}
	}
	for load, want := range map[string]string{
		`{ group = "top_edge", value = [1.0, 0.0] }`: `traction 1: group "top_edge"`,
		`{ group = "right" }`:                        "traction 1: give value = [tx, ty] (Pa) or pressure (Pa), one of them",
		`{ value = [1.0, 0.0] }`:                     "traction 1: group is missing",
		`{ group = "right", value = [1.0, nan] }`:    "traction 1: value = [1 NaN]: expected [tx, ty] in Pa",
	} {
		sc, err := Decode(strings.NewReader(barScene("Q4", load)), "bad.toml")
		if err == nil {
			_, err = sc.Model(Variant{})
		}
		assert.ErrorContains(t, err, want, load)
	}
}
