package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usersFolder is a folder of a user's files whose names look like
// fecontact's, each holding its own name.
func usersFolder(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	files := []string{"state.json", "bodies_final_00001.vtu", ".x.tmp", ".thesis.tmp.tex", "history.csv", "slurm/notes",
		"variant_001_notes/a", "variant_0010_draft/b", "contact_99.png", "notes.txt"}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(f), 0o644))
	}
	sort.Strings(files)
	return dir, files
}

// userFiles lists what is in dir but fecontact's own marker and lock,
// checking each file still holds its name.
func userFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, rel, string(data), "%s was written over", rel)
		out = append(out, rel)
		return nil
	})
	sort.Strings(out)
	return out
}

// TestUsersFolderUntouched: run, example, sweep and explore into a folder
// of a user's files are refused with what to do, and touch nothing in it;
// with --overwrite they write among those files (replacing the one that
// has the name of a file they write, history.csv) and remove none.
func TestUsersFolderUntouched(t *testing.T) {
	bar := writeBar(t, t.TempDir())
	for _, args := range [][]string{
		{"run", bar, "--steps", "20"},
		{"example", "klarbring", "--steps", "20"},
		{"sweep", bar, "--set", "time.h=1e-6|2e-6", "--jobs", "1"},
		{"explore", "disks-28", "--solutions", "2"},
	} {
		dir, files := usersFolder(t)
		code, _, stderr := fecontact(append(args, "-o", dir)...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, stderr, "output folder "+dir+" holds files that fecontact did not write", "%v", args)
		assert.Contains(t, stderr, "give another folder (-o), or --overwrite", "%v", args)
		assert.Equal(t, files, userFiles(t, dir), "%v", args)
	}
	if testing.Short() {
		return
	}
	dir, files := usersFolder(t)
	code, stdout, stderr := fecontact("run", bar, "--steps", "20", "--overwrite", "-o", dir)
	require.Equal(t, 0, code, stdout+stderr)
	code, stdout, stderr = fecontact("run", bar, "--steps", "20", "-o", dir)
	require.Equal(t, 0, code, "the folder is fecontact's now: %s", stdout+stderr)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		require.NoError(t, err, "%s was removed", f)
		if f != "history.csv" {
			assert.Equal(t, f, string(data))
		}
	}
	assert.FileExists(t, filepath.Join(dir, "bodies.pvd"))
}

// TestFolderInUse: a second run into a folder that a run is writing is
// refused at once, naming the run that holds it, and leaves its files
// alone; resuming the first while it runs is refused too.
func TestFolderInUse(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of a few seconds")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "example", "pillar", "-o", dir)
	cmd.Env = append(os.Environ(), "FECONTACT_AS_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	buf := make([]byte, 4096)
	_, err = stdout.Read(buf) // its first line: the folder is taken
	require.NoError(t, err)
	for _, args := range [][]string{{"example", "pillar", "-o", dir}, {"run", "--resume", dir}} {
		code, _, stderr := fecontact(args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, stderr, "output folder "+dir+" is in use by fecontact example pillar -o "+dir+" (process ", "%v", args)
		assert.Contains(t, stderr, "wait for it to end, or give another folder")
	}
	assert.FileExists(t, filepath.Join(dir, "history.csv.partial"), "the first run's history is there")

	// The lock file removed (it looks stale: it names a process): still
	// refused, and the first run ends complete.
	require.NoError(t, os.Remove(filepath.Join(dir, ".fecontact.lock")))
	code, _, stderr := fecontact("example", "pillar", "--overwrite", "-o", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "output folder "+dir+" is in use by another fecontact command")
	io.Copy(io.Discard, stdout)
	require.NoError(t, cmd.Wait(), "the first run")
	assert.FileExists(t, filepath.Join(dir, "summary.txt"))
	assert.NoFileExists(t, filepath.Join(dir, "history.csv.partial"))
	pvd, err := os.ReadFile(filepath.Join(dir, "rigid.pvd"))
	require.NoError(t, err)
	pieces := regexp.MustCompile(`file="([^"]+)"`).FindAllStringSubmatch(string(pvd), -1)
	require.NotEmpty(t, pieces)
	for _, p := range pieces {
		assert.FileExists(t, filepath.Join(dir, p[1]), "a piece the collection lists")
	}
}

// TestHostileFolderLinks: a folder received from someone else, holding a
// symbolic link to the user's run folder that its marker lists as
// fecontact's: run -o, --overwrite, sweep -o, explore -o and a resume are
// refused naming the link, and the user's folder is byte-identical after
// each (today's code removed it, exit status 0).
func TestHostileFolderLinks(t *testing.T) {
	bar := writeBar(t, t.TempDir())
	users, files := usersFolder(t)
	for _, command := range [][]string{
		{"run", bar, "--steps", "5"},
		{"run", bar, "--steps", "5", "--overwrite"},
		{"sweep", bar, "--set", "time.h=1e-6|2e-6", "--jobs", "1"},
		{"explore", "disks-28", "--solutions", "2"},
		{"resume"},
	} {
		for _, line := range []string{"d link", "o link/history.csv", "o link/.x.tmp"} {
			dir := t.TempDir()
			require.NoError(t, os.Symlink(users, filepath.Join(dir, "link")))
			marker := "fecontact output folder\nkind " + command[0] + "\n" + line + "\n"
			args := append(slices.Clone(command), "-o", dir)
			if command[0] == "resume" {
				marker = "fecontact output folder\nkind run\n" + line + "\n"
				args = []string{"run", "--resume", dir}
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".fecontact"), []byte(marker), 0o644))
			code, _, stderr := fecontact(args...)
			assert.NotEqual(t, 0, code, "%v", args)
			assert.Contains(t, stderr, filepath.Join(dir, "link")+": a symbolic link where fecontact made a folder: nothing was removed", "%v %s", args, line)
			assert.Equal(t, files, userFiles(t, users), "%v %s", args, line)
		}
	}
}

// TestExampleSceneKeepsEdits: writing an example's scene into a folder
// that holds a scene.toml (edited since) is refused unless --overwrite.
func TestExampleSceneKeepsEdits(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := fecontact("example", "klarbring", "--scene", dir)
	require.Equal(t, 0, code, stderr)
	scene := filepath.Join(dir, "scene.toml")
	require.NoError(t, os.WriteFile(scene, []byte("# my edits\n"), 0o644))
	code, _, stderr = fecontact("example", "klarbring", "--scene", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, scene+" exists: --overwrite to replace it with the example's, or another --scene folder")
	data, _ := os.ReadFile(scene)
	assert.Equal(t, "# my edits\n", string(data))
	code, _, stderr = fecontact("example", "klarbring", "--scene", dir, "--overwrite")
	require.Equal(t, 0, code, stderr)
	data, _ = os.ReadFile(scene)
	assert.NotEqual(t, "# my edits\n", string(data))
}

// TestSpecialInputs: every file a command reads that could be special (a
// device, a named pipe) is refused by name at once, never read for ever;
// outputs never replace a device or follow a link; a history whose
// values overflow an axis is refused, not laid out for ever.
func TestSpecialInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	run := filepath.Join(dir, "run")
	code, _, stderr := fecontact("example", "klarbring", "--steps", "10", "--quiet", "-o", run)
	require.Equal(t, 0, code, stderr)
	huge := filepath.Join(dir, "huge.csv")
	require.NoError(t, os.WriteFile(huge, []byte("time [s],x [m]\n0,1e308\n1,-1e308\n"), 0o644))
	link := filepath.Join(dir, "link.png")
	precious := filepath.Join(dir, "precious.png")
	require.NoError(t, os.WriteFile(precious, []byte("mine"), 0o644))
	require.NoError(t, os.Symlink(precious, link))
	replace := func(name, target string) {
		p := filepath.Join(run, name)
		require.NoError(t, os.Remove(p))
		require.NoError(t, os.Symlink(target, p))
	}
	for _, tc := range []struct {
		args  []string
		setup func()
		want  string
	}{
		{[]string{"plot", "x", "/dev/zero", "-o", filepath.Join(dir, "p.png")}, nil, "/dev/zero: a device, not a file: expected history"},
		{[]string{"plot", "x", fifo, "-o", filepath.Join(dir, "p.png")}, nil, fifo + ": a named pipe, not a file"},
		{[]string{"plot", "x [m]", huge, "-o", filepath.Join(dir, "p.png")}, nil, "values from -1e+308 to 1e+308, a range no picture can lay out"},
		{[]string{"plot", "kinetic", run, "-o", "/dev/null"}, nil, "/dev/null: a device, not a file: fecontact replaces only files"},
		{[]string{"plot", "kinetic", run, "-o", link}, nil, link + ": a symbolic link, not a file"},
		{[]string{"mesh", fifo}, nil, fifo + ": a named pipe, not a file: expected Gmsh mesh"},
		{[]string{"solve", fifo}, nil, fifo + ": a named pipe, not a file: expected contact problem"},
		{[]string{"sweep", "run", dir, "1"}, func() { require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "sweep.json"))) }, "sweep.json: a device, not a file: expected sweep manifest"},
		{[]string{"run", "--resume", run}, func() { replace("scene-as-run.toml", fifo) }, "scene-as-run.toml: a named pipe, not a file"},
		{[]string{"run", "--resume", run}, func() { replace("checkpoint.gob", "/dev/zero") }, "checkpoint.gob: a device, not a file: expected checkpoint"},
	} {
		if tc.setup != nil {
			tc.setup()
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			code, _, stderr := fecontact(tc.args...)
			assert.NotEqual(t, 0, code, "%v", tc.args)
			assert.Contains(t, stderr, tc.want, "%v", tc.args)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: still reading after 20 s", tc.args)
		}
	}
	data, _ := os.ReadFile(precious)
	assert.Equal(t, "mine", string(data), "the link's target")
	fi, err := os.Lstat("/dev/null")
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeDevice)
}
