package outdir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// write lists name in f and writes it.
func write(t *testing.T, f *Folder, name string) {
	t.Helper()
	p, err := f.Path(name)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, []byte(name), 0o644))
}

// names lists dir's entries but the marker and the lock.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		if e.Name() != MarkerFile && e.Name() != LockFile {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// TestCreateRemovesOnlyWhatItWrote: a new output in a folder fecontact
// made removes exactly what the earlier one listed (and the temporaries
// of its interrupted writes); a user's notes, drafts, a thesis's
// temporary, folders of names like fecontact's and a file replaced by a
// link stay.
func TestCreateRemovesOnlyWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	f, n, err := Create(dir, "run", Options{})
	require.NoError(t, err)
	assert.Zero(t, n)
	write(t, f, "history.csv")
	write(t, f, "bodies_a_00001.vtu")
	write(t, f, "gone.vtu") // listed, then removed by the user: no error
	require.NoError(t, os.Remove(filepath.Join(dir, "gone.vtu")))
	write(t, f, "linked.png") // replaced by the user with a link to their file
	require.NoError(t, f.Close())

	user := map[string]string{"state.json": "a user's state", "bodies_final_00001.vtu": "theirs", ".thesis.tmp.tex": "draft",
		".x.tmp": "x", "notes.txt": "notes", ".history.csv.tmp123": "a kill's temporary"}
	for name, text := range user {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "variant_001_notes"), 0o755))
	outside := filepath.Join(t.TempDir(), "precious")
	require.NoError(t, os.WriteFile(outside, []byte("precious"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "linked.png")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "linked.png")))

	f, n, err = Create(dir, "run", Options{})
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, 3, n, "history.csv, its temporary, the piece")
	assert.Equal(t, []string{".thesis.tmp.tex", ".x.tmp", "bodies_final_00001.vtu", "linked.png", "notes.txt", "state.json", "variant_001_notes"}, names(t, dir))
	data, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "precious", string(data))
	assert.False(t, f.Listed("history.csv"), "a new output lists afresh")
}

// TestCreateRefuses: a folder of a user's files, a file where the folder
// should be, another command's folder, a damaged marker: each refused by
// name with what to do, and nothing in it touched.
func TestCreateRefuses(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "history.csv"), []byte("mine too"), 0o644))
	_, _, err := Create(dir, "run", Options{})
	assert.EqualError(t, err, "output folder "+dir+` holds files that fecontact did not write ("history.csv" and 1 more): give another folder (-o), or --overwrite to write into it anyway (files of the names fecontact writes are replaced, the others stay)`)
	assert.Equal(t, []string{"history.csv", "notes.txt"}, names(t, dir))
	_, err = os.Stat(filepath.Join(dir, LockFile))
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused folder is not even locked")

	file := filepath.Join(dir, "notes.txt")
	_, _, err = Create(file, "run", Options{})
	assert.EqualError(t, err, "output folder "+file+": a file, not a folder: give a folder for the outputs")

	sweep := t.TempDir()
	s, _, err := Create(sweep, "sweep", Options{})
	require.NoError(t, err)
	write(t, s, "sweep.csv")
	require.NoError(t, s.Close())
	_, _, err = Create(sweep, "run", Options{})
	assert.EqualError(t, err, sweep+" holds the outputs of a fecontact sweep, which a run there would remove: give another folder, or --overwrite to write among them")

	bad := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bad, MarkerFile), []byte("fecontact output folder\nkind run\no ../../etc/passwd\n"), 0o644))
	_, _, err = Create(bad, "run", Options{})
	assert.ErrorContains(t, err, filepath.Join(bad, MarkerFile)+` line 3: output "../../etc/passwd": expected a name inside the folder, which fecontact never lists: nothing was removed`)
}

// TestHostileMarker: a folder received from someone else whose marker
// lists names through a symbolic link to a user's folder (the link inside
// the folder), absolute names, "..", the folder itself, a newline: Create
// and Reopen refuse it naming the line or the link, and the user's folder
// is byte-identical afterwards. (Through the link, today's code removed
// the user's run folder.)
func TestHostileMarker(t *testing.T) {
	users := t.TempDir()
	for _, n := range []string{"history.csv", ".history.csv.tmp1", "x"} {
		require.NoError(t, os.WriteFile(filepath.Join(users, n), []byte("the user's "+n), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(users, "dir"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(users, "dir", "thesis.tex"), []byte("thesis"), 0o644))
	before := snapshot(t, users)
	for _, tc := range []struct{ name, line, want string }{
		{"file through a link", "o link/x", "link: a symbolic link where fecontact made a folder: nothing was removed"},
		{"temporary through a link", "o link/history.csv", "link: a symbolic link where fecontact made a folder"},
		{"folder through a link", "d link/dir", "link: a symbolic link where fecontact made a folder"},
		{"a link as a folder", "d link", "link: a symbolic link where fecontact made a folder"},
		{"absolute", "o " + users + "/x", "expected a name inside the folder"},
		{"dot dot", "o ../x", "expected a name inside the folder"},
		{"the folder itself", "d .", `output ".": the folder itself`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.Symlink(users, filepath.Join(dir, "link")))
			marker := "fecontact output folder\nkind run\no history.csv\n" + tc.line + "\n"
			require.NoError(t, os.WriteFile(filepath.Join(dir, MarkerFile), []byte(marker), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "history.csv"), []byte("ours"), 0o644))
			for _, o := range []Options{{}, {Overwrite: true}} {
				_, _, err := Create(dir, "run", o)
				assert.ErrorContains(t, err, tc.want)
			}
			_, err := Reopen(dir, "run", Options{})
			assert.ErrorContains(t, err, tc.want)
			assert.Equal(t, before, snapshot(t, users))
			assert.FileExists(t, filepath.Join(dir, "history.csv"), "nothing removed, not even what is fecontact's")
		})
	}
}

// TestOwnFilesNotFollowed: fecontact's own files at names a hostile
// folder made links or hard links (the marker's temporary linked to a
// user's file, the lock a hard link to one) are replaced, never written
// through: the user's files keep their bytes.
func TestOwnFilesNotFollowed(t *testing.T) {
	users := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		require.NoError(t, os.WriteFile(filepath.Join(users, n), []byte("the user's "+n), 0o644))
	}
	before := snapshot(t, users)
	dir := t.TempDir()
	f, _, err := Create(dir, "run", Options{})
	require.NoError(t, err)
	write(t, f, "history.csv")
	require.NoError(t, f.Close())
	require.NoError(t, os.Symlink(filepath.Join(users, "a"), filepath.Join(dir, markerNew)))
	require.NoError(t, os.Remove(filepath.Join(dir, LockFile)))
	require.NoError(t, os.Link(filepath.Join(users, "b"), filepath.Join(dir, LockFile)))
	for range 2 {
		f, _, err = Create(dir, "run", Options{Command: "a command line longer than what the user's files hold"})
		require.NoError(t, err)
		write(t, f, "history.csv")
		require.NoError(t, f.Close())
	}
	assert.Equal(t, before, snapshot(t, users))
	fi, err := os.Lstat(filepath.Join(dir, MarkerFile))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "the marker is a file of its own, not the link")

	// A marker that is a link is refused, not read or appended to.
	link := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(dir, MarkerFile), filepath.Join(link, MarkerFile)))
	_, err = Reopen(link, "run", Options{})
	assert.ErrorContains(t, err, "a symbolic link, not fecontact's list of the files it wrote")
}

// TestLeftoverMarkerTemporary: a folder that holds only fecontact's own
// half-written marker (a full disk killed its rename) is taken, not
// refused as the user's.
func TestLeftoverMarkerTemporary(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, markerNew), []byte("fecontact output folder\nkind ru"), 0o644))
	f, _, err := Create(dir, "run", Options{})
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// TestLockFileRemovedMidRun: the lock file removed (or replaced) while a
// command holds the folder does not let a second command in: the lock is
// on the folder itself.
func TestLockFileRemovedMidRun(t *testing.T) {
	dir := t.TempDir()
	f, _, err := Create(dir, "run", Options{Command: "the first"})
	require.NoError(t, err)
	defer f.Close()
	write(t, f, "history.csv")
	require.NoError(t, os.Remove(filepath.Join(dir, LockFile)))
	_, _, err = Create(dir, "run", Options{})
	require.ErrorIs(t, err, ErrInUse)
	_, err = Reopen(dir, "run", Options{})
	require.ErrorIs(t, err, ErrInUse)
	require.NoError(t, os.WriteFile(filepath.Join(dir, LockFile), []byte("stale"), 0o644))
	_, _, err = Create(dir, "run", Options{Overwrite: true})
	require.ErrorIs(t, err, ErrInUse)
	assert.FileExists(t, filepath.Join(dir, "history.csv"), "the first command's files stay")
}

// snapshot is every file under dir with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	}))
	return out
}

// TestOverwrite writes among a user's files and removes none of them.
func TestOverwrite(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	f, n, err := Create(dir, "run", Options{Overwrite: true})
	require.NoError(t, err)
	assert.Zero(t, n)
	write(t, f, "history.csv")
	require.NoError(t, f.Close())
	f, n, err = Create(dir, "run", Options{})
	require.NoError(t, err, "the folder is fecontact's now")
	assert.Equal(t, 1, n)
	require.NoError(t, f.Close())
	assert.Equal(t, []string{"notes.txt"}, names(t, dir))

	// Another command's folder (a sweep's): Overwrite writes among its
	// outputs and removes none (it removed the whole sweep).
	sweep := t.TempDir()
	s, _, err := Create(sweep, "sweep", Options{})
	require.NoError(t, err)
	write(t, s, "sweep.csv")
	_, err = s.Sub("variant_001")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	f, n, err = Create(sweep, "run", Options{Overwrite: true})
	require.NoError(t, err)
	assert.Zero(t, n)
	write(t, f, "history.csv")
	require.NoError(t, f.Close())
	assert.Equal(t, []string{"history.csv", "sweep.csv", "variant_001"}, names(t, sweep))
}

// TestLock: a second command into a folder in use is refused at once,
// naming the first; once the first ends, the second goes ahead. Reopen
// (a resume) keeps what is listed and removes nothing.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	f, _, err := Create(dir, "run", Options{Command: "fecontact run pillar -o " + dir})
	require.NoError(t, err)
	write(t, f, "history.csv")
	_, _, err = Create(dir, "run", Options{})
	require.ErrorIs(t, err, ErrInUse)
	assert.ErrorContains(t, err, "output folder "+dir+" is in use by fecontact run pillar -o "+dir+" (process ")
	_, err = Reopen(dir, "run", Options{})
	require.ErrorIs(t, err, ErrInUse)
	require.NoError(t, f.Close())

	r, err := Reopen(dir, "run", Options{})
	require.NoError(t, err)
	assert.True(t, r.Listed("history.csv"))
	assert.Equal(t, []string{"history.csv"}, r.Outputs())
	require.NoError(t, r.Close())
	assert.Equal(t, []string{"history.csv"}, names(t, dir))

	_, err = Reopen(t.TempDir(), "run", Options{})
	assert.ErrorContains(t, err, "no .fecontact in it: not a folder a fecontact run wrote")
}

// TestSubFolders: a sweep's variant folders, each a run's with a kept
// scene, are removed whole by the next sweep; one where the user left a
// file keeps it (and the folder). A run in a variant folder keeps its
// scene.
func TestSubFolders(t *testing.T) {
	dir := t.TempDir()
	s, _, err := Create(dir, "sweep", Options{})
	require.NoError(t, err)
	for _, v := range []string{"variant_001", "variant_002"} {
		sub, err := s.Sub(v)
		require.NoError(t, err)
		vf, _, err := Create(sub, "run", Options{})
		require.NoError(t, err)
		p, err := vf.Keep("scene.toml")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p, []byte("scene"), 0o644))
		require.NoError(t, vf.Close())

		run, _, err := Create(sub, "run", Options{})
		require.NoError(t, err)
		write(t, run, "history.csv")
		require.NoError(t, run.Close())
		run, n, err := Create(sub, "run", Options{})
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the run's history, not the variant's scene")
		assert.Equal(t, []string{"scene.toml"}, names(t, sub))
		write(t, run, "history.csv")
		require.NoError(t, run.Close())
	}
	_, err = s.Sub("../escape")
	assert.ErrorContains(t, err, `output "../escape": expected a name inside the folder`)
	require.NoError(t, s.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "variant_002", "mine.txt"), nil, 0o644))

	s, n, err := Create(dir, "sweep", Options{})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, 5, n, "two scenes, two histories, one folder")
	assert.Equal(t, []string{"variant_002"}, names(t, dir))
	assert.Equal(t, []string{"mine.txt"}, names(t, filepath.Join(dir, "variant_002")))
}

// TestConcurrentFolders: commands clearing their own folders at once
// (a sweep's variants) each remove their earlier output and nothing
// else, and share no memory (under -race).
func TestConcurrentFolders(t *testing.T) {
	dirs := make([]string, 4)
	for i := range dirs {
		dirs[i] = t.TempDir()
		f, _, err := Create(dirs[i], "run", Options{})
		require.NoError(t, err)
		write(t, f, "history.csv")
		write(t, f, "bodies_a_00001.vtu")
		require.NoError(t, f.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dirs[i], "notes.txt"), nil, 0o644))
	}
	var wg sync.WaitGroup
	for _, dir := range dirs {
		wg.Go(func() {
			f, n, err := Create(dir, "run", Options{})
			if assert.NoError(t, err) {
				assert.Equal(t, 2, n, dir)
				f.Close()
			}
		})
	}
	wg.Wait()
	for _, dir := range dirs {
		assert.Equal(t, []string{"notes.txt"}, names(t, dir))
	}
}

// TestReopenRemovesTemporaries: a folder reopened (a resumed run) loses
// the temporaries of its listed files' interrupted writes and nothing
// else: not a hidden file of the user's, not a listed file's
// temporary-like neighbour of another name.
func TestReopenRemovesTemporaries(t *testing.T) {
	dir := t.TempDir()
	f, _, err := Create(dir, "run", Options{})
	require.NoError(t, err)
	write(t, f, "history.csv")
	write(t, f, "a.vtu")
	require.NoError(t, f.Close())
	for _, n := range []string{".history.csv.tmp42", ".a.vtu.tmp", ".a.vtux.tmp1", ".b.vtu.tmp3", ".notes"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	g, err := Reopen(dir, "run", Options{})
	require.NoError(t, err)
	require.NoError(t, g.Close())
	assert.Equal(t, []string{".a.vtux.tmp1", ".b.vtu.tmp3", ".notes", "a.vtu", "history.csv"}, names(t, dir))
}

// BenchmarkReopen: reopening the folder of a long run (a resumed Slurm
// task) that lists 20 000 pieces. It read the folder once per listed
// file (a glob each: 25 s at 6 700 pieces); now once.
func BenchmarkReopen(b *testing.B) {
	dir := b.TempDir()
	f, _, err := Create(dir, "run", Options{})
	require.NoError(b, err)
	for i := range 20000 {
		p, err := f.Path(fmt.Sprintf("contacts_%05d.vtu", i))
		require.NoError(b, err)
		require.NoError(b, os.WriteFile(p, nil, 0o644))
	}
	require.NoError(b, f.Close())
	b.ResetTimer()
	for range b.N {
		g, err := Reopen(dir, "run", Options{})
		require.NoError(b, err)
		require.NoError(b, g.Close())
	}
}
