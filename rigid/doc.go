// Package rigid owns rigid bodies: convex polygons and disks with three
// degrees of freedom (the centre of mass x, y and the rotation), their
// mass properties, their state and its theta-method update, and the
// contacts between them (a broad phase on a uniform grid, linear in the
// number of bodies, and the narrow phases polygon-polygon, disk-disk and
// disk-polygon).
//
// It is a package of its own because a rigid body is neither a mesh nor a
// finite-element space: its kinematics (a point's velocity is v + omega
// x r), its compliance (the inverse of diag(m, m, I)) and its contact
// geometry (vertices, faces and circles in a pose) share nothing with
// packages mesh, assemble and contact's boundary sides. What it shares is
// the contact unit: Detect returns contact.Unit values whose rows H~ act on
// the bodies' three DOFs, so that package timestep solves rigid and
// deformable contacts in one Signorini-Coulomb problem.
//
// Conventions:
//
//   - A body's DOFs are (x, y, phi): its centre of mass and its rotation
//     from the pose it was given (counter-clockwise positive), and its
//     velocity (vx, vy, omega). A material point at r from the centre moves
//     at v + omega (-r_y, r_x).
//   - Masses, forces and impulses are per m of thickness (a plane-strain
//     slice): an impulse is in N s per m.
//   - Polygons are convex, their vertices listed counter-clockwise; the
//     outward normal of edge k (vertex k to k+1) is (dy, -dx)/L.
//   - A contact is a point of the candidate body, its normal n pointing
//     from the antagonist to the candidate, t = (-n_y, n_x), and its gap
//     (negative in penetration). Two polygons touching along a segment are
//     held at the segment's two ends ([JM91] section 9, [M04] section 3):
//     the separating axis of largest separation gives the reference face,
//     the other polygon's most opposed face is clipped to it, and the ends
//     within the alert distance are the contact points. A disk meets a
//     polygon at the polygon's closest point (a vertex rounds the normal).
//   - A driven body follows a prescribed translation (contact.Motion) and
//     does not rotate; its velocity enters a unit as a known term (Rigid,
//     like an obstacle's), so it has no DOFs in the contact problem and its
//     work on the others is booked as obstacle work.
//   - Which bodies touch, and by which law and friction coefficient, is
//     given by Rules on the bodies' groups: two bodies that no rule names
//     do not interact.
package rigid
