// Package abi is what a program outside Go asks of a simulation, with Go's
// types: the semantics of the C ABI (cmd/libfecontact, fecontact.h) and of
// Python's in-process Simulation, in pure Go so that they are tested
// without cgo.
//
// A simulation is held by a Handle, never by a pointer: a handle freed, or
// never made, is refused with ErrHandle; calls on one simulation from two
// threads take turns (each holds its simulation's lock). Every call
// returns a Code, OK or the kind of refusal, and leaves its message for
// Message; a state, a force or an index out of range is refused before
// anything changes; a panic (a bug) becomes ErrInternal with its message
// instead of killing the embedding program. A step that fails leaves the
// simulation failed: Restore a checkpoint or Free it.
//
// It is a package of its own because neither the step (timestep) nor the
// scene should know of handles and codes, and cgo's exports are best a
// thin layer over plain Go that the tests and staticcheck see.
package abi
