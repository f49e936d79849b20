package results

import (
	"github.com/fecontact/fecontact/io/vtk"
)

// pieces encodes and writes an output step's ParaView pieces beside the
// stepper: the steps go on while the last output's pieces are encoded
// (base64 of every field) and renamed into place, which took a third of
// the colliding blocks' run at refine 4 on the step's path.
//
// At most one output step's pieces are in flight, and nothing of the run
// waits for them but what reads them: the Writer waits before it asks
// the kinds for the next grids (which a kind may build in storage it
// reuses) and before it writes a .pvd collection (writeLists: the
// checkpoint, Close and Abandon write them), so that a collection lists
// only pieces that are whole on the disk, as when they were written on
// the step's path, and an interrupted or killed run's folder holds what it
// held then. Each output step has a goroutine of its own, which ends with
// its pieces: a Writer never closed (an embedding program's) leaves none
// running.
type pieces struct {
	queue []piece
	done  chan error // the output step in flight's; nil when none
	err   error      // the first piece that failed: kept, so that no collection lists it
}

// piece is a grid to write, as a file of its path.
type piece struct {
	path string
	grid *vtk.Grid
	enc  vtk.Encoding
}

// add queues a piece of the output step being built.
func (p *pieces) add(path string, g *vtk.Grid, enc vtk.Encoding) {
	p.queue = append(p.queue, piece{path, g, enc})
}

// start writes the queued pieces, in their order, beside the caller,
// after those in flight.
func (p *pieces) start() {
	if len(p.queue) == 0 || p.err != nil {
		p.queue = nil
		return
	}
	queue, before, done := p.queue, p.done, make(chan error, 1)
	p.queue, p.done = nil, done
	go func() {
		var err error
		if before != nil {
			err = <-before
		}
		for _, pc := range queue {
			if err != nil {
				break
			}
			err = vtk.WriteVTU(pc.path, pc.grid, pc.enc)
		}
		done <- err
	}()
}

// wait writes what is queued (an output step cut short by an error
// listed its pieces as it queued them) and waits for the pieces in flight.
// It returns the first error of their writing, then and at every call
// after: the collections list the pieces as they are queued, and are not
// written again once one is missing.
func (p *pieces) wait() error {
	p.start()
	if p.done != nil {
		p.err, p.done = <-p.done, nil
	}
	return p.err
}
