package abi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/timestep"
)

// maxState bounds a state file read back (it is read whole).
const maxState = 4 << 30

// Save writes the simulation's state to the file path, whole or not at all
// (a file written beside it and renamed; a folder, a device or a link at
// path refused): Restore on a simulation opened from the same scene goes
// on from it bit for bit.
func Save(h Handle, path string) Code {
	return call(h, func(e *entry) (Code, error) {
		if e.failed != "" {
			return refuse(ErrFailed, "the simulation failed earlier (%s): its state is not one to save", e.failed)
		}
		if err := atomicfile.Write(path, func(w io.Writer) error { return e.sim.SaveState(w) }); err != nil {
			return ErrFile, err
		}
		return OK, nil
	})
}

// Restore reads a state Save wrote into the simulation, which must have
// been opened from the same scene (another is refused); it also restores
// a failed simulation. A state refused, or damaged half way, leaves the
// simulation as it was.
func Restore(h Handle, path string) Code {
	return call(h, func(e *entry) (Code, error) {
		data, err := inputfile.ReadFile(path, maxState, "simulation state (fec_save, Simulation.save)")
		if err != nil {
			return ErrFile, err
		}
		var before bytes.Buffer
		if e.failed == "" {
			if err := e.sim.SaveState(&before); err != nil {
				return ErrInternal, err
			}
		}
		if err := e.sim.LoadState(bufio.NewReader(bytes.NewReader(data))); err != nil {
			if e.failed == "" {
				if back := e.sim.LoadState(bufio.NewReader(&before)); back != nil {
					e.failed = "a state that did not load"
				}
			}
			return ErrFile, fmt.Errorf("%s: %w", path, err)
		}
		e.failed, e.last = "", timestep.StepStats{Time: e.sim.Time()}
		return OK, nil
	})
}
