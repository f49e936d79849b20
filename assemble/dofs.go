package assemble

import (
	"fmt"
	"strings"

	"github.com/fecontact/fecontact/mesh"
)

// Comp selects the displacement components a Fix constrains.
type Comp int

// Components.
const (
	X  Comp    = 1 << iota // x only
	Y                      // y only
	XY = X | Y             // both
)

// ParseComp reads "x", "y" or "xy".
func ParseComp(s string) (Comp, error) {
	switch strings.ToLower(s) {
	case "x":
		return X, nil
	case "y":
		return Y, nil
	case "xy", "both", "":
		return XY, nil
	}
	return 0, fmt.Errorf("component %q: expected x, y or xy", s)
}

// Fix constrains the given components of the nodes of a named node group
// to zero displacement.
type Fix struct {
	Group string
	Comp  Comp
}

// DOFMap numbers the free DOFs of a mesh.
type DOFMap struct {
	// Eq[2*node+c] is the equation of component c of node, or -1 if fixed.
	Eq []int
	// DOF[e] is the full index 2*node+c of equation e.
	DOF []int
}

// NewDOFMap numbers the DOFs of m node-major, leaving out those fixed.
func NewDOFMap(m *mesh.Mesh, fixes []Fix) (*DOFMap, error) {
	fixed := make([]bool, 2*len(m.Nodes))
	for _, f := range fixes {
		if f.Comp&XY == 0 || f.Comp&^XY != 0 {
			return nil, fmt.Errorf("fix on group %q: component must be x, y or xy", f.Group)
		}
		nodes, err := m.NodeGroup(f.Group)
		if err != nil {
			return nil, fmt.Errorf("fix: %w", err)
		}
		for _, n := range nodes {
			fixed[2*n] = fixed[2*n] || f.Comp&X != 0
			fixed[2*n+1] = fixed[2*n+1] || f.Comp&Y != 0
		}
	}
	d := &DOFMap{Eq: make([]int, len(fixed))}
	for i, fx := range fixed {
		d.Eq[i] = -1
		if !fx {
			d.Eq[i] = len(d.DOF)
			d.DOF = append(d.DOF, i)
		}
	}
	return d, nil
}

// N is the number of free DOFs (equations).
func (d *DOFMap) N() int { return len(d.DOF) }
