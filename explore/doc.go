// Package explore surveys the contact forces that can hold an assembly of
// rigid bodies in equilibrium ([M04] section 3.1). With dry friction they
// are not unique: the set of admissible forces is the polyhedron C cap A
// (C the product of the friction cones, A the affine set of the bodies'
// equilibrium), and each contact's possible forces are its projection, a
// convex polygon in the (R_T, R_N) plane. Re-running the one-step contact
// problem by nonlinear Gauss-Seidel with random initial guesses, or with a
// random order of the contacts, samples it (Survey.Run); linear
// programming gives it exactly (Survey.Admissible), so that the samples
// can be checked against it and their coverage measured.
//
// It is a package of its own because it joins three that must not know
// each other's business: rigid (the bodies, their equilibrium rows),
// timestep (the problem of one step and its Delassus operator), signorini
// (NLGS), and gonum's simplex.
//
// Forces are per m of thickness (N/m), the impulses of a step of length h
// divided by h.
package explore
