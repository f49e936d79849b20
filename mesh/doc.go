// Package mesh owns the geometry and topology of a 2D finite-element mesh:
// nodes, cells of kind T3, Q4, T6 and Q8, named node, edge and cell groups,
// boundary edges, structured generators and the Gmsh ASCII reader.
//
// It knows nothing of physics: shape functions, Jacobians and materials live
// in package element, which imports this one.
//
// Conventions, written once here and used everywhere:
//
//   - Node order within a cell is the one Gmsh and VTK share: corners
//     counter-clockwise, then for quadratic cells the mid-side nodes, mid-side
//     node nc+s sitting on side s between corners s and (s+1) mod nc.
//   - An Edge lists its end nodes first and its mid-side node last (Gmsh's
//     3-node line order). Boundary edges are oriented so that the cell lies on
//     the left when walking from Nodes[0] to Nodes[1]; the outward unit normal
//     is then (dy, -dx)/length.
//   - Coordinates are in metres; nothing here assumes a unit, but the rest of
//     fecontact works in SI.
//
// Bad input is reported as an error naming the file and line (for meshes read
// from a file) and the cell, node or group at fault.
package mesh
