// Package results writes what a run of a simulation leaves for its users:
// the bodies and the contact units as ParaView time series (VTU pieces in
// PVD collections, through io/vtk), the per-step history (CSV: energies,
// works, contact statistics, per pair forces, per body centroid and
// momenta), and the energy and deformed-bodies pictures.
//
// It is a package of its own, not part of the command, so that a program
// that embeds fecontact's packages writes the same files as `fecontact run`
// with the same calls: NewWriter, Record after every step, Close at the end
// (Abandon on failure), and Clear to remove an earlier run's files.
package results

// Format numbers what a run folder holds (its files, their columns and
// arrays) for the programs that read it: the Python package checks it.
// It changes when a file, a column or an array changes meaning or goes.
// Format 2: history.csv's "balance" (the ledger's constant, which users
// read as its error) became "total_energy", beside "balance_error", its
// drift from step 0.
const Format = 2
