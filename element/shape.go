package element

import "github.com/fecontact/fecontact/mesh"

// RefNodes returns the reference coordinates of the nodes of kind k.
func RefNodes(k mesh.Kind) [][2]float64 {
	switch k {
	case mesh.T3:
		return [][2]float64{{0, 0}, {1, 0}, {0, 1}}
	case mesh.T6:
		return [][2]float64{{0, 0}, {1, 0}, {0, 1}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}}
	case mesh.Q4:
		return [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	case mesh.Q8:
		return [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	}
	panic("element: unknown kind " + k.String())
}

// RefArea is the area of the reference cell of kind k.
func RefArea(k mesh.Kind) float64 {
	if k.IsTriangle() {
		return 0.5
	}
	return 4
}

// Shape evaluates the shape functions of kind k and their derivatives with
// respect to the reference coordinates at x. N and dN must have
// k.NumNodes() entries; dN may be nil.
func Shape(k mesh.Kind, x [2]float64, N []float64, dN [][2]float64) {
	switch k {
	case mesh.T3:
		shapeT3(x, N, dN)
	case mesh.T6:
		shapeT6(x, N, dN)
	case mesh.Q4:
		shapeQ4(x, N, dN)
	case mesh.Q8:
		shapeQ8(x, N, dN)
	default:
		panic("element: unknown kind " + k.String())
	}
}

func shapeT3(x [2]float64, N []float64, dN [][2]float64) {
	N[0], N[1], N[2] = 1-x[0]-x[1], x[0], x[1]
	if dN != nil {
		dN[0], dN[1], dN[2] = [2]float64{-1, -1}, [2]float64{1, 0}, [2]float64{0, 1}
	}
}

func shapeT6(x [2]float64, N []float64, dN [][2]float64) {
	l1, l2, l3 := 1-x[0]-x[1], x[0], x[1]
	N[0], N[1], N[2] = l1*(2*l1-1), l2*(2*l2-1), l3*(2*l3-1)
	N[3], N[4], N[5] = 4*l1*l2, 4*l2*l3, 4*l3*l1
	if dN == nil {
		return
	}
	// dl1 = (-1,-1), dl2 = (1,0), dl3 = (0,1).
	a := 4*l1 - 1
	dN[0] = [2]float64{-a, -a}
	dN[1] = [2]float64{4*l2 - 1, 0}
	dN[2] = [2]float64{0, 4*l3 - 1}
	dN[3] = [2]float64{4 * (l1 - l2), -4 * l2}
	dN[4] = [2]float64{4 * l3, 4 * l2}
	dN[5] = [2]float64{-4 * l3, 4 * (l1 - l3)}
}

var q4Sign = [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}

func shapeQ4(x [2]float64, N []float64, dN [][2]float64) {
	for a, s := range q4Sign {
		fx, fy := 1+s[0]*x[0], 1+s[1]*x[1]
		N[a] = fx * fy / 4
		if dN != nil {
			dN[a] = [2]float64{s[0] * fy / 4, s[1] * fx / 4}
		}
	}
}

func shapeQ8(x [2]float64, N []float64, dN [][2]float64) {
	xi, eta := x[0], x[1]
	for a, s := range q4Sign {
		fx, fy := 1+s[0]*xi, 1+s[1]*eta
		g := s[0]*xi + s[1]*eta - 1
		N[a] = fx * fy * g / 4
		if dN != nil {
			dN[a] = [2]float64{s[0] * fy * (g + fx) / 4, s[1] * fx * (g + fy) / 4}
		}
	}
	// Mid-side nodes 4 (eta=-1) and 6 (eta=+1), then 5 (xi=+1) and 7 (xi=-1).
	for _, m := range [2]struct {
		a int
		s float64
	}{{4, -1}, {6, 1}} {
		N[m.a] = (1 - xi*xi) * (1 + m.s*eta) / 2
		if dN != nil {
			dN[m.a] = [2]float64{-xi * (1 + m.s*eta), m.s * (1 - xi*xi) / 2}
		}
	}
	for _, m := range [2]struct {
		a int
		s float64
	}{{5, 1}, {7, -1}} {
		N[m.a] = (1 + m.s*xi) * (1 - eta*eta) / 2
		if dN != nil {
			dN[m.a] = [2]float64{m.s * (1 - eta*eta) / 2, -eta * (1 + m.s*xi)}
		}
	}
}

// EdgeShape evaluates the shape functions of an n-node edge (n = 2 or 3) at
// s in [-1,1] and their derivatives d/ds. dN may be nil.
func EdgeShape(n int, s float64, N, dN []float64) {
	switch n {
	case 2:
		N[0], N[1] = (1-s)/2, (1+s)/2
		if dN != nil {
			dN[0], dN[1] = -0.5, 0.5
		}
	case 3:
		N[0], N[1], N[2] = s*(s-1)/2, s*(s+1)/2, 1-s*s
		if dN != nil {
			dN[0], dN[1], dN[2] = s-0.5, s+0.5, -2*s
		}
	default:
		panic("element: edges have 2 or 3 nodes")
	}
}
