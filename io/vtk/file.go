package vtk

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/internal/atomicfile"
)

// WriteFile writes a file atomically (see package atomicfile): a crashed
// run never leaves a truncated file under the final name.
func WriteFile(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
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
	entries []entry
}

type entry struct {
	time float64
	part int
	file string
}

// Add records a file for a time step; part numbers pieces written for the
// same time (0 when there is one).
func (c *Collection) Add(time float64, part int, file string) {
	c.entries = append(c.entries, entry{time, part, file})
}

// Write writes the collection to path atomically.
func (c *Collection) Write(path string) error {
	for _, e := range c.entries {
		if err := xmlName(e.file); err != nil {
			return fmt.Errorf("vtk: %s: file name: %w", path, err)
		}
	}
	return WriteFile(path, func(w io.Writer) error {
		if _, err := fmt.Fprint(w, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n<Collection>\n"); err != nil {
			return err
		}
		for _, e := range c.entries {
			if _, err := fmt.Fprintf(w, "<DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"%s\"/>\n", e.time, e.part, xmlEscape(e.file)); err != nil {
				return err
			}
		}
		_, err := fmt.Fprint(w, "</Collection>\n</VTKFile>\n")
		return err
	})
}
