// Package timestep owns the state of deformable bodies (displacements q and
// velocities v on their free DOFs), the theta-method velocity stepper of
// Jean and Moreau (DESIGN.md section 3), the energy bookkeeping and the
// simulation loop. It knows nothing of file formats.
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
// (FreeVelocity, then AddImpulse, then Finish), which is the place the
// contact solver uses. The nodes a contact may act on are ordered last in
// the factor: their compliance (Mhat^-1)_BB is the inverse of the factor's
// dense tail, their free velocity the last block of the backward
// substitution, and an impulse on them only touches the tail of the forward
// one, so a step costs one forward and one backward substitution per body.
//
// Simulation wires the stepper, contact detection (package contact) and the
// contact solver (package signorini) into the loop of DESIGN.md section 8.
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
package timestep
