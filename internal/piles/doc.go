// Package piles builds the rigid-body set-ups that the tests and
// benchmarks of several packages (rigid, explore, discrete) share: a box
// of fixed walls, equal disks in the triangular packing, a geometric
// deposit of disks of random radii (LMGC90's deposit case), and a box
// resting on a fixed ground. It is its own package because those tests
// live in different packages; outside the module's tests only the deposit
// (Pile) is used, by the scene's [[grains]] placement = "deposit".
package piles
