// Package scene reads fecontact's scene files (TOML) and builds the
// simulation they describe: bodies (generated rectangles or Gmsh meshes,
// material, fixed groups, initial velocity, gravity, damping), rigid
// obstacles and their motion, contact pairs, time stepping, solver and
// output settings.
//
// It is a package of its own because the file format is a responsibility
// apart from the numerics (timestep must not know file formats) and from
// the command line (cmd/fecontact only wires packages): the library user who
// wants scene files imports it, the one who builds bodies in Go does not.
//
// A kind of body of a program's own reads its own array of tables through
// the registry of kinds.go (Register): the scene decodes it with the
// kind's table type, refuses its unknown keys like its own, and gives the
// bodies it builds to the simulation (Model.Kinds).
//
// Every value is checked; a wrong one is an error naming the file, the key
// (with the body, contact or obstacle it belongs to) and what was expected.
// Unknown keys are errors, not ignored. See docs/guide.md for an annotated
// scene.
package scene
