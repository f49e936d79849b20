package run

import (
	"fmt"
	"io"

	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/signorini"
)

// exporter writes the contact problem of one step (Options.ExportStep)
// in the fc2d format into the run's folder. The step may solve several
// problems (a correction, Newton updates): each overwrites the file,
// which keeps the last, the one applied.
type exporter struct {
	files            *outdir.Folder // set once the folder is taken
	scene            string
	step             int
	next             func(int, *signorini.Problem) error // the caller's OnProblem
	contacts, solved int
}

func (e *exporter) name() string { return fmt.Sprintf("problem_%d.json", e.step) }

// onProblem is the simulation's OnProblem: the caller's, then the export.
func (e *exporter) onProblem(step int, p *signorini.Problem) error {
	if e.next != nil {
		if err := e.next(step, p); err != nil {
			return err
		}
	}
	if step != e.step || e.files == nil {
		return nil
	}
	path, err := e.files.Path(e.name())
	if err != nil {
		return err
	}
	if err := signorini.WriteProblem(path, fmt.Sprintf("%s step %d", e.scene, step), p); err != nil {
		return err
	}
	e.contacts, e.solved = p.W.Contacts(), e.solved+1
	return nil
}

// report says what was exported, in the summary.
func (e *exporter) report(w io.Writer) {
	if e.solved > 0 {
		fmt.Fprintf(w, "wrote %s (%d contacts; the last of the %d problems step %d solved, the one whose solution it applied)\n", e.name(), e.contacts, e.solved, e.step)
	}
}
