// Package inputfile reads the input files a user names (scenes, states)
// with a size cap, so that a path such as /dev/zero or a mistaken
// multi-gigabyte file is refused at once with its name and size instead
// of being read until memory runs out. It is its own package because the
// scene decoder and the results' state reader, which share nothing else,
// both need it.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadFile returns the contents of the regular file at path, or an error
// naming the file when it is not a regular file (a device, a pipe, a
// folder) or holds more than max bytes; what says what the file should
// be, for the message.
func ReadFile(path string, max int64, what string) ([]byte, error) {
	f, err := Open(path, max, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f) // the errors name the file
}

// Open opens the regular file at path to read it as a stream, with the
// checks of ReadFile: the reader fails once it has given more than max
// bytes (a file that grew while read).
func Open(path string, max int64, what string) (io.ReadCloser, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &missing{path: path, what: what}
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s, not a file: expected %s", path, Kind(fi.Mode()), what)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a %s may have", path, fi.Size(), max, what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// Stat again what was opened: the path may have been replaced.
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a file: expected %s", path, what)
	}
	return &capped{f: f, left: max, name: path, what: what, max: max}, nil
}

// missing is a file that is not there: os.ErrNotExist, said plainly.
type missing struct{ path, what string }

func (m *missing) Error() string { return fmt.Sprintf("%s: no such file: expected %s", m.path, m.what) }
func (m *missing) Unwrap() error { return os.ErrNotExist }

// capped reads a file up to a cap.
type capped struct {
	f         *os.File
	left, max int64
	name      string
	what      string
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more than allowed tells a file at the cap from one over it.
		var one [1]byte
		if n, _ := c.f.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%s: more than the %d bytes a %s may have", c.name, c.max, c.what)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", c.name, err)
	}
	return n, err
}

func (c *capped) Close() error { return c.f.Close() }

// Read reads r to its end, or fails once it has given more than max bytes
// (a file that grew, or a stream); name is used in the message.
func Read(r io.Reader, name string, max int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes a %s may have", name, max, what)
	}
	return data, nil
}

// Kind names what a path that is not a regular file is ("a device").
func Kind(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a file"
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
