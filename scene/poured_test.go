package scene

import (
	"math"
	"slices"
	"testing"

	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/timestep"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkPouredSample checks the poured-sample example as it is built and
// over its first steps (TestExamples): 400 disks inside their region,
// none overlapping another, their radii uniform from 3 to 6 mm (the
// empirical distribution within the Kolmogorov-Smirnov bound of 95 %,
// 1.36/sqrt(400), of the asked one, and its quartiles within that of
// 3.75, 4.5 and 5.25 mm), the same sample to the bit when built again;
// then pouring for 0.2 s (0.1 s with -short), no grain leaves the box and
// contact never creates energy. The settled sample's solid fraction is
// the long tier's (cmd/fecontact, TestPouredSampleSettles).
func checkPouredSample(t *testing.T, m *Model, sim *timestep.Simulation) {
	const lo, hi, n = 0.003, 0.006, 400
	grains := pouredGrains(m.Rigid)
	require.Len(t, grains, n)
	radii := make([]float64, n)
	for i, g := range grains {
		r := g.Shape.(rigid.Disk).R
		radii[i] = r
		assert.True(t, g.Q[0]-r >= 0 && g.Q[0]+r <= 0.2 && g.Q[1]-r >= 0.1 && g.Q[1]+r <= 0.55, "%s inside its region", g.Name)
		for _, o := range grains[:i] {
			assert.GreaterOrEqual(t, math.Hypot(g.Q[0]-o.Q[0], g.Q[1]-o.Q[1]), r+o.Shape.(rigid.Disk).R, "%s clear of %s", g.Name, o.Name)
		}
	}
	slices.Sort(radii)
	ks := 1.36 / math.Sqrt(n)
	var worst float64
	for i, r := range radii {
		f := (r - lo) / (hi - lo) // the asked distribution's CDF
		worst = max(worst, math.Abs(float64(i+1)/n-f), math.Abs(float64(i)/n-f))
	}
	assert.Less(t, worst, ks, "the radii's distribution is the asked uniform one")
	for k, want := range []float64{0.00375, 0.0045, 0.00525} {
		assert.InDelta(t, want, radii[(k+1)*n/4], ks*(hi-lo), "quartile %d", k+1)
	}
	again := exampleModel(t, "poured-sample")
	for i, g := range pouredGrains(again.Rigid) {
		require.Equal(t, grains[i].Q, g.Q, "the same seed, the same sample")
		require.Equal(t, grains[i].Shape, g.Shape)
	}
	steps := 1000
	if testing.Short() {
		steps = 500
	}
	e0 := sim.TotalEnergy().Balance()
	for i := range steps {
		_, err := sim.Step()
		require.NoError(t, err)
		require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9, "step %d", i+1)
	}
	for _, g := range grains {
		assert.True(t, g.Q[0] > 0 && g.Q[0] < 0.2 && g.Q[1] > 0, "%s in the box at (%g, %g)", g.Name, g.Q[0], g.Q[1])
	}
}

// pouredGrains are the example's grains (group "grains").
func pouredGrains(sys *rigid.System) []*rigid.Body {
	var out []*rigid.Body
	for _, b := range sys.Bodies {
		if b.Group == "grains" {
			out = append(out, b)
		}
	}
	return out
}
