// Package vtk writes what ParaView opens: VTK XML unstructured grids (.vtu)
// and PVD time collections (.pvd).
//
// A Grid is points, cells and named point and cell fields. Cells are the
// mesh kinds, written as VTK types 5 (T3), 9 (Q4), 22 (T6) and 23 (Q8); mesh
// and VTK share the node order of all four, so connectivity is copied as it
// is. Points are written with z = 0 and vector fields with 3 components (the
// caller gives 2, z = 0 is added) so that ParaView's Warp By Vector works.
//
// Encodings: inline base64 binary (the default: compact and valid XML),
// appended raw binary (smallest and fastest), or ASCII (readable). Every
// file is written to a temporary file in the same folder and renamed into
// place, so a crashed run never leaves a truncated file under the final name.
//
// The package knows nothing about solvers; callers turn their state into
// fields.
package vtk
