// Package team shares the phases of a parallel sweep between the cores:
// a caller and one goroutine per other core, each phase's items handed
// out so that a member the system has not scheduled holds nobody up, and
// the caller working alone where the team proves slower (a node whose
// cores other programs share). It is the solver's scheduler, kept out of
// the solver (package signorini's coloured NLGS is its one user) as
// Box2D keeps its scheduler in a file of its own that an embedding
// program may replace: who does an item never changes what it computes.
package team
