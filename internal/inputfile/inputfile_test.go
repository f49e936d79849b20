package inputfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadFile: a device, a folder or a file over the cap is refused by
// name before it is read; a stream is cut at the cap.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.toml"), filepath.Join(dir, "big.toml")
	require.NoError(t, os.WriteFile(small, []byte("h = 1"), 0o644))
	require.NoError(t, os.WriteFile(big, make([]byte, 101), 0o644))
	data, err := ReadFile(small, 100, "scene")
	require.NoError(t, err)
	require.Equal(t, "h = 1", string(data))
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: a device, not a file: expected scene"},
		{dir, dir + ": a folder, not a file: expected scene"},
		{big, big + ": 101 bytes, more than the 100 a scene may have"},
	} {
		_, err := ReadFile(tc.path, 100, "scene")
		require.EqualError(t, err, tc.want)
	}
	_, err = Read(strings.NewReader(strings.Repeat("x", 1000)), "stdin", 100, "scene")
	require.EqualError(t, err, "stdin: more than the 100 bytes a scene may have")
}
