package rigid

import "math"

// Distance is the distance between two bodies in their current pose, or
// minus the depth of their overlap (along the axis that separates them
// most): the opening of a joint between two blocks, say.
func Distance(a, b *Body) float64 {
	va, vb := a.Vertices(nil), b.Vertices(nil)
	da, aDisk := a.Shape.(Disk)
	db, bDisk := b.Shape.(Disk)
	ca, cb := [2]float64{a.Q[0], a.Q[1]}, [2]float64{b.Q[0], b.Q[1]}
	switch {
	case aDisk && bDisk:
		return math.Hypot(ca[0]-cb[0], ca[1]-cb[1]) - da.R - db.R
	case aDisk:
		return diskPolyDistance(ca, da.R, vb)
	case bDisk:
		return diskPolyDistance(cb, db.R, va)
	}
	_, sa := maxSeparation(va, vb)
	_, sb := maxSeparation(vb, va)
	if sep := max(sa, sb); sep <= 0 {
		return sep
	}
	d := math.Inf(1)
	for _, pair := range [2][2][][2]float64{{va, vb}, {vb, va}} {
		for _, p := range pair[0] {
			d = min(d, pointPolygon(p, pair[1]))
		}
	}
	return d
}

func diskPolyDistance(c [2]float64, r float64, B [][2]float64) float64 {
	if _, sep := maxSeparation(B, [][2]float64{c}); sep <= 0 {
		return sep - r
	}
	return pointPolygon(c, B) - r
}

// pointPolygon is the distance from p to the boundary of polygon B.
func pointPolygon(p [2]float64, B [][2]float64) float64 {
	d := math.Inf(1)
	for i, p1 := range B {
		e := sub(B[(i+1)%len(B)], p1)
		s := max(0, min(1, dot(sub(p, p1), e)/dot(e, e)))
		d = min(d, math.Hypot(p[0]-p1[0]-s*e[0], p[1]-p1[1]-s*e[1]))
	}
	return d
}
