package rigid

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Shape is the section of a rigid body, about its centre of mass.
type Shape interface {
	// Area is the section's area (m^2).
	Area() float64
	// PolarMoment is the integral of |r|^2 over the section about its
	// centre of mass (m^4): the moment of inertia is density x thickness x
	// PolarMoment.
	PolarMoment() float64
	// Radius is the largest distance of a point of the section from its
	// centre of mass.
	Radius() float64
}

// Polygon is a convex polygon, its vertices counter-clockwise about the
// centre of mass. Make one with NewPolygon or Rectangle: its area,
// inertia and radius are computed from the vertices there.
type Polygon struct {
	local   [][2]float64
	area, j float64
	radius  float64
}

// Vertices returns a copy of the polygon's vertices, counter-clockwise
// about its centre of mass.
func (p *Polygon) Vertices() [][2]float64 { return append([][2]float64(nil), p.local...) }

// Disk is a disk of radius R.
type Disk struct{ R float64 }

// Area is pi R^2.
func (d Disk) Area() float64 { return math.Pi * d.R * d.R }

// PolarMoment is pi R^4 / 2.
func (d Disk) PolarMoment() float64 { return math.Pi * math.Pow(d.R, 4) / 2 }

// Radius is R.
func (d Disk) Radius() float64 { return d.R }

// Area of the polygon.
func (p *Polygon) Area() float64 { return p.area }

// PolarMoment of the polygon about its centre of mass.
func (p *Polygon) PolarMoment() float64 { return p.j }

// Radius is the distance of the farthest vertex.
func (p *Polygon) Radius() float64 { return p.radius }

// Rectangle is a w x h rectangle centred on its centre of mass.
func Rectangle(w, h float64) (*Polygon, error) {
	if !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return nil, fmt.Errorf("rectangle %g x %g: expected a positive, finite width and height", w, h)
	}
	p, _, err := NewPolygon([][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}})
	return p, err
}

// NewPolygon makes a convex polygon of vertices given counter-clockwise
// in any frame and returns it with its centre of mass in that frame.
func NewPolygon(vertices [][2]float64) (*Polygon, [2]float64, error) {
	n := len(vertices)
	if n < 3 {
		return nil, [2]float64{}, fmt.Errorf("polygon of %d vertices: expected at least 3", n)
	}
	var a, cx, cy float64
	for i, v := range vertices {
		if math.IsNaN(v[0]) || math.IsNaN(v[1]) || math.IsInf(v[0], 0) || math.IsInf(v[1], 0) {
			return nil, [2]float64{}, fmt.Errorf("vertex %d is %v: expected finite coordinates", i+1, v)
		}
		w := vertices[(i+1)%n]
		c := v[0]*w[1] - w[0]*v[1]
		a += c / 2
		cx += (v[0] + w[0]) * c / 6
		cy += (v[1] + w[1]) * c / 6
	}
	if !(a > 0) {
		return nil, [2]float64{}, errors.New("the vertices are clockwise or the polygon has no area: list them counter-clockwise")
	}
	c := [2]float64{cx / a, cy / a}
	local := make([][2]float64, n)
	size := 0.0
	for i, v := range vertices {
		local[i] = [2]float64{v[0] - c[0], v[1] - c[1]}
		size = max(size, math.Hypot(local[i][0], local[i][1]))
	}
	for i := range local {
		u, v, w := local[(i+n-1)%n], local[i], local[(i+1)%n]
		if math.Hypot(w[0]-v[0], w[1]-v[1]) <= 1e-9*size {
			return nil, [2]float64{}, fmt.Errorf("vertices %d and %d coincide", i+1, (i+1)%n+1)
		}
		if cross := (v[0]-u[0])*(w[1]-v[1]) - (v[1]-u[1])*(w[0]-v[0]); cross <= 1e-12*size*size {
			return nil, [2]float64{}, fmt.Errorf("the polygon is not convex at vertex %d %v (or three vertices are aligned there)", i+1, vertices[i])
		}
	}
	return &Polygon{local: local, area: a, radius: size, j: polarMoment(local)}, c, nil
}

// polarMoment is the polar moment of area of a polygon about the origin,
// its vertices counter-clockwise.
func polarMoment(local [][2]float64) float64 {
	var j float64
	n := len(local)
	for i, v := range local {
		w := local[(i+1)%n]
		c := v[0]*w[1] - w[0]*v[1]
		j += c * (v[0]*v[0] + v[0]*w[0] + w[0]*w[0] + v[1]*v[1] + v[1]*w[1] + w[1]*w[1]) / 12
	}
	return j
}

// PolygonAbout makes a convex polygon of vertices given counter-clockwise
// about its centre of mass, kept as given (a shape Vertices wrote out:
// NewPolygon would move them by the round-off of their centroid). Its
// area is theirs, which may differ in the last digits from that of the
// polygon they were taken from.
func PolygonAbout(local [][2]float64) (*Polygon, error) {
	p, c, err := NewPolygon(local)
	if err != nil {
		return nil, err
	}
	size := 0.0
	for _, v := range local {
		size = max(size, math.Hypot(v[0], v[1]))
	}
	if math.Hypot(c[0], c[1]) > 1e-9*size {
		return nil, fmt.Errorf("the vertices' centre of mass is at (%.6g, %.6g), not at the origin: give them about it", c[0], c[1])
	}
	return &Polygon{local: slices.Clone(local), area: p.area, radius: size, j: polarMoment(local)}, nil
}

// RandomPolygon draws a convex polygon of a number of sides in [minSides,
// maxSides], inscribed in a circle of radius in [minR, maxR]: vertices at
// angles spread evenly around it and each moved by up to a quarter of the
// even spacing (so that no side is shorter than half of it), the whole
// turned at random. The shape of a grain of [M04] section 3.2.
func RandomPolygon(rng *rand.Rand, minSides, maxSides int, minR, maxR float64) (*Polygon, error) {
	if minSides < 3 || maxSides < minSides || !(minR > 0) || maxR < minR {
		return nil, fmt.Errorf("random polygon: sides [%d, %d], radius [%g, %g]: expected 3 <= min <= max sides and 0 < min <= max radius", minSides, maxSides, minR, maxR)
	}
	n := minSides + rng.IntN(maxSides-minSides+1)
	r := minR + (maxR-minR)*rng.Float64()
	turn := 2 * math.Pi * rng.Float64()
	vs := make([][2]float64, n)
	for k := range vs {
		a := turn + 2*math.Pi*(float64(k)+0.25*(2*rng.Float64()-1))/float64(n)
		vs[k] = [2]float64{r * math.Cos(a), r * math.Sin(a)}
	}
	p, _, err := NewPolygon(vs)
	return p, err
}
