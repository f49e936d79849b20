package results

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestColumnNames(t *testing.T) {
	header := []string{"step", "time [s]", "vx 0.5-1 s [m/s]", "odd [", "block_px [kg m/s per m]"}
	for _, tc := range []struct {
		name string
		want int
	}{
		{"step", 0}, {"time", 1}, {"time [s]", 1}, {"vx 0.5-1 s", 2}, {"odd [", 3}, {"odd", -1}, {"block_px", 4}, {"kinetic", -1},
	} {
		assert.Equal(t, tc.want, ColumnIndex(header, tc.name), tc.name)
	}
	assert.Equal(t, "kinetic [J]", column("kinetic", "J"))
	assert.Equal(t, "sweeps", column("sweeps", ""))
}

// TestReadColumnUnit: a column is read by its name, and its unit comes
// with it for the plot's axis.
func TestReadColumnUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.csv")
	require.NoError(t, os.WriteFile(path, []byte("step,time [s],gap [m],sweeps\n0,0,0.001,3\n1,0.1,0.002,4\n"), 0o644))
	s, err := ReadColumn(path, "gap")
	require.NoError(t, err)
	assert.Equal(t, "m", s.Unit)
	assert.Equal(t, []float64{0, 0.1}, s.T)
	assert.Equal(t, []float64{0.001, 0.002}, s.Y)
	s, err = ReadColumn(path, "sweeps")
	require.NoError(t, err)
	assert.Empty(t, s.Unit)
}
