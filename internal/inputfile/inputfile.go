// Package inputfile reads the input files a user names (scenes, states)
// with a size cap, so that a path such as /dev/zero or a mistaken
// multi-gigabyte file is refused at once with its name and size instead
// of being read until memory runs out. It is its own package because the
// scene decoder and the results' state reader, which share nothing else,
// both need it.
package inputfile

import (
	"fmt"
	"io"
	"os"
)

// ReadFile returns the contents of the regular file at path, or an error
// naming the file when it is not a regular file (a device, a pipe, a
// folder) or holds more than max bytes; what says what the file should
// be, for the message.
func ReadFile(path string, max int64, what string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s, not a file: expected %s", path, kind(fi.Mode()), what)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a %s may have", path, fi.Size(), max, what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, max, what)
}

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

// kind names what a path that is not a regular file is.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
