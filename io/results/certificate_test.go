package results_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
)

// TestCertificateFromWrittenPoints: every step's certificate in
// history.csv (complementarity gap, cone violation) is recomputed from
// what contacts.pvd writes of its units (the impulses, the velocities
// the law holds on, mu), on the colliding blocks and the pillar: the
// certificate is of the impulses the bodies took, not of another
// iterate.
func TestCertificateFromWrittenPoints(t *testing.T) {
	for _, name := range []string{"colliding-blocks", "pillar"} {
		data, err := examples.Scene(name)
		require.NoError(t, err)
		sc, err := scene.Decode(bytes.NewReader(data), name+".toml")
		require.NoError(t, err)
		model, err := sc.Model(scene.Variant{})
		require.NoError(t, err)
		sim, err := model.Simulation()
		require.NoError(t, err)
		checked := 0
		for k := 1; k <= 400; k++ {
			st, err := sim.Step()
			require.NoError(t, err)
			if st.Units == 0 {
				continue
			}
			g := results.ContactGrid(sim)
			f := map[string][]float64{}
			for _, fd := range g.PointData {
				f[fd.Name] = fd.Values
			}
			var gap, violation, largest float64
			for i := range f["mu"] {
				pn, pt, vn, vt, mu := f["impulse_normal"][i], f["impulse_tangential"][i], f["law_velocity_normal"][i], f["velocity_tangential"][i], f["mu"][i]
				gap += math.Abs(pn*vn) + math.Abs(pt*vt+mu*pn*math.Abs(vt))
				if pn != 0 || pt != 0 {
					violation = max(violation, -pn, math.Abs(pt)-mu*pn)
					largest = max(largest, math.Hypot(pn, pt))
				}
			}
			require.InDelta(t, st.Complementarity, gap, 1e-12*max(gap, 1e-30), "%s step %d: complementarity", name, k)
			if largest > 0 {
				require.InDelta(t, st.ConeViolation, violation/largest, 1e-15, "%s step %d: cone violation", name, k)
			}
			require.LessOrEqual(t, st.ConeViolation, 1e-14, "%s step %d: the impulses are in the cone", name, k)
			if st.Converged { // the pillar's velocity tolerance 1e-5 leaves up to 2e-4
				require.LessOrEqual(t, st.ComplementarityRel, 1e-3, "%s step %d: a converged step's gap", name, k)
			}
			checked++
		}
		assert.Greater(t, checked, 100, name)
	}
}
