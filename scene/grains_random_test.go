package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRandomGrains: [[grains]] placed at random (random sequential
// addition) to a count or to a solid fraction: no two grains' circles
// overlap and none leaves the region, the radii follow the asked uniform
// distribution (mean and spread), the fraction is reached, the same seed
// gives the same sample to the bit and another seed another; more than
// fits is refused with how many did.
func TestRandomGrains(t *testing.T) {
	sample := func(edit string) ([][3]float64, float64) {
		text := rigidMinimal + "\n[[grains]]\nname = \"g\"\nshape = \"disk\"\nradius = [0.004, 0.008]\nregion = [[0.0, 1.0], [0.3, 1.3]]\nrho = 1000\nplacement = \"random\"\n" + edit + "\n"
		sc, err := Decode(strings.NewReader(text), "random.toml")
		require.NoError(t, err)
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		var out [][3]float64
		var area float64
		for _, b := range m.Rigid.Bodies[2:] {
			out = append(out, [3]float64{b.Q[0], b.Q[1], b.Shape.Radius()})
			area += b.Shape.Area()
		}
		return out, area / 0.09
	}
	for _, edit := range []string{"count = 300\nseed = 7", "solid_fraction = 0.35\nseed = 7"} {
		grains, fraction := sample(edit)
		var mean, sq float64
		for i, a := range grains {
			assert.True(t, a[0]-a[2] >= 0 && a[0]+a[2] <= 0.3 && a[1]-a[2] >= 1 && a[1]+a[2] <= 1.3, "%s: grain %d inside the region", edit, i+1)
			for _, b := range grains[i+1:] {
				require.GreaterOrEqual(t, math.Hypot(a[0]-b[0], a[1]-b[1]), a[2]+b[2], "%s: no overlap", edit)
			}
			mean += a[2]
			sq += a[2] * a[2]
		}
		n := float64(len(grains))
		mean /= n
		sd := math.Sqrt(sq/n - mean*mean)
		assert.InDelta(t, 0.006, mean, 0.0003, "%s: mean radius of uniform [4, 8] mm", edit)
		assert.InDelta(t, 0.004/math.Sqrt(12), sd, 0.0002, "%s: its spread", edit)
		if strings.HasPrefix(edit, "solid") {
			assert.InDelta(t, 0.35, fraction, 0.002, "the solid fraction asked")
		} else {
			assert.Len(t, grains, 300)
		}
		again, _ := sample(edit)
		assert.Equal(t, grains, again, "%s: the same seed, the same sample", edit)
		other, _ := sample(strings.Replace(edit, "seed = 7", "seed = 8", 1))
		assert.NotEqual(t, grains[0], other[0], "another seed, another sample")
	}
	text := rigidMinimal + "\n[[grains]]\nname = \"g\"\nshape = \"disk\"\nradius = [0.004, 0.008]\nregion = [[0.0, 1.0], [0.3, 1.3]]\nrho = 1000\nplacement = \"random\"\ncount = 5000\n"
	sc, err := Decode(strings.NewReader(text), "full.toml")
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, "fit in the region by random addition: enlarge the region, or lower count or solid_fraction")
	_, err = Decode(strings.NewReader(strings.Replace(text, "count = 5000", "solid_fraction = 0.9", 1)), "dense.toml")
	assert.ErrorContains(t, err, "solid_fraction = 0.9: expected a fraction in (0, 0.55)")
	_, err = Decode(strings.NewReader(strings.Replace(text, "region = [[0.0, 1.0], [0.3, 1.3]]", "region = [[0.0, 1.0], [0.01, 1.3]]", 1)), "narrow.toml")
	assert.ErrorContains(t, err, "expected a region at least a grain across (2 x 0.008 m) each way")
	// A fraction of a huge region in tiny grains: refused at the bound,
	// not a billion grains.
	huge := strings.Replace(strings.Replace(text, "count = 5000", "solid_fraction = 0.3", 1), "region = [[0.0, 1.0], [0.3, 1.3]]", "region = [[0.0, 1.0], [1e4, 1e4]]", 1)
	sc, err = Decode(strings.NewReader(huge), "huge.toml")
	require.NoError(t, err)
	_, err = sc.Model(Variant{})
	assert.ErrorContains(t, err, "takes more than 1000000 grains")
}
