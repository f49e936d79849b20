package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version says which fecontact this is: the module's version (a tagged
// release, or "(devel)" for a build from a checkout), the commit and
// whether the checkout had changes, and the Go toolchain.
func version() string {
	v, rev, modified := "(unknown)", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				rev = " " + s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				modified = " (with uncommitted changes)"
			}
		}
	}
	return fmt.Sprintf("fecontact %s%s%s, %s", v, rev, modified, runtime.Version())
}

// versionCmd prints the version.
func versionCmd(_ []string, stdout io.Writer) error {
	_, err := fmt.Fprintln(stdout, version())
	return err
}
