package gallery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/run"
	"github.com/fecontact/fecontact/scene"
)

// Options of a gallery.
type Options struct {
	// Examples are the examples to run (nil: every one).
	Examples []string
	// Overwrite lets Write use a folder that holds files it did not write
	// (outdir).
	Overwrite bool
	// Version says what made the pictures (the runs' summaries).
	Version string
	// Say, when set, gets a line as each example starts and ends.
	Say func(line string)
	// ParaView, when set, is the pvpython to render each run's ParaView
	// script with (under xvfb-run when there is no display): the page then
	// shows what view_in_paraview.py shows. Empty: no ParaView picture.
	ParaView string
}

// pageMark is the first line of the page: a page without it is the
// user's, which Write refuses to replace.
const pageMark = "<!-- Written by `fecontact gallery`: run it again rather than edit this page. -->"

// Write runs the examples, each into a temporary folder, and writes their
// pictures into dir (NAME-energy.png, NAME-bodies.png, ...: a folder of
// fecontact's, package outdir) and the page beside it, dir + ".md"
// (docs/gallery and docs/gallery.md). Each run's summary line and cost go
// on the page.
func Write(ctx context.Context, dir string, opt Options) error {
	names := opt.Examples
	if names == nil {
		names = examples.Names()
	}
	page := strings.TrimSuffix(filepath.Clean(dir), string(filepath.Separator)) + ".md"
	if err := ownPage(page); err != nil {
		return err
	}
	files, _, err := outdir.Create(dir, "gallery", outdir.Options{Overwrite: opt.Overwrite})
	if err != nil {
		return err
	}
	defer files.Close()
	tmp, err := os.MkdirTemp("", "fecontact-gallery-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var entries []entry
	for _, name := range names {
		e, err := runExample(ctx, name, filepath.Join(tmp, name), files, opt)
		if err != nil {
			return fmt.Errorf("gallery: example %s: %w", name, err)
		}
		entries = append(entries, e)
	}
	return atomicfile.Write(page, func(w io.Writer) error { return writePage(w, filepath.Base(dir), entries) })
}

// ownPage refuses a page that exists and was not written by Write.
func ownPage(page string) error {
	data, err := os.ReadFile(page)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("gallery: %w", err)
	}
	if !strings.HasPrefix(string(data), pageMark) {
		return fmt.Errorf("gallery: %s exists and is not a page fecontact gallery wrote (its first line is not %q): move it, or give another folder", page, pageMark)
	}
	return nil
}

// entry is one example on the page.
type entry struct {
	name, title, summary string
	pictures             []string // in the gallery folder
}

// pictureOrder is the order of a run's pictures on the page.
var pictureOrder = []string{"bodies.png", "energy.png", "gaps.png", "profile.png", "forces.png", "fabric.png"}

// runExample runs one example into folder, copies its pictures into the
// gallery, and renders its ParaView script when asked.
func runExample(ctx context.Context, name, folder string, gallery *outdir.Folder, opt Options) (entry, error) {
	sc, err := scene.Example(name)
	if err != nil {
		return entry{}, err
	}
	say(opt, "%s: running", name)
	rep, err := run.Scene(ctx, sc, run.Options{Dir: folder, Command: "fecontact gallery", Version: opt.Version,
		Checkpoint: run.Checkpoint{Off: true}})
	if err != nil {
		return entry{}, err
	}
	e := entry{name: name, title: title(sc.Text), summary: summaryLines(rep.Summary)}
	for _, pic := range pictureOrder {
		src := filepath.Join(folder, pic)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		dst := name + "-" + pic
		if err := copyInto(gallery, dst, src); err != nil {
			return entry{}, err
		}
		e.pictures = append(e.pictures, dst)
	}
	if opt.ParaView != "" {
		dst := name + "-paraview.png"
		if err := renderParaView(ctx, opt.ParaView, folder, gallery, dst); err != nil {
			return entry{}, err
		}
		e.pictures = append(e.pictures, dst)
	}
	say(opt, "%s: %d pictures", name, len(e.pictures))
	return e, nil
}

func say(opt Options, format string, a ...any) {
	if opt.Say != nil {
		opt.Say(fmt.Sprintf(format, a...))
	}
}

// title is the scene's first comment paragraph, as one line.
func title(text string) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "#") {
			break
		}
		line = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		if line == "" {
			if len(words) > 0 {
				break
			}
			continue
		}
		words = append(words, line)
	}
	return strings.Join(words, " ")
}

// summaryLines keeps the summary's lines a reader of the page wants: what
// the run did and how well.
func summaryLines(summary string) string {
	var keep []string
	for _, line := range strings.Split(summary, "\n") {
		for _, p := range []string{"done:", "certificate:", "energy:"} {
			if strings.HasPrefix(line, p) {
				keep = append(keep, line)
			}
		}
	}
	return strings.Join(keep, "\n")
}

// copyInto copies the file src into the gallery as name.
func copyInto(gallery *outdir.Folder, name, src string) error {
	path, err := gallery.Path(name)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// renderParaView renders the run's ParaView script to a PNG in the
// gallery, under xvfb-run when there is no display (again when its X
// server was not up in time).
func renderParaView(ctx context.Context, pvpython, folder string, gallery *outdir.Folder, name string) error {
	path, err := gallery.Path(name)
	if err != nil {
		return err
	}
	script := filepath.Join(folder, results.ParaViewScript)
	png := filepath.Join(folder, "paraview.png")
	args := []string{pvpython, script, "--png", png}
	if os.Getenv("DISPLAY") == "" {
		args = append([]string{"xvfb-run", "-a", "-s", "-screen 0 1600x1200x24"}, args...)
	}
	var out []byte
	for range 3 {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		if out, err = cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "bad X server connection") {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, lastLines(string(out), 5))
	}
	data, err := os.ReadFile(png)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// writePage writes the Markdown page: a section per example with its
// command, what it printed and its pictures (folder: the pictures'
// folder, relative to the page).
func writePage(w io.Writer, folder string, entries []entry) error {
	var b strings.Builder
	fmt.Fprintln(&b, pageMark)
	fmt.Fprintln(&b, "# fecontact: the examples' pictures")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "Every picture below is what `fecontact example NAME` writes, at the example's shipped settings;")
	fmt.Fprintln(&b, "`go run ./cmd/fecontact gallery` regenerates this page and its pictures (docs/guide.md, *Pictures*).")
	fmt.Fprintln(&b, "The ParaView frames are what each run's `view_in_paraview.py` shows.")
	for _, e := range entries {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n    fecontact example %s\n\n", e.name, e.title, e.name)
		if e.summary != "" {
			for _, line := range strings.Split(e.summary, "\n") {
				fmt.Fprintf(&b, "    %s\n", line)
			}
			fmt.Fprintln(&b)
		}
		for _, p := range e.pictures {
			fmt.Fprintf(&b, "![%s %s](%s/%s)\n\n", e.name, strings.TrimSuffix(strings.TrimPrefix(p, e.name+"-"), ".png"), folder, p)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
