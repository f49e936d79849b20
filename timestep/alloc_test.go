package timestep

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGranularStepAllocatesLittle: once its storage has grown, a step of
// a deposit allocates next to nothing, whatever its number of contacts:
// the units, their entries, W, the warm start and the solve reuse the last
// step's storage (a fresh slice of the units at the detection and about
// the predicted end was 15 % of a 1 000-disk step, with its collection).
func TestGranularStepAllocatesLittle(t *testing.T) {
	s := depositSim(t, 300)
	for range 50 {
		_, err := s.Step()
		require.NoError(t, err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		_, err := s.Step()
		require.NoError(t, err)
	})
	t.Logf("%.1f allocations a step, %d contacts", allocs, len(s.Contacts()))
	assert.Less(t, allocs, 1.0)
}
