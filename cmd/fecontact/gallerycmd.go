package main

import (
	"flag"
	"fmt"
	"io"
	"os/exec"

	"github.com/fecontact/fecontact/gallery"
)

// galleryCmd runs the examples and writes their pictures and the page
// that shows them (gallery.Write).
func galleryCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gallery", flag.ContinueOnError)
	fs.SetOutput(stdout)
	out := fs.String("o", "docs/gallery", "the pictures' folder; the page is this name with .md (docs/gallery.md)")
	overwrite := fs.Bool("overwrite", false, "write into a folder that holds files fecontact did not write (the others stay)")
	paraview := fs.Bool("paraview", true, "also render each run's view_in_paraview.py with pvpython (under xvfb-run without a display), when installed")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact gallery [-o docs/gallery] [--paraview=false] [--overwrite] [EXAMPLE...]\n\nRuns the examples (all without names) and writes their pictures and the page that shows them.")
		fs.PrintDefaults()
	}
	names, err := parse(fs, args)
	if err != nil {
		return err
	}
	opt := gallery.Options{Overwrite: *overwrite, Version: version(), Say: func(line string) { fmt.Fprintln(stdout, line) }}
	if len(names) > 0 {
		opt.Examples = names
	}
	if *paraview {
		if pv, err := exec.LookPath("pvpython"); err == nil {
			opt.ParaView = pv
		} else {
			fmt.Fprintln(stdout, "no pvpython: the page shows no ParaView frame (install Debian's paraview and xvfb)")
		}
	}
	ctx, stop := interruptible()
	defer stop()
	if err := gallery.Write(ctx, *out, opt); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s.md\n", *out, *out)
	return nil
}
