// Package discrete owns point masses and the springs and dashpots between
// them: the discrete systems of [TG] (a point mass's frictional impact,
// eq. 3.44) and [Leger] (Klarbring's mass on coupled springs), and the
// lumped parts of a larger model (a mass on a spring hitting an elastic
// block).
//
// It is a package of its own because a point mass is neither a mesh nor a
// rigid body: it has two DOFs and no rotation, its springs couple masses
// into systems whose stiffness is a small dense matrix, and its contact
// geometry is a disc (radius 0: a point) against obstacles. What it
// shares with the other kinds is the contact unit: Detect returns
// contact.Unit values whose rows act on the masses' x and y, so that
// package timestep solves them in the same Signorini-Coulomb problem
// (SimOptions.Points).
//
// Conventions:
//
//   - Masses, forces and impulses are per m of thickness, as for rigid
//     bodies: a mass in kg/m, a force in N/m.
//   - Springs are linear: their force is linear in the displacements from
//     the positions the masses were given, along the spring's direction
//     there (k n n'), or a given 2 x 2 stiffness (Klarbring's K). A rest
//     length other than the initial length is a preload k (L0 - rest) n.
//     This is the small-displacement model of the finite-element bodies:
//     a spring that turns far keeps its first direction.
//   - Masses that springs join form one body of the contact step (a
//     component): its compliance, (M + h theta C + h^2 theta^2 K)^-1, is
//     dense on its 2n DOFs and exact, so the theta-method step is exact
//     for it and the ledger closes to round-off.
//
// The energy account per component: Kinetic v'Mv/2, Elastic u'Ku/2 plus
// the preloads' energy, External the work of gravity and applied forces,
// Damping h v_theta' C v_theta, Numerical (theta - 1/2)(dv'M dv + du'K du)
// (0 at theta = 1/2), Contact r'v_theta.
package discrete
