package gallery

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWrite: the gallery of an example holds its run's pictures and a
// page that shows each, with the command that makes them and what the run
// printed; a second gallery replaces its own page; a page of the user's
// is refused, untouched.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gallery")
	require.NoError(t, Write(context.Background(), out, Options{Examples: []string{"point-impact"}}))
	page, err := os.ReadFile(out + ".md")
	require.NoError(t, err)
	text := string(page)
	assert.True(t, strings.HasPrefix(text, pageMark))
	assert.Contains(t, text, "## point-impact\n\nA point mass hitting a rough plane")
	assert.Contains(t, text, "    fecontact example point-impact\n")
	assert.Contains(t, text, "    certificate: ")
	for _, pic := range []string{"point-impact-bodies.png", "point-impact-energy.png"} {
		assert.FileExists(t, filepath.Join(out, pic))
		assert.Contains(t, text, "(gallery/"+pic+")")
	}
	require.NoError(t, Write(context.Background(), out, Options{Examples: []string{"point-impact"}}), "its own page again")

	mine := filepath.Join(dir, "notes")
	require.NoError(t, os.WriteFile(mine+".md", []byte("my notes\n"), 0o644))
	err = Write(context.Background(), mine, Options{Examples: []string{"point-impact"}})
	require.ErrorContains(t, err, "notes.md exists and is not a page fecontact gallery wrote")
	kept, _ := os.ReadFile(mine + ".md")
	assert.Equal(t, "my notes\n", string(kept))
	assert.NoDirExists(t, mine)
}
