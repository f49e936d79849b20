package outdir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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
	root      *os.Root // every read, write and removal resolves in it
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
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("output folder %s: %w", dir, err)
	}
	f := &Folder{dir: dir, kind: kind, root: root, listed: map[string]entry{}}
	removed, err := f.take(o)
	if err != nil {
		f.Close()
		return nil, removed, err
	}
	return f, removed, nil
}

// take locks a folder opened by Create, reads its marker under the lock,
// refuses it or clears it, and lists it anew.
func (f *Folder) take(o Options) (int, error) {
	if err := f.acquire(); err != nil {
		return 0, err
	}
	prev, owned, err := f.readMarker()
	if err != nil {
		return 0, err
	}
	if !owned && !o.Overwrite {
		if err := f.refuseForeign(); err != nil {
			return 0, err
		}
	}
	if owned && prev.kind != f.kind {
		if !o.Overwrite {
			return 0, fmt.Errorf("%s holds the outputs of a fecontact %s, which a %s there would remove: give another folder, or --overwrite to write among them", f.dir, prev.kind, f.kind)
		}
		// Overwrite writes among another command's outputs and removes
		// none of them (a run into a sweep's folder removed the sweep):
		// they are fecontact's no more, as a user's files are not.
		prev = listing{listed: map[string]entry{}}
	}
	if err := f.checkListed(prev); err != nil {
		return 0, err
	}
	f.writeHolder(o.Command)
	removed, err := f.clear(prev, prev.kind == f.kind)
	if err != nil {
		return removed, err
	}
	return removed, f.writeMarker()
}

// Reopen takes dir, a folder fecontact made for a command of the given
// kind, to go on writing it (a resumed run, a gathering): nothing is
// removed but the temporaries of the listed files' interrupted writes,
// and what it lists stays listed.
func Reopen(dir, kind string, o Options) (*Folder, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no such folder: expected the folder of a fecontact %s", dir, kind)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("output folder %s: %w", dir, err)
	}
	f := &Folder{dir: dir, kind: kind, root: root, listed: map[string]entry{}}
	if err := f.retake(o); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// retake locks a folder opened by Reopen, reads its marker under the
// lock and removes its listed outputs' temporaries.
func (f *Folder) retake(o Options) error {
	if err := f.acquire(); err != nil {
		return err
	}
	prev, owned, err := f.readMarker()
	switch {
	case err != nil:
		return err
	case !owned:
		return fmt.Errorf("%s: no %s in it: not a folder a fecontact %s wrote (or one written before fecontact marked its folders: start the %s again)", f.dir, MarkerFile, f.kind, f.kind)
	case prev.kind != f.kind && !o.Overwrite:
		return fmt.Errorf("%s holds the outputs of a fecontact %s, not of a %s", f.dir, prev.kind, f.kind)
	}
	if err := f.checkListed(prev); err != nil {
		return err
	}
	f.writeHolder(o.Command)
	tmps := temporaries{root: f.root}
	for _, name := range prev.order {
		f.listed[name] = prev.listed[name]
		if prev.listed[name] == output {
			if _, err := tmps.remove(name); err != nil {
				return err
			}
		}
	}
	f.order = prev.order
	return f.openMarker()
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
	if err := f.root.Mkdir(name, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if fi, err := f.root.Lstat(name); err != nil || !fi.IsDir() {
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
	if err := f.checkParents(name, map[string]bool{}); err != nil {
		return err
	}
	_, err := removeWritten(temporaries{root: f.root}, name)
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
	if f.root != nil {
		err = errors.Join(err, f.root.Close())
		f.root = nil
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
	if err := f.checkParents(name, nil); err != nil {
		return "", err
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
	case name == ".":
		return fmt.Errorf("output %q: the folder itself", name)
	case name == MarkerFile || name == LockFile || name == markerNew:
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

// refuseForeign refuses a folder that holds anything but fecontact's
// lock and the marker a write that failed left half made.
func (f *Folder) refuseForeign() error {
	names, err := f.readDir(".")
	if err != nil {
		return fmt.Errorf("output folder %s: %w", f.dir, err)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == LockFile || n == markerNew })
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	what := fmt.Sprintf("%q", names[0])
	if len(names) > 1 {
		what += fmt.Sprintf(" and %d more", len(names)-1)
	}
	return fmt.Errorf("output folder %s holds files that fecontact did not write (%s): give another folder (-o), or --overwrite to write into it anyway (files of the names fecontact writes are replaced, the others stay)", f.dir, what)
}

// readDir lists a folder inside the root.
func (f *Folder) readDir(name string) ([]string, error) {
	d, err := f.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// listing is a marker as read.
type listing struct {
	kind   string
	listed map[string]entry
	order  []string
}

// markerNew is the marker being written, renamed over MarkerFile once
// complete.
const markerNew = MarkerFile + ".new"

// readMarker reads the folder's marker: owned is false when there is
// none. A marker that is not a regular file (a link to a file elsewhere)
// is refused, never followed.
func (f *Folder) readMarker() (listing, bool, error) {
	l := listing{listed: map[string]entry{}}
	p := filepath.Join(f.dir, MarkerFile)
	fi, err := f.root.Lstat(MarkerFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return l, false, nil
	case err != nil:
		return l, false, fmt.Errorf("%s: %w", p, err)
	case !fi.Mode().IsRegular():
		return l, false, fmt.Errorf("%s: %s, not fecontact's list of the files it wrote: remove it, or give another folder", p, inputfile.Kind(fi.Mode()))
	}
	mf, err := f.root.Open(MarkerFile)
	if err != nil {
		return l, false, fmt.Errorf("%s: %w", p, err)
	}
	defer mf.Close()
	data, err := inputfile.Read(mf, p, maxMarker, "fecontact folder marker")
	if err != nil {
		return l, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	damaged := fmt.Errorf("%s: damaged (not fecontact's list of the files it wrote): remove it, and the files of fecontact's in %s by hand, or give another folder", p, f.dir)
	if !sc.Scan() || sc.Text() != markerHead || !sc.Scan() {
		return l, false, damaged
	}
	kind, ok := strings.CutPrefix(sc.Text(), "kind ")
	if !ok || kind == "" {
		return l, false, damaged
	}
	l.kind = kind
	for line := 3; sc.Scan(); line++ {
		text := sc.Text()
		if len(text) < 3 || text[1] != ' ' || !slices.Contains([]entry{output, kept, sub}, entry(text[0])) {
			return l, false, fmt.Errorf("%s line %d: damaged (not fecontact's list of the files it wrote): nothing was removed; remove it, and the files of fecontact's in %s by hand, or give another folder", p, line, f.dir)
		}
		if err := checkName(text[2:]); err != nil {
			return l, false, fmt.Errorf("%s line %d: %w, which fecontact never lists: nothing was removed; remove the marker, and the files of fecontact's in %s by hand, or give another folder", p, line, err, f.dir)
		}
		if _, ok := l.listed[text[2:]]; !ok {
			l.order = append(l.order, text[2:])
		}
		l.listed[text[2:]] = entry(text[0])
	}
	if sc.Err() != nil {
		return l, false, damaged
	}
	return l, true, nil
}

// checkListed refuses a marker one of whose names passes through a
// symbolic link or something else that is not a folder: removing it
// would remove what the link points at, outside the folder. It is
// checked whole before anything is removed.
func (f *Folder) checkListed(l listing) error {
	seen := map[string]bool{}
	for _, name := range l.order {
		if err := f.checkParents(name, seen); err != nil {
			return fmt.Errorf("%w: nothing was removed; remove it, or give another folder", err)
		}
		if l.listed[name] == sub {
			if err := f.checkFolder(name, seen); err != nil {
				return fmt.Errorf("%w: nothing was removed; remove it, or give another folder", err)
			}
		}
	}
	return nil
}

// checkParents refuses a name whose parent folders inside the root are
// not all real folders (or absent); seen, when not nil, remembers the
// folders found good.
func (f *Folder) checkParents(name string, seen map[string]bool) error {
	for i, c := range name {
		if c != '/' {
			continue
		}
		if err := f.checkFolder(name[:i], seen); err != nil {
			return err
		}
	}
	return nil
}

// checkFolder refuses a listed folder that is a link or a file.
func (f *Folder) checkFolder(name string, seen map[string]bool) error {
	if seen[name] {
		return nil
	}
	fi, err := f.root.Lstat(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", filepath.Join(f.dir, name), err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s where fecontact made a folder", filepath.Join(f.dir, name), inputfile.Kind(fi.Mode()))
	}
	if seen != nil {
		seen[name] = true
	}
	return nil
}

// writeMarker writes the folder's marker anew with what it lists (the
// kept inputs carried over), and opens it to append to. The new marker is
// created afresh (what is at its name, a link included, removed first),
// never written through what is there.
func (f *Folder) writeMarker() error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nkind %s\n", markerHead, f.kind)
	for _, n := range f.order {
		fmt.Fprintf(&b, "%c %s\n", f.listed[n], n)
	}
	p := filepath.Join(f.dir, MarkerFile)
	if err := f.createFresh(markerNew, b.String()); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if err := f.root.Rename(markerNew, MarkerFile); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return f.openMarker()
}

// createFresh writes a new file of the folder's own (the marker, the
// lock's holder) where nothing is left: a file, link or hard link at its
// name is removed (the link, not what it points at), and the new file
// created exclusively.
func (f *Folder) createFresh(name, text string) error {
	if fi, err := f.root.Lstat(name); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: a folder where fecontact keeps a file of its own: remove it", filepath.Join(f.dir, name))
	}
	if err := f.root.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	w, err := f.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return errors.Join(err, w.Close())
}

func (f *Folder) openMarker() error {
	p := filepath.Join(f.dir, MarkerFile)
	if fi, err := f.root.Lstat(MarkerFile); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not fecontact's marker file: remove it, or give another folder", p)
	}
	m, err := f.root.OpenFile(MarkerFile, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	f.marker = m
	return nil
}

// acquire takes the folder's lock, or says who holds it. The lock is a
// flock on the folder itself, which nothing in the folder can undo (a
// lock file removed mid-run let a second command in); where the file
// system cannot lock a folder (NFS) it is the lock file's, re-checked to
// be the file at its name.
func (f *Folder) acquire() error {
	d, err := f.root.Open(".")
	if err != nil {
		return fmt.Errorf("output folder %s: %w", f.dir, err)
	}
	err = tryLock(d)
	if errors.Is(err, errWouldBlock) {
		d.Close()
		return f.inUse()
	}
	if err == nil {
		f.lock = d
		return nil
	}
	d.Close()
	return f.acquireFile()
}

// acquireFile takes the lock on the lock file, where a folder cannot be
// locked.
func (f *Folder) acquireFile() error {
	p := filepath.Join(f.dir, LockFile)
	for range 8 {
		if fi, err := f.root.Lstat(LockFile); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: %s, not fecontact's lock file: remove it", p, inputfile.Kind(fi.Mode()))
		}
		lf, err := f.root.OpenFile(LockFile, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("output folder %s: %w", f.dir, err)
		}
		if err := tryLock(lf); err != nil {
			lf.Close()
			if errors.Is(err, errWouldBlock) {
				return f.inUse()
			}
			return fmt.Errorf("output folder %s: locking %s: %w", f.dir, LockFile, err)
		}
		held, err1 := lf.Stat()
		now, err2 := f.root.Lstat(LockFile)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			f.lock = lf
			return nil
		}
		lf.Close() // removed or replaced while it was taken: take the new one
	}
	return fmt.Errorf("output folder %s: %s keeps being replaced: is another program writing it?", f.dir, p)
}

// inUse says who holds the folder, as the holder wrote it.
func (f *Folder) inUse() error {
	who := "another fecontact command"
	if fi, err := f.root.Lstat(LockFile); err == nil && fi.Mode().IsRegular() {
		if lf, err := f.root.Open(LockFile); err == nil {
			holder, _ := inputfile.Read(lf, filepath.Join(f.dir, LockFile), 4096, "lock file")
			lf.Close()
			if w := strings.TrimSpace(string(holder)); w != "" {
				who = w
			}
		}
	}
	return fmt.Errorf("output folder %s is %w by %s: wait for it to end, or give another folder", f.dir, ErrInUse, who)
}

// writeHolder writes who holds the lock into the lock file, for a second
// command to be told. It is written afresh, never through what is at its
// name (a hard link to a user's file was truncated); it is only a note,
// so failing to write it fails nothing. Where the lock file is itself the
// lock, it is rewritten in place (it is the file just locked, a regular
// file of fecontact's).
func (f *Folder) writeHolder(command string) {
	host, _ := os.Hostname()
	if command == "" {
		command = "fecontact " + f.kind
	}
	holder := fmt.Sprintf("%s (process %d on %s, since %s)\n", command, os.Getpid(), host, time.Now().Format(time.RFC3339))
	if fi, err := f.lock.Stat(); err == nil && !fi.IsDir() {
		if links(fi) == 1 && f.lock.Truncate(0) == nil {
			f.lock.WriteAt([]byte(holder), 0)
		}
		return
	}
	f.createFresh(LockFile, holder)
}

// clear removes what an earlier command listed: its outputs, and its kept
// inputs too unless keep (then they stay listed); its sub-folders are
// cleared whole. It returns how many files and folders it removed.
func (f *Folder) clear(prev listing, keep bool) (int, error) {
	n := 0
	var subs []string
	tmps := temporaries{root: f.root}
	for _, name := range prev.order {
		switch e := prev.listed[name]; {
		case e == sub:
			subs = append(subs, name)
		case e == kept && keep:
			f.listed[name] = kept
			f.order = append(f.order, name)
		default:
			k, err := removeWritten(tmps, name)
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	for _, name := range slices.Backward(subs) {
		k, err := f.clearSub(name)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// clearSub removes a sub-folder fecontact made: what its own marker lists
// (under its lock), then the folder if nothing else is left in it.
func (f *Folder) clearSub(name string) (int, error) {
	fi, err := f.root.Lstat(name)
	if errors.Is(err, os.ErrNotExist) || err == nil && !fi.IsDir() {
		return 0, nil // gone, or replaced by something of the user's
	}
	r, err := f.root.OpenRoot(name)
	if err != nil {
		return 0, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	s := &Folder{dir: filepath.Join(f.dir, filepath.FromSlash(name)), root: r, listed: map[string]entry{}}
	n, err := s.clearAll()
	s.Close()
	if err != nil {
		return n, err
	}
	if f.root.Remove(name) == nil { // left where the user put files in it
		n++
	}
	return n, nil
}

// clearAll removes, under the folder's lock, everything its marker lists
// and the marker and lock themselves.
func (f *Folder) clearAll() (int, error) {
	if err := f.acquire(); err != nil {
		return 0, err
	}
	prev, owned, err := f.readMarker()
	if err != nil || !owned {
		return 0, err
	}
	if err := f.checkListed(prev); err != nil {
		return 0, err
	}
	n, err := f.clear(prev, false)
	if err != nil {
		return n, err
	}
	f.root.Remove(MarkerFile)
	f.root.Remove(LockFile)
	return n, nil
}

// removeWritten removes a file fecontact wrote (name, inside the root),
// if it is still a regular file, and the hidden temporaries of its
// interrupted writes (internal/atomicfile's ".NAME.tmp*").
func removeWritten(tmps temporaries, name string) (int, error) {
	n, err := tmps.remove(name)
	if err != nil {
		return n, err
	}
	if fi, err := tmps.root.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return n, nil // gone, or something fecontact did not write
	}
	if err := tmps.root.Remove(name); err != nil {
		return n, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	return n + 1, nil
}

// temporaries holds, per folder of the root, the sorted names of its
// hidden files, each folder read once: the temporaries of every file a
// folder of thousands of pieces lists are found in linear time, not by a
// glob (a read of the folder) per file.
type temporaries struct {
	root   *os.Root
	hidden map[string][]string
}

// remove removes the hidden temporaries of a file's interrupted writes.
func (t *temporaries) remove(name string) (int, error) {
	dir, base := path.Split(name)
	hidden, err := t.hiddenIn(dir)
	if err != nil {
		return 0, err
	}
	prefix := "." + base + ".tmp"
	n := 0
	for i, _ := slices.BinarySearch(hidden, prefix); i < len(hidden) && strings.HasPrefix(hidden[i], prefix); i++ {
		tmp := dir + hidden[i]
		fi, err := t.root.Lstat(tmp)
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone, or something fecontact did not write
		}
		if err := t.root.Remove(tmp); err != nil {
			return n, fmt.Errorf("clearing the earlier outputs: %w", err)
		}
		n++
	}
	return n, nil
}

// hiddenIn is the sorted names of a folder's entries that begin with a
// dot.
func (t *temporaries) hiddenIn(dir string) ([]string, error) {
	if names, ok := t.hidden[dir]; ok {
		return names, nil
	}
	if t.hidden == nil {
		t.hidden = map[string][]string{}
	}
	d, err := t.root.Open(path.Clean("./" + dir))
	if errors.Is(err, os.ErrNotExist) {
		t.hidden[dir] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("clearing the earlier outputs: %w", err)
	}
	defer d.Close()
	all, err := d.Readdirnames(-1)
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
	t.hidden[dir] = names
	return names, nil
}
