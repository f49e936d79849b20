// Package element owns what happens inside one cell: reference shapes,
// shape functions and their derivatives, Gauss rules, isotropic linear
// elasticity (plane strain or plane stress, with thickness), the element
// stiffness, consistent and lumped mass, body and edge loads, and stresses;
// and hyperelastic laws in plane strain (St Venant-Kirchhoff and a
// compressible neo-Hookean, [BRF] eqs. 5 and 6) with the total Lagrangian
// internal force, consistent tangent and stored energy of a cell
// (Hyperelastic, Element.Hyper), at every point or on the cell's mean
// dilatation against volumetric locking (Dilatation, mean.go).
//
// It knows cells only through their kind (mesh.Kind) and node coordinates;
// global numbering and sparse storage belong to package assemble.
//
// Conventions:
//
//   - Reference triangles are (0,0), (1,0), (0,1); reference quadrangles are
//     [-1,1]^2. Node order is mesh's (corners counter-clockwise, then
//     mid-side nodes). Edges are parametrised by s in [-1,1], nodes at
//     s = -1, +1, then the mid-side node at s = 0.
//   - Element vectors and matrices are ordered node-major: local DOF 2a+c is
//     component c (0 = x, 1 = y) of node a. Matrices are dense, row-major.
//   - Strain and stress are in Voigt order (xx, yy, xy) with engineering
//     shear strain gamma_xy = 2 eps_xy.
//   - The lumped mass is HRZ (Hinton, Rock and Zienkiewicz 1976): the
//     diagonal of the consistent mass scaled to the element's total mass. It
//     keeps every nodal mass positive for T6 and Q8, where row-sum lumping
//     gives zero or negative corner masses.
package element
