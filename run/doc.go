// Package run runs a scene to its end with the outputs of a run: the
// series, history, pictures and summary that io/results writes, the
// scene as run, progress, warnings as they come, interruption at a
// consistent point, checkpoints (checkpoint.gob) from which Resume goes
// on bit for bit, and the figures a parameter study gathers. It is what
// `fecontact run` does, as one library call (Scene, Resume), so that a program
// that embeds fecontact, a sweep or a cluster's job runs a scene the same
// way the command does; cmd/fecontact only wires flags to it and prints.
//
// It is a package of its own because it ties the others together
// (scene builds, timestep steps, io/results writes) and none of them
// should depend on all the rest.
package run
