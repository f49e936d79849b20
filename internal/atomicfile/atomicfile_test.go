package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hello(w io.Writer) error {
	_, err := io.WriteString(w, "hello")
	return err
}

// TestWriteReplacesOnlyFiles: a new path and a regular file are written;
// a device, a folder or a symbolic link at the target is refused by name
// and left as it was (a PNG renamed over /dev/null or /dev/full, run as
// root, replaced the device), with no temporary left behind.
func TestWriteReplacesOnlyFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plot.png")
	require.NoError(t, Write(file, hello))
	require.NoError(t, Write(file, hello), "a file it wrote is replaced")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(data))

	target := filepath.Join(t.TempDir(), "thesis.tex")
	require.NoError(t, os.WriteFile(target, []byte("mine"), 0o644))
	link := filepath.Join(dir, "link.png")
	require.NoError(t, os.Symlink(target, link))
	folder := filepath.Join(dir, "folder.png")
	require.NoError(t, os.Mkdir(folder, 0o755))
	for _, tc := range []struct{ path, what string }{
		{"/dev/null", "a device"}, {"/dev/full", "a device"}, {link, "a symbolic link"}, {folder, "a folder"},
	} {
		err := Write(tc.path, hello)
		assert.EqualError(t, err, tc.path+": "+tc.what+", not a file: fecontact replaces only files; give another output path")
		_, err = Create(tc.path)
		assert.Error(t, err, tc.path)
		assert.Error(t, Rename(file, tc.path), tc.path)
	}
	fi, err := os.Lstat("/dev/null")
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeDevice, "/dev/null is still a device")
	data, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data), "the link's target is untouched")
	tmps, _ := filepath.Glob(filepath.Join(dir, ".*"))
	assert.Empty(t, tmps)
}
