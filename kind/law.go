package kind

import "github.com/fecontact/fecontact/contact"

// Law is what the contact problem needs of a unit's law: the law, the
// motion of its antagonist when that is prescribed (an obstacle's or a
// driven rigid body's; nil otherwise), the most penetration the positional
// law pushes out in a step and the gaps it takes for touching (its reach
// and slop, Sized), and the shock law's restitution.
type Law struct {
	Law         contact.Law
	Motion      contact.Motion
	Reach, Slop float64
	// Restitution is e of the shock law's U+_N + e U-_N >= 0;
	// TangentialRestitution e_T of Coulomb's law on U+_T + e_T U-_T: e
	// under a dissipation index ([JM91] section 6, the mean velocity's
	// law on both components), 0 by default under Newton's restitution (a
	// sticking impact stops the contact point).
	Restitution, TangentialRestitution float64
	// Cohesion is the tension (N/m) a unit bonded at the run's start holds
	// before its bond breaks for good (0: none): the law is on r_N + h c
	// >= 0 and |r_T| <= mu (r_N + h c) while bonded (Mohr-Coulomb).
	Cohesion float64
	// Bond is the gap (as the unit's, weighted) within which a unit at the
	// run's start is bonded where its law has a cohesion: its slop, or
	// for a finite-element unit, which has none, Slop of its length, so
	// that a joint two meshes share, touching at gaps of round-off, is
	// bonded whole.
	Bond float64
	// Exact tells a unit whose bodies can take an impact inside the step:
	// rigid bodies, free point masses and obstacles.
	Exact bool
	// Rolling is mu_r (m), the rolling resistance of the unit, whose
	// source gives its rolling rows (Roller): a moment bounded by mu_r r_N
	// against its bodies' relative angular velocity, in the step's
	// problem (not in the impacts at a step's start). 0: none.
	Rolling float64
}

// Roller is a Source whose units may resist rolling (Law.Rolling).
type Roller interface {
	// Roll appends to dst the rows of a unit's rolling velocity, the
	// relative angular velocity of its two bodies (Entry.N; T unused),
	// sorted by (Body, Eq).
	Roll(u *contact.Unit, dst []contact.Entry) []contact.Entry
}

// ShockRestitution is the restitution e of the law on U+ + e U-: the
// shock law's, 0 under the positional law.
func (l Law) ShockRestitution() float64 {
	if l.Law == contact.Shock {
		return l.Restitution
	}
	return 0
}

// ShockTangential is the tangential restitution e_T of the law on U+_T +
// e_T U-_T: the shock law's, 0 under the positional law.
func (l Law) ShockTangential() float64 {
	if l.Law == contact.Shock {
		return l.TangentialRestitution
	}
	return 0
}

// Sized sets the positional law's reach and the slop (both laws') for a
// unit of the given length.
func (l Law) Sized(length float64) Law {
	l.Reach, l.Slop, l.Bond = Lengths(length)
	return l
}

// Lengths are the reach, slop and bond of a unit of the given length
// (Sized).
func Lengths(length float64) (reach, slop, bond float64) {
	return PushReach * length, Slop * length, Slop * length
}

// PushReach is the most of a penetration, relative to the unit's length,
// that the law pushes out in one step: small penetrations left by the
// linearised geometry go at once, a deep one (bodies that start
// interpenetrated) goes over several steps instead of at a speed that
// would throw the bodies apart.
const PushReach = 1e-3

// Slop is the gap, relative to a unit's length, within which the
// positional law, and the inelastic shock law's allowance, take a rigid
// body's or a point mass's unit for touching, neither pushing out a
// penetration nor letting a gap close (the shock law, 363 sweeps a step on
// TestPileAtRest's pile without it). A pile at rest has its contacts at
// gaps of round-off (a deposit read from 8-digit files overlaps by up to
// 1e-8 m; a step's update leaves 1e-10): without it each is pushed out and
// let close again by g/h every step, a new contact problem each step (585
// disks at rest: 24 sweeps a step instead of 2.5, TestPileAtRest). A
// penetration is held within the slop, not pushed out. Finite-element
// units have none.
const Slop = 1e-5
