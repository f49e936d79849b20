package granular

import (
	"math"
	"sort"
)

// Grain is a rigid body of the sample.
type Grain struct {
	X            [2]float64 // centre of mass, m
	Area, Radius float64    // m^2; the largest distance of a point from X, m
	Driven       bool       // a wall, a ground: not a grain, a boundary
}

// Contact is a unit between two rigid bodies: the force F on A at X
// (N/m), the unit normal N pointing to A, and the friction coefficient.
type Contact struct {
	A, B     int // indices in the sample's grains
	X, N, F  [2]float64
	Mu       float64
	Periodic bool // B is met across a periodic boundary
}

// Sample is the grains and contacts at one time.
type Sample struct {
	T        float64
	Grains   []Grain
	Contacts []Contact
}

// Region is a box [X0, X1] x [Y0, Y1] (m) of a sample: a grain is in it
// when its centre is. The zero Region is the box of the free grains.
type Region struct{ X0, X1, Y0, Y1 float64 }

// IsZero tells the zero Region.
func (r Region) IsZero() bool { return r == Region{} }

// box is the region a measure uses: r, or the free grains' box.
func (s Sample) box(r Region) Region {
	if !r.IsZero() {
		return r
	}
	r = Region{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for _, g := range s.Grains {
		if g.Driven {
			continue
		}
		r.X0, r.X1 = math.Min(r.X0, g.X[0]-g.Radius), math.Max(r.X1, g.X[0]+g.Radius)
		r.Y0, r.Y1 = math.Min(r.Y0, g.X[1]-g.Radius), math.Max(r.Y1, g.X[1]+g.Radius)
	}
	return r
}

func (r Region) has(x [2]float64) bool {
	return x[0] >= r.X0 && x[0] <= r.X1 && x[1] >= r.Y0 && x[1] <= r.Y1
}

// Measures are a sample's measures over a region.
type Measures struct {
	T                float64
	Region           Region
	Grains, Rattlers int // the free grains in the region; those with too few force-carrying contacts
	Contacts         int // force-carrying contacts of the region's grains
	// Z is the mean number of force-carrying contacts per grain of the
	// region: each contact counted once for each of its grains in the
	// region, whatever the other body is (a wall, a grain outside);
	// ZNoRattlers the same without the rattlers: a grain of the region
	// with fewer than 2 force-carrying contacts (3 without friction),
	// removed until none is left (the grains outside and the walls stay).
	// Z2 is 2 N_c / N_g, each contact's end on a wall counted too (a
	// wall contact is two ends: 3.5 on the 28 disks, where Z is 3.107),
	// an end on a grain outside the region not: 4 in a frictionless
	// packing at rest without its rattlers (isostatic: N_c = 2 N_g), where
	// Z is less by the wall contacts per grain. Z2NoRattlers the same
	// without the rattlers.
	Z, ZNoRattlers, Z2, Z2NoRattlers float64
	SolidFraction                    float64 // the region's grains' area over its area
	// Fabric is sum n x n over sum |n|^2 of the force-carrying contacts
	// (xx, xy, yy; trace 1); Anisotropy 2 (l1 - l2) of its eigenvalues,
	// FabricAngle the direction of the larger (rad from x).
	Fabric                  [3]float64
	Anisotropy, FabricAngle float64
	// Stress is the Love-Weber stress, (1/A) sum over the region's grains
	// of sum f x (x_c - x_g) over their contacts (xx, xy, yx, yy; Pa for
	// unit thickness, tension positive); Pressure -(s_xx + s_yy)/2,
	// Deviator the radius of Mohr's circle of its symmetric part,
	// StressAngle the direction of the larger compression (rad from x).
	Stress                          [4]float64
	Pressure, Deviator, StressAngle float64
	// MeanFn is the mean normal force of the force-carrying contacts
	// (N/m); MaxFnRatio the largest over it; Mobilised the mean of |f_t| /
	// (mu f_n) (1: at the cone's edge); Sliding the share at it (within
	// 1e-6).
	MeanFn, MaxFnRatio, Mobilised, Sliding float64
}

// Measure computes the measures of the sample's grains in the region.
func Measure(s Sample, r Region) Measures {
	r = s.box(r)
	m := Measures{T: s.T, Region: r}
	in := make([]bool, len(s.Grains))
	var area float64
	for i, g := range s.Grains {
		if !g.Driven && r.has(g.X) {
			in[i] = true
			m.Grains++
			area += g.Area
		}
	}
	if a := (r.X1 - r.X0) * (r.Y1 - r.Y0); a > 0 {
		m.SolidFraction = area / a
	}
	carrying := s.carrying(in)
	m.Contacts = len(carrying)
	co := s.coordination(in, carrying)
	m.Z, m.ZNoRattlers, m.Z2, m.Z2NoRattlers, m.Rattlers = co.z, co.zr, co.z2, co.z2r, co.rattlers
	m.fabric(s, in, carrying)
	m.stress(s, in, carrying, r)
	m.forces(s, carrying)
	return m
}

// carrying lists the force-carrying contacts that touch a grain in the
// region.
func (s Sample) carrying(in []bool) []int {
	var top float64
	for _, c := range s.Contacts {
		top = math.Max(top, normalForce(c))
	}
	var out []int
	for k, c := range s.Contacts {
		if normalForce(c) > 1e-9*top && (in[c.A] || in[c.B]) {
			out = append(out, k)
		}
	}
	return out
}

// normalForce is the contact's normal force, f . n (compressive, >= 0).
func normalForce(c Contact) float64 { return c.F[0]*c.N[0] + c.F[1]*c.N[1] }

// coordinations are Z and 2 N_c / N_g (Measures), with and without the
// rattlers.
type coordinations struct {
	z, zr, z2, z2r float64
	rattlers       int
}

// coordination counts the force-carrying contacts per grain of the region
// (Measures.Z: a contact counted once for each of its grains there) and
// their ends on the region's grains and the walls (Measures.Z2), with and
// without the rattlers: a grain of the region with fewer than 2
// force-carrying contacts (3 without friction), removed until none is
// left, the grains outside and the walls holding.
func (s Sample) coordination(in []bool, carrying []int) coordinations {
	count := make([]int, len(s.Grains))
	frictional := false
	for _, k := range carrying {
		c := s.Contacts[k]
		count[c.A]++
		count[c.B]++
		frictional = frictional || c.Mu > 0
	}
	var co coordinations
	grains, sum, ends := s.tally(in, carrying, nil, count)
	if grains == 0 {
		return co
	}
	co.z, co.z2 = float64(sum)/float64(grains), float64(ends)/float64(grains)
	least := 3
	if frictional {
		least = 2
	}
	rattler := make([]bool, len(s.Grains))
	gone := make([]bool, len(carrying))
	for changed := true; changed; {
		changed = false
		for i, ok := range in {
			if !ok || rattler[i] || count[i] >= least {
				continue
			}
			rattler[i], changed = true, true
			co.rattlers++
			for j, k := range carrying {
				if c := s.Contacts[k]; !gone[j] && (c.A == i || c.B == i) {
					gone[j] = true
					count[c.A]--
					count[c.B]--
				}
			}
		}
	}
	kept := make([]bool, len(in))
	for i, ok := range in {
		kept[i] = ok && !rattler[i]
	}
	if grains, sum, ends = s.tally(kept, carrying, gone, count); grains > 0 {
		co.zr, co.z2r = float64(sum)/float64(grains), float64(ends)/float64(grains)
	}
	return co
}

// tally counts the grains in, their contacts (count, each grain's) and
// the ends of the carrying contacts not gone on a grain in or a wall.
func (s Sample) tally(in []bool, carrying []int, gone []bool, count []int) (grains, sum, ends int) {
	for i, ok := range in {
		if ok {
			grains++
			sum += count[i]
		}
	}
	for j, k := range carrying {
		if gone != nil && gone[j] {
			continue
		}
		c := s.Contacts[k]
		for _, g := range []int{c.A, c.B} {
			if in[g] || s.Grains[g].Driven {
				ends++
			}
		}
	}
	return grains, sum, ends
}

// fabric sets the fabric tensor of the force-carrying contacts, each
// counted once for each of its grains in the region (so that a region of
// an isotropic packing is isotropic however its box cuts it).
func (m *Measures) fabric(s Sample, in []bool, carrying []int) {
	var xx, xy, yy float64
	for _, k := range carrying {
		c := s.Contacts[k]
		w := 0.0
		for _, g := range []int{c.A, c.B} {
			if in[g] {
				w++
			}
		}
		n := c.N
		xx, xy, yy = xx+w*n[0]*n[0], xy+w*n[0]*n[1], yy+w*n[1]*n[1]
	}
	if sum := xx + yy; sum > 0 {
		m.Fabric = [3]float64{xx / sum, xy / sum, yy / sum}
		l1, l2, angle := eigen(m.Fabric[0], m.Fabric[1], m.Fabric[2])
		m.Anisotropy, m.FabricAngle = 2*(l1-l2), angle
	}
}

// stress sets the Love-Weber stress of the region's grains: each grain's
// contacts' forces on it times their lever arms from its centre. Across
// a periodic boundary, B's lever arm is A's turned and scaled by their
// radii (exact for disks).
func (m *Measures) stress(s Sample, in []bool, carrying []int, r Region) {
	var sum [4]float64
	add := func(f, l [2]float64) {
		sum[0] += f[0] * l[0]
		sum[1] += f[0] * l[1]
		sum[2] += f[1] * l[0]
		sum[3] += f[1] * l[1]
	}
	for _, k := range carrying {
		c := s.Contacts[k]
		la := [2]float64{c.X[0] - s.Grains[c.A].X[0], c.X[1] - s.Grains[c.A].X[1]}
		if in[c.A] {
			add(c.F, la)
		}
		if in[c.B] {
			lb := [2]float64{c.X[0] - s.Grains[c.B].X[0], c.X[1] - s.Grains[c.B].X[1]}
			if c.Periodic {
				q := s.Grains[c.B].Radius / s.Grains[c.A].Radius
				lb = [2]float64{-q * la[0], -q * la[1]}
			}
			add([2]float64{-c.F[0], -c.F[1]}, lb)
		}
	}
	a := (r.X1 - r.X0) * (r.Y1 - r.Y0)
	if !(a > 0) {
		return
	}
	for i := range sum {
		m.Stress[i] = sum[i] / a
	}
	xx, xy, yy := m.Stress[0], (m.Stress[1]+m.Stress[2])/2, m.Stress[3]
	m.Pressure = -(xx + yy) / 2
	m.Deviator = math.Hypot((xx-yy)/2, xy)
	_, _, tension := eigen(xx, xy, yy)
	m.StressAngle = math.Mod(tension+math.Pi/2, math.Pi) // the larger compression is across the larger tension
}

// forces sets the normal force statistics and the mobilised friction.
func (m *Measures) forces(s Sample, carrying []int) {
	if len(carrying) == 0 {
		return
	}
	var sum, top, mob float64
	sliding := 0
	for _, k := range carrying {
		c := s.Contacts[k]
		fn := normalForce(c)
		sum += fn
		top = math.Max(top, fn)
		ft := math.Hypot(c.F[0]-fn*c.N[0], c.F[1]-fn*c.N[1])
		if c.Mu > 0 {
			x := ft / (c.Mu * fn)
			mob += x
			if x >= 1-1e-6 {
				sliding++
			}
		}
	}
	n := float64(len(carrying))
	m.MeanFn, m.MaxFnRatio = sum/n, top/(sum/n)
	m.Mobilised, m.Sliding = mob/n, float64(sliding)/n
}

// eigen returns the eigenvalues l1 >= l2 of the symmetric [[xx, xy], [xy,
// yy]] and the direction of l1's eigenvector (rad in [0, pi)).
func eigen(xx, xy, yy float64) (l1, l2, angle float64) {
	mid, rad := (xx+yy)/2, math.Hypot((xx-yy)/2, xy)
	angle = math.Mod(math.Atan2(2*xy, xx-yy)/2+math.Pi, math.Pi)
	return mid + rad, mid - rad, angle
}

// Distribution is the histogram of the normal forces over their mean of
// the force-carrying contacts of the region's grains: Count[k] contacts
// in [k, k+1) x Width, Density the probability density there.
type Distribution struct {
	Width          float64
	Count          []int
	Density        []float64
	Normals        []float64 // the force-carrying contacts' normal directions (rad in [0, 2 pi), both ways)
	Contacts, Over int       // contacts counted; those past the last bin
}

// Forces returns the distribution of f_n / <f_n> (bins of width up to
// top) and the contact normals of the sample's grains in the region.
func Forces(s Sample, r Region, width, top float64) Distribution {
	r = s.box(r)
	in := make([]bool, len(s.Grains))
	for i, g := range s.Grains {
		in[i] = !g.Driven && r.has(g.X)
	}
	carrying := s.carrying(in)
	d := Distribution{Width: width, Count: make([]int, int(math.Ceil(top/width)))}
	var mean float64
	for _, k := range carrying {
		mean += normalForce(s.Contacts[k])
	}
	if len(carrying) == 0 {
		d.Density = make([]float64, len(d.Count))
		return d
	}
	mean /= float64(len(carrying))
	for _, k := range carrying {
		c := s.Contacts[k]
		b := int(normalForce(c) / mean / width)
		if b < len(d.Count) {
			d.Count[b]++
		} else {
			d.Over++
		}
		a := math.Atan2(c.N[1], c.N[0])
		d.Normals = append(d.Normals, math.Mod(a+2*math.Pi, 2*math.Pi), math.Mod(a+3*math.Pi, 2*math.Pi))
	}
	sort.Float64s(d.Normals)
	d.Contacts = len(carrying)
	d.Density = make([]float64, len(d.Count))
	for k, c := range d.Count {
		d.Density[k] = float64(c) / (float64(d.Contacts) * width)
	}
	return d
}
