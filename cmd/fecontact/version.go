package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/fecontact/fecontact/io/results"
)

// version says which fecontact this is: the module's version (a tagged
// release, or "(devel)" for a build from a checkout), the commit and
// whether the checkout had changes, and the Go toolchain. Runs,
// checkpoints and sweeps record it.
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

// versionCmd prints the version and, for a build that recorded no commit
// (go build -buildvcs=false, or a copy of the sources outside git), what
// tells it apart: the executable's checksum, the platform and the
// modules it was built with.
func versionCmd(_ []string, stdout io.Writer) error {
	fmt.Fprintln(stdout, version())
	fmt.Fprintf(stdout, "outputs: format %d\n", results.Format)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		_, err := fmt.Fprintln(stdout, "no build information: built without Go modules")
		return err
	}
	if buildSetting(bi, "vcs.revision") == "" {
		fmt.Fprintln(stdout, "no commit recorded: built with -buildvcs=false (see go env GOFLAGS) or from sources outside a git clone")
		if sum, path, err := executableSum(); err == nil {
			fmt.Fprintf(stdout, "executable: %s, sha256 %s\n", path, sum)
		}
	}
	fmt.Fprintf(stdout, "platform: %s/%s, CGO_ENABLED=%s\n", runtime.GOOS, runtime.GOARCH, or(buildSetting(bi, "CGO_ENABLED"), "?"))
	var deps []string
	for _, d := range bi.Deps {
		deps = append(deps, d.Path+" "+d.Version)
	}
	_, err := fmt.Fprintf(stdout, "modules: %s\n", strings.Join(deps, ", "))
	return err
}

// buildSetting is the build information's value for key, or "".
func buildSetting(bi *debug.BuildInfo, key string) string {
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// executableSum is the first 16 hex digits of the running executable's
// SHA-256, and its path.
func executableSum() (sum, path string, err error) {
	path, err = os.Executable()
	if err != nil {
		return "", "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16], path, nil
}
