// Package atomicfile writes files so that a reader never sees a partial
// one: the content goes to a temporary file in the same folder, which is
// synced and renamed into place only when complete. A crashed run leaves
// the old file (or none), never a truncated file under the final name.
//
// Only a regular file, or nothing, is ever replaced: a device (/dev/null,
// /dev/full), a folder or a symbolic link at the target is refused by
// name, so that an output path never renames a file over something that
// is not a file.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fecontact/fecontact/internal/inputfile"
)

// Write writes path atomically with the content that write produces
// (through a buffer), and durably: the file is on the disk when Write
// returns (a checkpoint, a summary, a history).
func Write(path string, write func(w io.Writer) error) error {
	return write1(path, write, true)
}

// WriteUnsynced writes path atomically but leaves it to the system to put
// it on the disk: a program that dies never leaves it half written, a
// machine that loses power may (what a run writes by the thousand, its
// ParaView pieces and collections and its pictures: a resume from the
// checkpoint, which Write makes durable, writes them again). It spares a
// journal commit per file: the fields' pieces cost a run more than its
// steps with one.
func WriteUnsynced(path string, write func(w io.Writer) error) error {
	return write1(path, write, false)
}

func write1(path string, write func(w io.Writer) error, durable bool) (err error) {
	if err := CheckTarget(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err = write(bw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if durable {
		if err = tmp.Sync(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return Rename(tmp.Name(), path)
}

// Create creates or truncates the regular file at path, to stream into
// (a run's history); what is at path must be a regular file or nothing.
func Create(path string) (*os.File, error) {
	if err := CheckTarget(path); err != nil {
		return nil, err
	}
	return os.Create(path)
}

// Rename renames from over to, which must be a regular file or nothing.
func Rename(from, to string) error {
	if err := CheckTarget(to); err != nil {
		return err
	}
	return os.Rename(from, to)
}

// CheckTarget refuses an output path at which something other than a
// regular file is.
func CheckTarget(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: %s, not a file: fecontact replaces only files; give another output path", path, inputfile.Kind(fi.Mode()))
	}
	return nil
}
