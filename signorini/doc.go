// Package signorini solves 2D frictional contact problems: the
// single-contact Signorini-Coulomb solve, piecewise affine (open, stick,
// slide forward, slide backward), and the nonlinear Gauss-Seidel (NLGS)
// sweep of Jean and Moreau over contacts (docs/design.md sections 6-7), with
// the exploration of non-unique solutions of Moreau [M04] (the papers of
// docs/references.md).
//
// A problem has n contacts; contact a has a reaction (impulse) r_a =
// (r_N, r_T) and a local velocity u_a = q_a + sum_b W_ab r_b, normal first.
// The law at contact a, with friction coefficient mu_a and a normal shift
// s_a, is
//
//	r_N >= 0,  u_N + s >= 0,  r_N (u_N + s) = 0,
//	|r_T| <= mu r_N,  |r_T| < mu r_N => u_T = 0,  u_T != 0 => r_T = -mu r_N sign(u_T).
//
// s = 0 is the velocity-level (shock) law; the positional Signorini law of
// the theta-method, g_{i+1} = g_i + h (theta U_N,i+1 + (1-theta) U_N,i) >= 0,
// is the same law with s = ((1-theta) U_N,i + g_i/h)/theta. The solver knows
// only s, so one problem can mix both laws.
//
// W is given through the Delassus interface: Dense for small problems and
// tests and for units that all share a body, BlockSparse (2x2 blocks in
// compressed rows) for problems read from files and for simulations whose
// units are spread over several bodies (timestep.Delassus chooses), so that
// a sweep costs the number of nonzero blocks.
//
// The residual is the natural map of De Saxce's formulation,
// ||r - P_K(r - (u_N + s + mu |u_T|, u_T))|| / max(||r||, ||u||, ||q||),
// with P_K the projection on the Coulomb cone: the measure Siconos uses, so
// tolerances compare.
package signorini
