package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/internal/vtkcheck"
	"github.com/fecontact/fecontact/io/outdir"
)

// TestMain lets a test run this binary as the fecontact command (with
// FECONTACT_AS_MAIN set), so that it can be sent signals.
func TestMain(m *testing.M) {
	if os.Getenv("FECONTACT_AS_MAIN") == "1" {
		os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestKilledRun interrupts runs with SIGINT at moments from set-up to the
// end: each leaves a folder whose .pvd files VTK opens, whose every listed
// piece exists, whose history.csv is complete up to the step summary.txt
// names, and no temporary file. A rerun into the same folder clears the
// older pieces.
func TestKilledRun(t *testing.T) {
	killedRuns(t, 750, []string{"bodies.pvd", "contacts.pvd"}, "example", "colliding-blocks", "--every", "25",
		at(""), at("step 75/"), at("step 225/"), at("step 450/"), at("step 675/"))
}

// TestKilledPointRun: the same for a run of point masses and springs
// (the klarbring example: masses.pvd, springs.pvd, the point contact's
// columns in history.csv).
func TestKilledPointRun(t *testing.T) {
	if testing.Short() {
		t.Skip("TestKilledRun interrupts a run in the short suite")
	}
	killedRuns(t, 20000, []string{"masses.pvd", "springs.pvd"}, "example", "klarbring", "--every", "500",
		at(""), at("step 2000/"), at("step 8000/"), at("step 16000/"))
}

// moment is when a kill test signals: once the command has printed a
// line that holds the text (its first line for ""), the handler long
// installed; a signal before it would find the Go runtime's default. The
// test waits on the command's own progress, not on a clock.
type moment string

// at is the moment after the line that holds text.
func at(text string) moment { return moment(text) }

// killedRuns interrupts the run of args (whose scene has steps steps) at
// each moment and checks what it leaves, and that the .pvd files named
// list every piece.
func killedRuns(t *testing.T, steps int, pvds []string, args ...any) {
	t.Helper()
	dir := t.TempDir()
	var cmd []string
	var delays []moment
	for _, a := range args {
		switch a := a.(type) {
		case string:
			cmd = append(cmd, a)
		case moment:
			delays = append(delays, a)
		}
	}
	// Not --quiet: its first line would be the summary, after the run
	// has given the signals back their default action, and a SIGINT at
	// delay 0 killed the ended process outright (status -1) once in CI.
	cmd = append(cmd, "-o", dir)
	for _, delay := range delays {
		// The first line comes once the run has begun, the handler long
		// installed: a signal before it would find the Go runtime's default.
		code, stderr, _ := interrupt(t, delay, false, cmd...)
		require.Contains(t, []int{0, 130}, code, "delay %v: %s", delay, stderr)
		summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
		require.NoError(t, err, "delay %v", delay)
		done := steps
		if code == 130 {
			assert.Contains(t, stderr, "interrupted after step")
			require.Contains(t, string(summary), "INTERRUPTED after step")
			done = atoiPrefix(t, strings.TrimPrefix(string(summary), "INTERRUPTED after step "))
		}
		hist := readCSV(t, filepath.Join(dir, "history.csv"))
		assert.Len(t, hist, done+2, "delay %v: header, the initial state and one row per step", delay)
		tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*"))
		assert.Empty(t, tmp, "no temporary file")
		for _, pvd := range pvds {
			pieces := vtkcheck.Read(t, filepath.Join(dir, pvd))
			for _, p := range pieces {
				assert.Zero(t, p.Errors, p.File)
			}
			all, _ := filepath.Glob(filepath.Join(dir, strings.TrimSuffix(pvd, ".pvd")+"_*.vtu"))
			assert.Len(t, all, len(pieces), "delay %v: %s lists every piece in the folder, no stale one", delay, pvd)
		}
	}
}

func atoiPrefix(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	require.Positive(t, n, s)
	return n
}

func readCSV(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err, path)
	return rows
}

// interrupt starts fecontact with args, waits for the line of its output
// that holds when (any for ""), sends SIGINT and, with again, a second one
// once it has said it stops (interruptNotice), and returns the exit code
// (-1 for a process killed by the signal), stderr and how long it took to
// end after the first signal. A command that ends before the line is
// not signalled.
func interrupt(t *testing.T, when moment, again bool, args ...string) (int, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FECONTACT_AS_MAIN=1")
	stderrLines, stderr := lines(t, cmd.StderrPipe)
	stdout, _ := lines(t, cmd.StdoutPipe)
	require.NoError(t, cmd.Start())
	sent := time.Now()
	if waitFor(stdout, string(when)) {
		require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
		sent = time.Now()
		if again && waitFor(stderrLines, interruptNotice) {
			_ = cmd.Process.Signal(syscall.SIGINT) // it may have ended already
		}
	}
	// Every line read before Wait, which closes the pipes once the
	// process has exited: a last line still unread was lost (CI once saw
	// status 130 without the "interrupted after step" line).
	drainAll(stdout, stderrLines)
	err := cmd.Wait()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	}
	return code, stderr.String(), time.Since(sent)
}

// lines reads a command's output pipe line by line into a channel (closed
// at its end) and a copy of the whole.
func lines(t *testing.T, pipe func() (io.ReadCloser, error)) (<-chan string, *syncBuilder) {
	t.Helper()
	r, err := pipe()
	require.NoError(t, err)
	ch, all := make(chan string, 1024), &syncBuilder{}
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			all.add(sc.Text() + "\n")
			ch <- sc.Text()
		}
	}()
	return ch, all
}

// waitFor reads lines until one holds text, and reports whether one did.
func waitFor(lines <-chan string, text string) bool {
	for l := range lines {
		if strings.Contains(l, text) {
			return true
		}
	}
	return false
}

// drainAll reads the channels to their ends (the pipes' ends: the
// process has exited), together, so that neither pipe fills.
func drainAll(chans ...<-chan string) {
	var wg sync.WaitGroup
	for _, ch := range chans {
		wg.Go(func() {
			for range ch {
			}
		})
	}
	wg.Wait()
}

// syncBuilder is a strings.Builder that a reading goroutine fills.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) add(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(text)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestKilledExplore interrupts explore (running disks-28 to its end, then
// surveying it) at moments from the scene's run to the files' writing:
// it ends with status 130 saying that nothing was surveyed or written, or
// completes; the folder holds the whole set of a survey or none of it
// (an earlier survey's files are cleared first), and no temporary file.
// A second SIGINT kills it at once.
func TestKilledExplore(t *testing.T) {
	if testing.Short() {
		t.Skip("explore runs of a few seconds")
	}
	dir := t.TempDir()
	// An earlier survey's contact picture that this one does not draw.
	earlier(t, dir, "explore", "contact_99.png")
	// At its start, during the run to the deposit, and during the survey.
	for _, delay := range []moment{at(""), at("step: 1500/"), at("contacts, 31 bodies")} {
		code, stderr, _ := interrupt(t, delay, false, "explore", "disks-28", "--solutions", "20", "-o", dir)
		require.Contains(t, []int{0, 130}, code, "delay %v: %s", delay, stderr)
		files, _ := filepath.Glob(filepath.Join(dir, "[^.]*"))
		if code == 130 {
			assert.Contains(t, stderr, "interrupted", "delay %v", delay)
			assert.Empty(t, files, "delay %v: no file of an unfinished survey, nor of the earlier one", delay)
		} else {
			assert.FileExists(t, filepath.Join(dir, "explore.txt"))
			assert.NoFileExists(t, filepath.Join(dir, "contact_99.png"), "the earlier survey's picture is cleared")
		}
		tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*"))
		assert.Empty(t, tmp, "delay %v: no temporary file", delay)
	}
	code, _, took := interrupt(t, at("step: 300/"), true, "explore", "disks-28", "--solutions", "20", "-o", dir)
	assert.Contains(t, []int{-1, 130}, code, "killed by the second SIGINT, or stopped by the first just before it")
	assert.Less(t, took, 2*time.Second, "a second SIGINT kills at once")
}

// TestKilledSweep interrupts a sweep of four bars: it ends with status
// 130 or completes; sweep.csv lists every variant, marking those that
// did not finish, no temporary file is left in its folder or a variant's,
// and a rerun into the same folder clears the earlier variants' folders.
func TestKilledSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep runs of a second or two")
	}
	dir := t.TempDir()
	sc := writeBar(t, dir)
	out := filepath.Join(dir, "sweep")
	earlier(t, out, "sweep", "variant_007/")
	for _, delay := range []moment{at(""), at("variant 1 (")} {
		code, stderr, _ := interrupt(t, delay, false, "sweep", sc, "--set", "body.bar.velocity=[-1,0]..[-4,0]", "--jobs", "1", "-o", out)
		require.Contains(t, []int{0, 130}, code, "delay %v: %s", delay, stderr)
		rows := readCSV(t, filepath.Join(out, "sweep.csv"))
		require.Len(t, rows, 5, "delay %v: a row per variant", delay)
		if code == 130 {
			assert.Contains(t, stderr, "variants did not finish (sweep.csv marks them)")
			assert.Contains(t, rows[4][len(rows[4])-1], "interrupted", "the last variant did not finish")
		}
		assert.NoDirExists(t, filepath.Join(out, "variant_007"), "the earlier sweep's folder is cleared")
		tmp, _ := filepath.Glob(filepath.Join(out, ".*.tmp*"))
		more, _ := filepath.Glob(filepath.Join(out, "variant_*", ".*.tmp*"))
		assert.Empty(t, append(tmp, more...), "delay %v: no temporary file", delay)
	}
}

// earlier makes dir the folder of an earlier fecontact command of the
// given kind that wrote the named files (a name ending in / a folder).
func earlier(t *testing.T, dir, kind string, names ...string) {
	t.Helper()
	f, _, err := outdir.Create(dir, kind, outdir.Options{})
	require.NoError(t, err)
	defer f.Close()
	for _, n := range names {
		if sub, ok := strings.CutSuffix(n, "/"); ok {
			_, err = f.Sub(sub)
			require.NoError(t, err)
			continue
		}
		p, err := f.Path(n)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
	}
}

// TestResumeAfterKill: runs killed at moments through them, by SIGKILL
// (with --checkpoint: a run loses what followed its last checkpoint, and
// a checkpoint's write may be cut short) and by SIGINT (which writes one
// at the step it stops after), then resumed with fecontact run --resume,
// write the same history.csv, .pvd files and pieces, byte for byte, as a
// run never stopped, and the same summary but for its timings: the
// klarbring example (20 000 steps of a point mass) and the colliding
// blocks (750 steps of two elastic bodies, refine 2).
func TestResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs of a second each")
	}
	for _, tc := range []struct {
		example, every, checkpoint, refine string
		steps                              int
	}{
		{"klarbring", "500", "1000", "1", 20000},
		{"colliding-blocks", "50", "100", "2", 750},
	} {
		whole := t.TempDir()
		code, _, stderr := fecontact("example", tc.example, "--every", tc.every, "--refine", tc.refine, "--quiet", "-o", whole)
		require.Equal(t, 0, code, stderr)
		// The signals fall after the run's progress lines at 30, 80 and
		// 50 % of its steps, however fast it runs.
		resumed := 0
		for i, tenth := range []int{3, 8, 5} {
			delay := at(fmt.Sprintf("step %d/", tenth*tc.steps/10))
			sig := os.Signal(syscall.SIGKILL)
			if i == 2 {
				sig = syscall.SIGINT
			}
			dir := t.TempDir()
			signalAfter(t, sig, delay, "example", tc.example, "--every", tc.every, "--refine", tc.refine, "--checkpoint", tc.checkpoint, "-o", dir)
			if _, err := os.Stat(filepath.Join(dir, "checkpoint.gob")); err != nil {
				t.Logf("%s: %v after %v: no checkpoint yet, nothing to resume", tc.example, sig, delay)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, "history.csv.partial")); err == nil && sig == syscall.SIGKILL {
				resumed++ // killed in the middle of the run
			}
			code, stdout, stderr := fecontact("run", "--resume", dir, "--quiet")
			require.Equal(t, 0, code, "%s: %v after %v: %s%s", tc.example, sig, delay, stdout, stderr)
			sameRun(t, whole, dir)
		}
		assert.Positive(t, resumed, "%s: no kill fell in the middle of a run", tc.example)
	}
}

// signalAfter starts fecontact with args, waits for the line of its
// output that holds when, sends sig, and waits for it to end.
func signalAfter(t *testing.T, sig os.Signal, when moment, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FECONTACT_AS_MAIN=1")
	stdout, _ := lines(t, cmd.StdoutPipe)
	require.NoError(t, cmd.Start())
	if waitFor(stdout, string(when)) {
		_ = cmd.Process.Signal(sig) // it may have ended already
	}
	drainAll(stdout)
	_ = cmd.Wait()
}

// sameRun compares two run folders' history, .pvd files and pieces byte
// for byte, and their summaries but for the timings and the folder.
func sameRun(t *testing.T, a, b string) {
	t.Helper()
	for _, pat := range []string{"history.csv", "*.pvd", "*.vtu", "summary.txt"} {
		fa, _ := filepath.Glob(filepath.Join(a, pat))
		fb, _ := filepath.Glob(filepath.Join(b, pat))
		require.Equal(t, len(fa), len(fb), pat)
		for i := range fa {
			require.Equal(t, filepath.Base(fa[i]), filepath.Base(fb[i]))
			da, err := os.ReadFile(fa[i])
			require.NoError(t, err)
			db, err := os.ReadFile(fb[i])
			require.NoError(t, err)
			if pat == "summary.txt" {
				da, db = []byte(untimed(string(da), a)), []byte(untimed(string(db), b))
			}
			require.Equal(t, string(da), string(db), "%s differs", filepath.Base(fa[i]))
		}
	}
}

// untimed drops a summary's lines that depend on the clock or the command,
// and its folder.
func untimed(s, dir string) string {
	var kept []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "done:") && !strings.HasPrefix(l, "cost:") && !strings.HasPrefix(l, "made by:") && !strings.HasPrefix(l, "command:") {
			kept = append(kept, strings.ReplaceAll(l, dir, "DIR"))
		}
	}
	return strings.Join(kept, "\n")
}
