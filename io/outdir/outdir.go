package outdir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fecontact/fecontact/internal/inputfile"
)

// MarkerFile lists what fecontact wrote into a folder; LockFile is held
// by the command writing into it.
const (
	MarkerFile = ".fecontact"
	LockFile   = ".fecontact.lock"
)

// markerHead begins every marker.
const markerHead = "fecontact output folder"

// maxMarker bounds a marker read (a sweep of 10 000 variants lists about
// 20 000 lines of a few tens of bytes).
const maxMarker = 256 << 20

// Options of Create and Reopen.
type Options struct {
	// Overwrite takes a non-empty folder that fecontact did not make, or
	// one another kind of command made: fecontact's files are written
	// among what is there (replacing only files of the same names) and
	// nothing else is removed.
	Overwrite bool
	// Command is the command line writing the folder, which a second
	// command refused by the lock is told.
	Command string
}

// Folder is an output folder held by this process: what it lists and
// its lock.
type Folder struct {
	dir, kind string
	mu        sync.Mutex
	lock      *os.File
	marker    *os.File
	listed    map[string]entry
	order     []string // listed names, in the order they were listed
}

// entry is how a listed name is held: an output (removed when a new
// output starts), a kept input (written by the command that made the
// folder for the one that runs in it: a sweep's variant scene), or a
// sub-folder fecontact made.
type entry byte

const (
	output entry = 'o'
	kept   entry = 'k'
	sub    entry = 'd'
)

// ErrInUse is a folder another command holds.
var ErrInUse = errors.New("in use")

// Create takes dir for a new output of the given kind, making it if
// needed: a folder fecontact made has every listed output of its last
// command removed first (kept inputs stay, when it is of the same kind);
// an empty or new folder is taken as it is; any other is refused unless
// o.Overwrite. It returns the folder, held until Close, and how many
// files and folders it removed.
func Create(dir, kind string, o Options) (*Folder, int, error) {
	if err := checkDir(dir); err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, fmt.Errorf("output folder %s: %w", dir, err)
	}
	prev, owned, err := readMarker(dir)
	if err != nil {
		return nil, 0, err
	}
	if !owned && !o.Overwrite {
		if err := refuseForeign(dir); err != nil {
			return nil, 0, err
		}
	}
	if owned && prev.kind != kind && !o.Overwrite {
		return nil, 0, fmt.Errorf("%s holds the outputs of a fecontact %s, which a %s there would remove: give another folder, or --overwrite to replace them", dir, prev.kind, kind)
	}
	f := &Folder{dir: dir, kind: kind, listed: map[string]entry{}}
	if err := f.acquire(o.Command); err != nil {
		return nil, 0, err
	}
	removed, err := f.clear(prev, prev.kind == kind)
	if err == nil {
		err = f.writeMarker()
	}
	if err != nil {
		f.Close()
		return nil, removed, err
	}
	return f, removed, nil
}

// Reopen takes dir, a folder fecontact made for a command of the given
// kind, to go on writing it (a resumed run, a gathering): nothing is
// removed but the temporaries of the listed files' interrupted writes,
// and what it lists stays listed.
func Reopen(dir, kind string, o Options) (*Folder, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no such folder: expected the folder of a fecontact %s", dir, kind)
	}
	prev, owned, err := readMarker(dir)
	switch {
	case err != nil:
		return nil, err
	case !owned:
		return nil, fmt.Errorf("%s: no %s in it: not a folder a fecontact %s wrote (or one written before fecontact marked its folders: start the %s again)", dir, MarkerFile, kind, kind)
	case prev.kind != kind && !o.Overwrite:
		return nil, fmt.Errorf("%s holds the outputs of a fecontact %s, not of a %s", dir, prev.kind, kind)
	}
	f := &Folder{dir: dir, kind: kind, listed: map[string]entry{}}
	if err := f.acquire(o.Command); err != nil {
		return nil, err
	}
	tmps := temporaries{}
	for _, name := range prev.order {
		f.listed[name] = prev.listed[name]
		if prev.listed[name] == output {
			if _, err := tmps.remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	f.order = prev.order
	if err := f.openMarker(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Dir is the folder's path, as given.
func (f *Folder) Dir() string { return f.dir }

// Path lists name (a path relative to the folder, with / between its
// parts) as an output of this command and returns where to write it: in
// the folder, or in a sub-folder listed before.
func (f *Folder) Path(name string) (string, error) {
	return f.add(name, output)
}

// Keep lists name as an input that the command running in the folder
// later keeps (a sweep's variant scene, which every run of the variant
// reads): only clearing the folder as a whole removes it.
func (f *Folder) Keep(name string) (string, error) {
	return f.add(name, kept)
}

// Sub lists name as a sub-folder of this command's, makes it and returns
// its path; clearing the folder removes it once what it holds that
// fecontact wrote is removed, and leaves it if anything else is there.
func (f *Folder) Sub(name string) (string, error) {
	p, err := f.add(name, sub)
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if fi, err := os.Lstat(p); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s: not a folder (a file or link of that name is in the way): remove it or give another output folder", p)
	}
	return p, nil
}

// Listed reports whether name is listed as written by fecontact.
func (f *Folder) Listed(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.listed[name]
	return ok
}

// Outputs are the listed outputs, in the order they were listed.
func (f *Folder) Outputs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, n := range f.order {
		if f.listed[n] == output {
			out = append(out, n)
		}
	}
	return out
}

// Remove removes a listed file, if it is there; a name the folder does
// not list is refused.
func (f *Folder) Remove(name string) error {
	if !f.Listed(name) {
		return fmt.Errorf("%s: %s is not a file fecontact wrote there: left alone", f.dir, name)
	}
	_, err := removeWritten(temporaries{}, filepath.Join(f.dir, filepath.FromSlash(name)))
	return err
}

// Close releases the folder (its lock) for another command.
func (f *Folder) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var err error
	if f.marker != nil {
		err = f.marker.Close()
		f.marker = nil
	}
	if f.lock != nil {
		unlock(f.lock)
		err = errors.Join(err, f.lock.Close())
		f.lock = nil
	}
	return err
}

// add lists name with the given hold, appending it to the marker before
// the caller creates it.
func (f *Folder) add(name string, e entry) (string, error) {
	if err := checkName(name); err != nil {
		return "", fmt.Errorf("%s: %w", f.dir, err)
	}
	p := filepath.Join(f.dir, filepath.FromSlash(name))
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.marker == nil {
		return "", fmt.Errorf("%s: the folder was closed", f.dir)
	}
	if _, ok := f.listed[name]; ok {
		return p, nil
	}
	if _, err := fmt.Fprintf(f.marker, "%c %s\n", e, name); err != nil {
		return "", fmt.Errorf("%s: listing %s: %w", filepath.Join(f.dir, MarkerFile), name, err)
	}
	f.listed[name] = e
	f.order = append(f.order, name)
	return p, nil
}

// checkName refuses a listed name that could reach outside the folder or
// break the marker's lines.
func checkName(name string) error {
	switch {
	case name == "" || !filepath.IsLocal(filepath.FromSlash(name)) || path.Clean(name) != name:
		return fmt.Errorf("output %q: expected a name inside the folder", name)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("output %q: a control character in a file name", name)
	case name == MarkerFile || name == LockFile:
		return fmt.Errorf("output %q: the folder's own marker", name)
	}
	return nil
}

// checkDir refuses an output folder that is something else.
func checkDir(dir string) error {
	if dir == "" {
		return errors.New("no output folder")
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("output folder %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("output folder %s: %s, not a folder: give a folder for the outputs", dir, inputfile.Kind(fi.Mode()))
	}
	return nil
}

// refuseForeign refuses a folder that holds anything.
func refuseForeign(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != LockFile {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	what := fmt.Sprintf("%q", names[0])
	if len(names) > 1 {
		what += fmt.Sprintf(" and %d more", len(names)-1)
	}
	return fmt.Errorf("output folder %s holds files that fecontact did not write (%s): give another folder (-o), or --overwrite to write into it anyway (files of the names fecontact writes are replaced, the others stay)", dir, what)
}

// listing is a marker as read.
type listing struct {
	kind   string
	listed map[string]entry
	order  []string
}

// readMarker reads dir's marker: owned is false when there is none.
func readMarker(dir string) (listing, bool, error) {
	l := listing{listed: map[string]entry{}}
	p := filepath.Join(dir, MarkerFile)
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return l, false, nil
	}
	data, err := inputfile.ReadFile(p, maxMarker, "fecontact folder marker")
	if err != nil {
		return l, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	damaged := fmt.Errorf("%s: damaged (not fecontact's list of the files it wrote): remove it, and the files of fecontact's in %s by hand, or give another folder", p, dir)
	if !sc.Scan() || sc.Text() != markerHead || !sc.Scan() {
		return l, false, damaged
	}
	kind, ok := strings.CutPrefix(sc.Text(), "kind ")
	if !ok || kind == "" {
		return l, false, damaged
	}
	l.kind = kind
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 3 || line[1] != ' ' || !slices.Contains([]entry{output, kept, sub}, entry(line[0])) || checkName(line[2:]) != nil {
			return l, false, damaged
		}
		if _, ok := l.listed[line[2:]]; !ok {
			l.order = append(l.order, line[2:])
		}
		l.listed[line[2:]] = entry(line[0])
	}
	if sc.Err() != nil {
		return l, false, damaged
	}
	return l, true, nil
}

// writeMarker writes the folder's marker anew with what it lists (the
// kept inputs carried over), and opens it to append to.
func (f *Folder) writeMarker() error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nkind %s\n", markerHead, f.kind)
	for _, n := range f.order {
		fmt.Fprintf(&b, "%c %s\n", f.listed[n], n)
	}
	p := filepath.Join(f.dir, MarkerFile)
	tmp := p + ".new"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return f.openMarker()
}

func (f *Folder) openMarker() error {
	p := filepath.Join(f.dir, MarkerFile)
	m, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	f.marker = m
	return nil
}

// acquire takes the folder's lock, or says who holds it.
func (f *Folder) acquire(command string) error {
	p := filepath.Join(f.dir, LockFile)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not fecontact's lock file: remove it", p, inputfile.Kind(fi.Mode()))
	}
	lf, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", f.dir, err)
	}
	if err := tryLock(lf); err != nil {
		holder, _ := inputfile.Read(lf, p, 4096, "lock file")
		lf.Close()
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "another fecontact command"
		}
		return fmt.Errorf("output folder %s is %w by %s: wait for it to end, or give another folder", f.dir, ErrInUse, who)
	}
	host, _ := os.Hostname()
	if command == "" {
		command = "fecontact " + f.kind
	}
	holder := fmt.Sprintf("%s (process %d on %s, since %s)\n", command, os.Getpid(), host, time.Now().Format(time.RFC3339))
	if err := lf.Truncate(0); err == nil {
		lf.WriteAt([]byte(holder), 0)
	}
	f.lock = lf
	return nil
}

// clear removes what an earlier command listed: its outputs, and its kept
// inputs too unless keep (then they stay listed); its sub-folders are
// cleared whole. It returns how many files and folders it removed.
func (f *Folder) clear(prev listing, keep bool) (int, error) {
	n := 0
	var subs []string
	tmps := temporaries{}
	for _, name := range prev.order {
		switch e := prev.listed[name]; {
		case e == sub:
			subs = append(subs, name)
		case e == kept && keep:
			f.listed[name] = kept
			f.order = append(f.order, name)
		default:
			k, err := removeWritten(tmps, filepath.Join(f.dir, filepath.FromSlash(name)))
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	for _, name := range slices.Backward(subs) {
		k, err := clearSub(filepath.Join(f.dir, filepath.FromSlash(name)))
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// clearSub removes a sub-folder fecontact made: what its own marker lists
// (under its lock), then the folder if nothing else is left in it.
func clearSub(dir string) (int, error) {
	fi, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) || err == nil && !fi.IsDir() {
		return 0, nil // gone, or replaced by something of the user's
	}
	n := 0
	if prev, owned, err := readMarker(dir); err != nil {
		return 0, err
	} else if owned {
		f := &Folder{dir: dir, kind: prev.kind, listed: map[string]entry{}}
		if err := f.acquire(""); err != nil {
			return 0, err
		}
		n, err = f.clear(prev, false)
		f.Close()
		if err != nil {
			return n, err
		}
		os.Remove(filepath.Join(dir, MarkerFile))
		os.Remove(filepath.Join(dir, LockFile))
	}
	if os.Remove(dir) == nil { // left where the user put files in it
		n++
	}
	return n, nil
}

// removeWritten removes a file fecontact wrote, if it is still a regular
// file, and the hidden temporaries of its interrupted writes
// (internal/atomicfile's ".NAME.tmp*").
func removeWritten(tmps temporaries, p string) (int, error) {
	n, err := tmps.remove(p)
	if err != nil {
		return n, err
	}
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return n, nil // gone, or something fecontact did not write
	}
	if err := os.Remove(p); err != nil {
		return n, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	return n + 1, nil
}

// temporaries holds, per folder, the sorted names of its hidden files,
// each folder read once: the temporaries of every file a folder of
// thousands of pieces lists are found in linear time, not by a glob (a
// read of the folder) per file.
type temporaries map[string][]string

// remove removes the hidden temporaries of a file's interrupted writes.
func (t temporaries) remove(p string) (int, error) {
	dir, base := filepath.Split(p)
	hidden, err := t.hidden(dir)
	if err != nil {
		return 0, err
	}
	prefix := "." + base + ".tmp"
	n := 0
	for i, _ := slices.BinarySearch(hidden, prefix); i < len(hidden) && strings.HasPrefix(hidden[i], prefix); i++ {
		tmp := filepath.Join(dir, hidden[i])
		fi, err := os.Lstat(tmp)
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone, or something fecontact did not write
		}
		if err := os.Remove(tmp); err != nil {
			return n, fmt.Errorf("clearing the earlier outputs: %w", err)
		}
		n++
	}
	return n, nil
}

// hidden is the sorted names of dir's entries that begin with a dot.
func (t temporaries) hidden(dir string) ([]string, error) {
	if names, ok := t[dir]; ok {
		return names, nil
	}
	f, err := os.Open(filepath.Clean(dir))
	if errors.Is(err, os.ErrNotExist) {
		t[dir] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	defer f.Close()
	all, err := f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	var names []string
	for _, n := range all {
		if strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	t[dir] = names
	return names, nil
}
