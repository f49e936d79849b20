// Package kind is the seam between the contact step and the kinds of body
// it drives: what a kind of body (a Family) and the contact units it
// brings (a Source) answer to a step that never names them.
//
// A Simulation (package timestep) holds its kinds in a list, numbers their
// bodies in one global range, families one after the other, and calls
// each through these interfaces: the finite-element bodies, the rigid
// bodies (rigid.NewKind), the point masses (discrete.NewKind), and any
// other an embedding program brings (timestep.SimOptions.Kinds). A new kind
// of body is one package that implements Kind, and one line where the
// kinds are listed; the step, the solver and the checkpoint take it as
// they take the others. It is the counterpart of Chrono's ChPhysicsItem and
// of LMGC90's per-body-kind modules (RBDY2, mecaMAILx), cut to what one
// contact step needs.
//
// It is a package of its own so that each kind implements the seam beside
// its own physics (rigid/kind.go, discrete/kind.go) without importing the
// step, and the step without importing any kind's internals.
package kind
