package run

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/plots"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/scene"
)

// MaxGranularTimes bounds the output times fecontact granular reads from
// a run's folder: two pieces a time, each read whole (200 000 took it
// past a minute before anything was said).
const MaxGranularTimes = 50000

// GranularRequest is what fecontact granular measures and where it
// writes.
type GranularRequest struct {
	Run string // the run's folder, read only
	Out string // the folder granular.csv, forces.png and fabric.png go to
	// Options are the region and window; nil: the run's scene's [output]
	// granular, or every grain and output time if it has none.
	Options *granular.Options
	Folder  outdir.Options // how Out is taken
}

// Granular measures the grains of a finished run's folder at each of its
// output times (rigid.pvd and contacts.pvd, read back exactly) and writes
// granular.csv, forces.png and fabric.png into another folder, never the
// run's own (whose summary describes the run's): the same, to the bit,
// as a run with [output] granular of the same region and window writes.
// It returns the series and the warnings (a picture not drawn, a region
// without grains).
func Granular(req GranularRequest) (*granular.Series, []string, error) {
	dir := req.Run
	if req.Out == "" {
		return nil, nil, fmt.Errorf("no output folder: give one (-o DIR); the run's own granular.csv and pictures stay as the run wrote them")
	}
	if same(req.Out, dir) {
		return nil, nil, fmt.Errorf("output folder %s is the run's own: its granular.csv and pictures are the run's, which its summary describes; give another folder (-o DIR)", req.Out)
	}
	o, err := granularOptions(req)
	if err != nil {
		return nil, nil, err
	}
	rigid, contacts, err := granularPieces(dir)
	if err != nil {
		return nil, nil, err
	}
	sr := granular.NewSeries(*o)
	for k, e := range rigid {
		rp, err := vtk.ReadVTU(e.File)
		if err != nil {
			return nil, nil, err
		}
		cp, err := vtk.ReadVTU(contacts[k].File)
		if err != nil {
			return nil, nil, err
		}
		s, err := results.SampleOf(e.Time, rp, cp)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", e.File, err)
		}
		sr.Add(s)
	}
	warnings, err := writeGranular(req, sr)
	return sr, warnings, err
}

// granularOptions are the request's, or the run's scene's.
func granularOptions(req GranularRequest) (*granular.Options, error) {
	if req.Options != nil {
		return req.Options, nil
	}
	path := filepath.Join(req.Run, SceneAsRun)
	text, err := inputfile.ReadFile(path, scene.MaxSceneBytes, "scene file (TOML), as the run kept it")
	if err != nil {
		return nil, fmt.Errorf("%w (give --window and --region, or the folder of a run)", err)
	}
	sc, err := scene.Decode(bytes.NewReader(text), path)
	if err != nil {
		return nil, err
	}
	if g := sc.Output.Granular; g != nil {
		return GranularOptions(g.Region, g.Window, g.Surface), nil
	}
	return &granular.Options{}, nil
}

// granularPieces are the run's rigid.pvd and contacts.pvd entries, one of
// each per output time.
func granularPieces(dir string) (rigid, contacts []vtk.Entry, err error) {
	rigid, err = vtk.ReadPVD(filepath.Join(dir, "rigid.pvd"))
	if err != nil {
		return nil, nil, fmt.Errorf("%w (a run with rigid bodies writes rigid.pvd)", err)
	}
	if len(rigid) > MaxGranularTimes {
		return nil, nil, fmt.Errorf("%s: %d output times, more than the %d fecontact granular reads: run again with a larger [output] every, or with [output] granular, which measures while it runs", filepath.Join(dir, "rigid.pvd"), len(rigid), MaxGranularTimes)
	}
	contacts, err = vtk.ReadPVD(filepath.Join(dir, "contacts.pvd"))
	if err != nil {
		return nil, nil, err
	}
	if len(rigid) != len(contacts) {
		return nil, nil, fmt.Errorf("%s: rigid.pvd lists %d pieces, contacts.pvd %d: expected one of each per output time", dir, len(rigid), len(contacts))
	}
	for k, e := range rigid {
		if contacts[k].Time != e.Time {
			return nil, nil, fmt.Errorf("%s: piece %d of rigid.pvd is at t = %g s, of contacts.pvd at %g s", dir, k+1, e.Time, contacts[k].Time)
		}
	}
	return rigid, contacts, nil
}

// writeGranular writes the series into the request's folder.
func writeGranular(req GranularRequest, sr *granular.Series) ([]string, error) {
	files, _, err := outdir.Create(req.Out, "granular", req.Folder)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	var warnings []string
	if w := sr.Empty(); w != "" {
		warnings = append(warnings, w)
	}
	pictures, err := results.SplitPictures(results.WriteGranular(files, sr, plots.Painter{}))
	return append(warnings, pictures...), err
}

// same reports whether two paths name one folder.
func same(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
