// Package fe owns finite-element bodies as a kind of body the contact step
// drives (Family, a kind.Kind): their state (displacements q and
// velocities v on their free DOFs), the theta-method velocity stepper of
// Jean and Moreau [JM91] (docs/design.md section 3; the papers are in
// docs/references.md), their compliances on the contact nodes, their
// energy accounts and their checkpoint section. It knows nothing of file
// formats.
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
// Energy: multiplying the step by v_theta gives the exact discrete balance
//
//	dT + dE + (theta - 1/2)(dv' M dv + dq' K dq) + h v_theta' C v_theta
//	        = f_theta' dq + v_theta' r
//
// with T = v'Mv/2 and E = q'Kq/2. The accounts (kind.Energy) book these
// terms every step: external work, damping loss, numerical dissipation
// (zero for theta = 1/2) and contact work, so that T + E + losses - work
// stays at its initial value to round-off.
//
// It is a package of its own, beside rigid and discrete, so that the
// simulation drives finite-element bodies as one kind among others: the
// Stepper steps them alone (NewStepper) or on a simulation's clock
// (NewFamily), and nothing in it knows of the contact step but the seam.
package fe
