package analytic

import "math"

// PointImpact is the velocity after the inelastic frictional impact of a
// point mass on a fixed plane, [TG] eq. 3.44: arriving at speed |u-| at
// the angle beta from the plane's inward normal, it leaves along the plane
// at |u-| (sin beta - nu cos beta) in the direction of its tangential
// velocity when that is positive (it slides), and stops otherwise (it
// sticks: tan beta <= nu). uN < 0 is the normal velocity before, uT the
// tangential one; the result is (normal, tangential) after.
func PointImpact(uN, uT, nu float64) [2]float64 {
	slip := math.Abs(uT) - nu*math.Abs(uN) // |u-| (sin beta - nu cos beta)
	if uN >= 0 || slip <= 0 {
		if uN >= 0 {
			return [2]float64{uN, uT}
		}
		return [2]float64{}
	}
	return [2]float64{0, math.Copysign(slip, uT)}
}
