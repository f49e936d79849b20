// Package assemble owns the global, per-body view of a finite-element
// model: the DOF map (2 DOFs per node, node-major, fixed DOFs eliminated),
// the sparse pattern built once from the connectivity, the global stiffness
// and mass matrices in CSR form (package csr, our own), load
// vectors (body forces, gravity, edge tractions, imposed displacements),
// the fill-reducing ordering handed to package cholesky, the recovery of
// nodal stresses, and for hyperelastic bodies the internal force, tangent
// stiffness and stored energy at a displacement (Space.Hyper, on the same
// pattern, so that a Newton loop refactorises with the symbolic analysis
// it already has).
//
// A Space is the object a caller holds: one mesh, one DOF map, one pattern.
// Every matrix it assembles has the same pattern with sorted columns, so
// matrices combine entrywise (Combine) and one symbolic factorisation serves
// M, K and any M + c K.
//
// Vectors come in two sizes: "free" vectors have one entry per equation
// (Space.N()), "full" vectors one per node and component (2 x nodes, index
// 2*node+c). Expand fills a full vector from a free one.
package assemble
