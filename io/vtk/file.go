package vtk

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/internal/atomicfile"
)

// WriteFile writes a file atomically (see package atomicfile): a crashed
// run never leaves a truncated file under the final name. It does not
// wait for the disk (atomicfile.WriteUnsynced): a run writes thousands.
func WriteFile(path string, write func(w io.Writer) error) error {
	if err := atomicfile.WriteUnsynced(path, write); err != nil {
		return fmt.Errorf("vtk: %w", err)
	}
	return nil
}

// WriteVTU writes a grid to path atomically.
func WriteVTU(path string, g *Grid, enc Encoding) error {
	return WriteFile(path, func(w io.Writer) error { return EncodeVTU(w, g, enc) })
}

// Collection is a PVD time collection: a list of (time, part, file)
// entries, the files named relative to the .pvd.
type Collection struct {
	entries []Entry
}

// Entry is one piece of a Collection: its time, part and file.
type Entry struct {
	Time float64
	Part int
	File string
}

// Entries returns the collection's pieces (a copy), for a checkpoint of a
// run; SetEntries puts them back.
func (c *Collection) Entries() []Entry { return append([]Entry(nil), c.entries...) }

// SetEntries replaces the collection's pieces.
func (c *Collection) SetEntries(es []Entry) { c.entries = append([]Entry(nil), es...) }

// Add records a file for a time step; part numbers pieces written for the
// same time (0 when there is one).
func (c *Collection) Add(time float64, part int, file string) {
	c.entries = append(c.entries, Entry{time, part, file})
}

// Write writes the collection to path atomically.
func (c *Collection) Write(path string) error {
	for _, e := range c.entries {
		if err := xmlName(e.File); err != nil {
			return fmt.Errorf("vtk: %s: file name: %w", path, err)
		}
	}
	return WriteFile(path, func(w io.Writer) error {
		if _, err := fmt.Fprint(w, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n<Collection>\n"); err != nil {
			return err
		}
		for _, e := range c.entries {
			if _, err := fmt.Fprintf(w, "<DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"%s\"/>\n", e.Time, e.Part, xmlEscape(e.File)); err != nil {
				return err
			}
		}
		_, err := fmt.Fprint(w, "</Collection>\n</VTKFile>\n")
		return err
	})
}
