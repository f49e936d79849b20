package results

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCellsAreFmts: a history row's values are, byte for byte, what
// fmt's %.*g and %d wrote before (history.csv must not move with how it
// is written): infinities, NaN, signed zeros, subnormals, round-off and
// values on the edge of %g's switch to exponents, to every digit count.
func TestCellsAreFmts(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1.0 / 3, -2.5e-7, 9.9999999999999e-5, 1e-4, 99999.95,
		123456789012, 1e21, -8.4e-21, 5e-324, math.SmallestNonzeroFloat64 * 3, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 0.4000000000000001, 1.2186e-12}
	for digits := 0; digits <= 17; digits++ {
		for _, v := range values {
			require.Equal(t, fmt.Sprintf(",%.*g", digits, v), string(cells(nil).g(v, digits)), "%v to %d digits", v, digits)
		}
	}
	for _, n := range []int{0, 7, -3, math.MaxInt, math.MinInt} {
		require.Equal(t, fmt.Sprintf(",%d", n), string(cells(nil).d(n)))
	}
	require.Equal(t, fmt.Sprintf(",%.9g,%.9g,%d", -1.5, math.Pi, 4), string(cells(nil).force([2]float64{-1.5, math.Pi}, 4)))
	require.True(t, strings.HasPrefix(string(cells([]byte("7")).g(1, 3)), "7,1"), "appends")
}
