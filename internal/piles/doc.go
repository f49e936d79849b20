// Package piles builds the granular piles that the tests and benchmarks of
// rigid and explore step and survey: a box of fixed walls, equal disks in
// the triangular packing, and a geometric deposit of disks of random radii
// (LMGC90's deposit case). It is its own package because two packages'
// tests share these fixtures; nothing outside the module's tests uses it.
package piles
