package abi

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/fecontact/fecontact/timestep"
)

// Code is a call's outcome: OK, or the kind of refusal (fecontact.h's
// FEC_E* constants, the same numbers).
type Code int32

// The codes; their numbers are the C ABI's and never change.
const (
	OK          Code = 0
	ErrHandle   Code = 1 // not a live simulation
	ErrArgument Code = 2 // an index, a length or a value out of range
	ErrScene    Code = 3 // the scene was refused
	ErrStep     Code = 4 // a step failed: the simulation is failed
	ErrFile     Code = 5 // a checkpoint could not be written or read
	ErrState    Code = 6 // a state or force the body cannot take
	ErrFailed   Code = 7 // the simulation failed earlier: Restore or Free
	ErrInternal Code = 8 // a bug (a panic caught): please report it
)

var codeNames = [...]string{"OK", "ErrHandle", "ErrArgument", "ErrScene", "ErrStep", "ErrFile", "ErrState", "ErrFailed", "ErrInternal"}

func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("Code(%d)", int32(c))
}

// Handle names a simulation; 0 is none.
type Handle uint64

// entry is a live simulation and what its calls left.
type entry struct {
	mu      sync.Mutex
	sim     *timestep.Simulation
	e0      float64 // the ledger's total when opened (Energy.BalanceError)
	last    timestep.StepStats
	failed  string // why the simulation cannot step, "" while it can
	message string
}

// table holds the live simulations; message is the last message of a call
// that had no live simulation to keep it (an open that failed, a bad
// handle).
var table = struct {
	sync.Mutex
	next    Handle
	sims    map[Handle]*entry
	message string
}{sims: map[Handle]*entry{}}

// Message is the message of handle h's last call that failed ("" after
// one that succeeded), or, for 0 or a handle not live, of the last call
// that had no simulation to keep it.
func Message(h Handle) string {
	table.Lock()
	e, ok := table.sims[h]
	msg := table.message
	table.Unlock()
	if !ok {
		return msg
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.message
}

// Free ends the simulation of handle h; the handle is dead from then on.
func Free(h Handle) Code {
	table.Lock()
	_, ok := table.sims[h]
	delete(table.sims, h)
	table.Unlock()
	if !ok {
		return orphan(ErrHandle, badHandle(h))
	}
	return OK
}

// Live is the number of live simulations (a leak shows here).
func Live() int {
	table.Lock()
	defer table.Unlock()
	return len(table.sims)
}

func badHandle(h Handle) error {
	if h == 0 {
		return errors.New("handle 0: no simulation (open one first)")
	}
	return fmt.Errorf("handle %d: no such simulation (freed, or never opened)", h)
}

// orphan keeps the message of a call without a simulation.
func orphan(c Code, err error) Code {
	table.Lock()
	defer table.Unlock()
	table.message = ""
	if err != nil {
		table.message = err.Error()
	}
	return c
}

// add makes a handle for a new simulation.
func add(sim *timestep.Simulation) Handle {
	table.Lock()
	defer table.Unlock()
	table.next++
	table.sims[table.next] = &entry{sim: sim, e0: sim.TotalEnergy().Balance()}
	table.message = ""
	return table.next
}

// call runs f on handle h's simulation under its lock, keeps its message,
// and turns a panic into ErrInternal.
func call(h Handle, f func(e *entry) (Code, error)) (code Code) {
	table.Lock()
	e, ok := table.sims[h]
	table.Unlock()
	if !ok {
		return orphan(ErrHandle, badHandle(h))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			e.failed = fmt.Sprintf("an internal error: %v", r)
			e.message = fmt.Sprintf("fecontact internal error (a bug, please report it with the scene): %v\n%s", r, debug.Stack())
			code = ErrInternal
		}
	}()
	code, err := f(e)
	e.message = ""
	if err != nil {
		e.message = err.Error()
	}
	return code
}

// refuse is a call's refusal with its message.
func refuse(c Code, format string, a ...any) (Code, error) {
	return c, fmt.Errorf(format, a...)
}

// Invalid keeps the message of a refusal the caller's layer found before
// calling (a negative length, a null pointer where an array is needed)
// as handle h's (the process-wide message for 0 or a dead handle), and
// returns ErrArgument.
func Invalid(h Handle, format string, a ...any) Code {
	table.Lock()
	_, ok := table.sims[h]
	table.Unlock()
	if !ok {
		return orphan(ErrArgument, fmt.Errorf(format, a...))
	}
	return call(h, func(*entry) (Code, error) { return refuse(ErrArgument, format, a...) })
}
