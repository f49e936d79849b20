// Package friction holds the bound on a friction coefficient that the
// contact geometry (package contact, which refuses it in a pair) and the
// solver (package signorini, which refuses it in a problem) share, so
// that neither imports the other for it.
package friction

// MaxMu is the largest friction coefficient a contact takes. A contact
// with mu = 1000 slides only under a tangential impulse a thousand times
// its normal one, which is sticking for any practical purpose; beyond it
// the solver's convergence measure, whose natural map holds mu |u_T|,
// is swamped by the round-off in a sticking contact's sliding velocity
// (the colliding blocks leave steps unconverged from mu = 1e4 on).
const MaxMu = 1e3
