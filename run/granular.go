package run

import (
	"fmt"
	"path/filepath"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
)

// Granular measures the grains of a finished run's folder at each of its
// output times (rigid.pvd and contacts.pvd, read back exactly) and writes
// granular.csv, forces.png and fabric.png into it: the same, to the bit,
// as a run with [output] granular of the same region and window writes.
// It returns the series.
func Granular(dir string, o granular.Options) (*granular.Series, error) {
	rigid, err := vtk.ReadPVD(filepath.Join(dir, "rigid.pvd"))
	if err != nil {
		return nil, fmt.Errorf("%w (a run with rigid bodies writes rigid.pvd)", err)
	}
	contacts, err := vtk.ReadPVD(filepath.Join(dir, "contacts.pvd"))
	if err != nil {
		return nil, err
	}
	if len(rigid) != len(contacts) {
		return nil, fmt.Errorf("%s: rigid.pvd lists %d pieces, contacts.pvd %d: expected one of each per output time", dir, len(rigid), len(contacts))
	}
	files, err := outdir.Reopen(dir, "run", outdir.Options{})
	if err != nil {
		return nil, err
	}
	defer files.Close()
	sr := granular.NewSeries(o)
	for k, e := range rigid {
		if contacts[k].Time != e.Time {
			return nil, fmt.Errorf("%s: piece %d of rigid.pvd is at t = %g s, of contacts.pvd at %g s", dir, k+1, e.Time, contacts[k].Time)
		}
		rp, err := vtk.ReadVTU(e.File)
		if err != nil {
			return nil, err
		}
		cp, err := vtk.ReadVTU(contacts[k].File)
		if err != nil {
			return nil, err
		}
		if err := sr.Add(e.Time, rp, cp); err != nil {
			return nil, fmt.Errorf("%s: %w", e.File, err)
		}
	}
	if err := results.WriteGranular(files, sr, plots.Painter{}); err != nil {
		return nil, err
	}
	return sr, nil
}
