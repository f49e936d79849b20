// Package granular computes the measures a granular or masonry study
// reports of a sample of rigid grains at one time: coordination number
// (with and without rattlers), solid fraction, the fabric tensor of the
// contact normals and its anisotropy, the Love-Weber stress tensor and its
// invariants, the normal force distribution and the mobilised friction;
// and their means over a time window.
//
// It reads the grains and contacts as a run writes them (rigid.pvd and
// contacts.pvd, package io/vtk's Piece), so that the measures computed
// during a run and those computed afterwards from its folder are the same
// to the bit. It is a package of its own because it is the one place that
// knows what a grain, a rattler and a branch vector are; io/results writes
// what it returns.
//
// Conventions: 2D, per metre of thickness (forces in N/m, stresses in Pa
// for unit thickness); stress positive in tension (mechanics' sign), the
// pressure p = -(s_xx + s_yy)/2 positive in compression; a contact is
// force-carrying when its normal force exceeds 1e-9 of the sample's
// largest.
package granular
