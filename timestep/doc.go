// Package timestep owns the simulation: the contact step of Jean and
// Moreau [JM91] (docs/design.md sections 4-8; the papers are in
// docs/references.md) over kinds of body it drives through package kind's
// seam, the simulation's clock, the Delassus operator of the contact
// problem from the bodies' compliances, the contact laws, the impacts, the
// energy ledger's contact works and the checkpoint. It knows nothing of
// file formats, and its step nothing of kinds of body.
//
// Simulation wires the finite-element bodies (package fe), contact
// detection (package contact) and the contact solver (package signorini)
// into the step of docs/design.md sections 4-8, with rigid bodies (package rigid, docs/design.md section
// 7b) and point masses on springs (package discrete, section 7d) in the
// same contact problem when SimOptions.Rigid and SimOptions.Points are
// set, and any other kind of body SimOptions.Kinds brings. Its step is
// named phases (place, detect, impactFirst, free, contact, advance) that
// know no kind of body: each kind answers through package kind's seam
// (fe.Family, rigid.NewKind, discrete.NewKind; kinds.go is the one file
// that lists them), the Detector's pairs being the first source of units
// (source.go). The simulation owns the clock (clock.go). SaveState and
// LoadState keep and restore everything a step carries to the next, so
// that a run goes on bit for bit from a checkpoint (section 7e). A
// scene's whole run with its outputs is package run's.
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
