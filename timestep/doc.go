// Package timestep owns the state of deformable bodies (displacements q and
// velocities v on their free DOFs), the theta-method velocity stepper of
// Jean and Moreau [JM91] (docs/design.md section 3; the papers are in
// docs/references.md), the compliances and the Delassus operator of the
// contact problem, the energy bookkeeping and the simulation loop. It knows
// nothing of file formats.
//
// Over a step [t, t+h], with f_theta = theta f(t+h) + (1-theta) f(t) and
// v_theta = theta v1 + (1-theta) v0,
//
//	M (v1 - v0) = h [f_theta - K (q0 + h theta v_theta) - C v_theta] + r,
//	q1 = q0 + h v_theta,
//
// that is Mhat (v1 - v0) = h [f_theta - K (q0 + h theta v0) - C v0] + r with
// Mhat = M + h theta C + h^2 theta^2 K, factorised once per body and reused
// while h, theta and the material stay the same. r = H P is the generalised
// contact impulse over the step; it enters between the two halves of a Step
// (Begin, then AddImpulse, then Finish), which is the place the
// contact solver uses. The nodes a contact may act on are ordered last in
// the factor: their compliance (Mhat^-1)_BB is the inverse of the factor's
// dense tail, their free velocity the last block of the backward
// substitution, and an impulse on them only touches the tail of the forward
// one, so a step costs one forward and one backward substitution per body.
//
// A body with Body.Law set is hyperelastic (element.Hyperelastic, large
// strain): its internal force f(q) enters as h [theta f(q1) + (1-theta)
// f(q0)] and each step is solved by Newton's method on the consistent
// tangent (newton.go), the contact problem solved again on each Newton
// tangent (Stepper.Advance), its stored energy booked as Elastic and the
// scheme's own energy error as Numerical. Body.Dilatation =
// element.MeanDilatation evaluates its law on each cell's mean volume
// change (no volumetric locking as Nu nears 1/2).
//
// Simulation wires the stepper, contact detection (package contact) and the
// contact solver (package signorini) into the step of docs/design.md
// sections 4-8, with rigid bodies (package rigid, docs/design.md section
// 7b) and point masses on springs (package discrete, section 7d) in the
// same contact problem when SimOptions.Rigid and SimOptions.Points are
// set, and any other kind of body SimOptions.Kinds brings. Its step is
// named phases (place, detect, impactFirst, free, contact, advance) that
// know no kind of body: each kind answers through package kind's seam
// (family_fe.go and source.go: the Stepper's bodies and the Detector's
// pairs; rigid.NewKind; discrete.NewKind). SaveState and
// LoadState keep and restore everything a step carries to the next, so
// that a run goes on bit for bit from a checkpoint (section 7e). A
// scene's whole run with its outputs is package run's.
//
// Energy: multiplying the step by v_theta gives the exact discrete balance
//
//	dT + dE + (theta - 1/2)(dv' M dv + dq' K dq) + h v_theta' C v_theta
//	        = f_theta' dq + v_theta' r
//
// with T = v'Mv/2 and E = q'Kq/2. Energy books these terms every step:
// external work, damping loss, numerical dissipation (zero for theta = 1/2)
// and contact work, so that T + E + losses - work stays at its initial value
// to round-off.
//
// Contact laws (contact.Law, per pair). contact.Positional is the Signorini
// law on the gap of the mid configuration q_m = q + h (1-theta) v, the form
// of LMGC90's GAP_SGR_CLB: with g_m = g + h (1-theta) U_N,start, P_N >= 0
// complementary to U_N,end + s >= 0, s = max(g_m/h, (1-theta) U_N,start /
// theta). The first bound keeps the next mid configuration clear and damps
// the period-2 mode that g + h U_N,theta >= 0 has at theta = 1/2 (its factor
// is -(1-theta), against -1); the second keeps U_N,theta <= 0 wherever P_N >
// 0, so on a unit that is not penetrated the law never does positive work. A
// unit found penetrated (g < 0) is pushed out on g_m alone, by at most
// pushReach of its length per step; that work is booked apart
// (PushOutWork). contact.Shock, inelastic, imposes U_N,end >= -g_m/h on
// every unit, g_m the gap at the mid configuration when positive (less the
// slop for rigid bodies and point masses): a unit closes its gap in the step
// and stops there, and bodies that fall together stay under the law. With a
// restitution e it imposes U_N,end + e U_N,start >= 0 on the units whose gap
// predicted with the free velocity closes in the step, and leaves the others
// open (an allowance would take from the rebound).
package timestep
