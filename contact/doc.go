// Package contact owns the geometry of contact (docs/design.md sections 4-5):
// candidate boundaries of deformable bodies, their antagonists (a boundary
// of another body, or a rigid obstacle with prescribed motion), detection by
// a broad phase (uniform grid; every box for few entries and queries) and a
// narrow phase (closest point), local frames, gaps, the pairing matrix P_ij
// of [JM91] section 8, and the contact operator H that maps the bodies'
// velocities to local relative velocities. It does not know how contact is
// solved.
//
// Bracketed keys ([JM91]) are the papers of docs/references.md.
//
// Conventions:
//
//   - A candidate node i of a Side is projected on the closest point x_a of
//     its antagonist. n is the antagonist's unit normal at x_a pointing to
//     the free side (towards the candidate when it is outside), t = (-n_y,
//     n_x), and the gap g = (x_c - x_a).n is negative for penetration.
//     Body boundary edges have the body on their left (mesh's convention),
//     so their outward normal is (dy, -dx)/L. Obstacle polylines have the
//     obstacle on their right: walking from the first to the last point the
//     free side is on the left, so a floor is listed left to right.
//   - Convex corners are rounded with zero radius: when the closest point of
//     an antagonist is one of its vertices and the candidate is outside the
//     face or past the vertex (beyond the end of the edge: at the free end of
//     a group, a point past the end and behind the face's line is outside the
//     body, e.g. a block sliding off the end of a floor falls instead of
//     riding an invisible extension), n = (x_c - x_vertex)/|x_c - x_vertex|
//     and g = |x_c - x_vertex|, so the normal turns continuously around the
//     corner. Near a convex vertex (within 1 % of its shorter edge, see
//     vertexFrame) the normal stays in the cone of the two faces' normals:
//     the nearer face, and where the geometry cannot tell a corner meeting
//     a corner from one sliding along a face, the face that the
//     candidate's own boundary faces. Nodes resting on vertices (matching
//     meshes) and corners meeting corners are resolved this way
//     (timestep's TestImpactMatrix and TestFrictionlessImpact).
//   - Valleys: near a concave vertex of the antagonist the body is the
//     union of the two faces' half-planes, and a candidate is out of it
//     only when it is out of both. Under the positional law a candidate
//     whose closest point lies on the half of an edge next to a valley
//     whose faces turn by more than 0.4 rad, and which is within the
//     alert distance of the other face's line, gets a second unit on that
//     face (a point unit with the node's weight, Key.Edge the other
//     edge): held against the nearer face alone, a corner ploughing a
//     dent goes through the rising face by what it travels in a step
//     (timestep's TestValley). Elsewhere in a valley, one unit on the face
//     of the smaller gap.
//   - A candidate is paired when its distance to the antagonist's closest
//     point is at most the pair's alert distance: a point deeper behind the
//     antagonist than that is not detected, so the alert distance must
//     exceed the penetration the time step can produce.
//   - A rigid body (package rigid) is an antagonist through the obstacle it
//     carries (Obstacle.Carried): its polygon as a closed polyline or its
//     disk, placed by Config.Poses, whose units act on the body's three
//     DOFs. The reverse pass then keeps the rigid body out of the side:
//     each polygon vertex against the side's edges (a point of the body,
//     with the vertex rules above and the polygon's edges as its own
//     faces), a disk against every edge whose closest point to its centre
//     is inside the edge (or the nearest vertex). These units are point
//     forces: weight 1, impulse in N s (the side must be 1 m thick, as the
//     rigid bodies' masses are per m).
//   - Contact units: one per candidate node j, with the reaction basis
//     function F_j (a hat: F_j = E_j on 2-node edges, half-edge linear hats on
//     3-node edges, non-negative in both cases). P_ij = integral over the
//     candidate boundary of E_i F_j da, in the reference configuration,
//     times the thickness (m^2). Basis Pairing uses P as it is; Basis Nodal
//     lumps each column onto the diagonal (P_jj = integral of F_j: the
//     tributary area of node j), which is node-to-segment contact with
//     forces concentrated at nodes. On 2-node edges both forms give the
//     consistent load of a uniform pressure; on 3-node edges only Pairing
//     does (1/6, 2/3, 1/6 of the edge load, against 1/4, 1/2, 1/4).
//   - Unit j exists when every node i of column j of P found an antagonist
//     within the alert distance (for Nodal: node j itself). Its local
//     velocity is U~_j = sum_i P_ij U_i, with U_i = ((v_c - v_a).n_i,
//     (v_c - v_a).t_i) in node i's frame; its gap g~_j = sum_i P_ij g_i.
//     H~_j = sum_i P_ij H_i holds the two rows (normal, tangent) of
//     U~_j = H~_j v + Rigid_j, where Rigid_j is the obstacle's velocity
//     term. The reaction R_j (Pa, N and T components) is the density
//     whose generalised force is H~_j' R_j, so an impulse P_j (Pa s) gives
//     nodal impulses H~_j' P_j (N s).
//   - Detector.Trace records what detection reads of a configuration: the
//     positions of the sides' nodes of Side.AllNodes (edges and flanks),
//     the poses of the bodies carrying obstacles, the time for moving
//     obstacles, and the pairs' friction and alert. Detector.Drift
//     measures how far another configuration is from it (relative to the
//     sides' shortest edges), so that a stepper can keep the units of a
//     configuration it reached to round-off instead of detecting again.
package contact
