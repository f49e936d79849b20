package kind

// Iterated is a family whose step iterates (a hyperelastic body's Newton
// solve), optional: the counts of its last step go into the step's
// statistics.
type Iterated interface {
	// Iterates tells whether any of the family's bodies iterates (the
	// history then has a column of iterations).
	Iterates() bool
	// Iterations is the most iterations a body of the family took.
	Iterations() int
	// Factorisations counts the factorisations the step made.
	Factorisations() int
}

// Warner is a family that notices when its model stops being right for a
// body (a linear body turned past small rotations), optional: the
// simulation passes each warning on once per key, and keeps the keys it
// gave in its checkpoint.
type Warner interface {
	// Warnings are the family's warnings at time t, each with the key
	// that says which are the same (a body's name).
	Warnings(t float64) []Warning
}

// Warning is one warning of a Warner.
type Warning struct {
	Key, Text string
}
