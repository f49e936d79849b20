// Package cholesky factorises sparse symmetric positive-definite matrices,
// A = P' L L' P, in pure Go: a fill-reducing nested-dissection ordering, a
// supernodal symbolic analysis and a multifrontal numeric factorisation whose
// dense kernels are gonum's BLAS and LAPACK.
//
// It is a package of its own, below assemble, because it knows nothing of
// finite elements: assemble supplies the matrix and (from node coordinates) a
// good ordering; timestep reuses one factor for every step (docs/design.md
// sections 1 and 8).
//
// The matrix is given in CSR form with both triangles stored (the form of
// assemble's matrices, csr.Matrix). The symbolic analysis is
// done once per pattern; Refactor reuses it for new values on the same
// pattern (a new time step h, a new material), and Solve, SolveTo and
// SolveMany use the factor for any number of right-hand sides.
package cholesky
