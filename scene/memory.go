package scene

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/mesh"
)

// RunBytes estimates the peak memory of a run over bodies with dofs degrees
// of freedom in all, of the given element order: matrices, factors,
// Delassus columns and vectors. Measured on the colliding blocks (Q4,
// refine 4 to 16: 3.6 to 4.2 kB per DOF, the factor growing as log N);
// quadratic cells couple more DOFs per row.
func RunBytes(dofs float64, order int) float64 {
	per := 2000 + 120*math.Log2(math.Max(dofs, 2))
	if order == 2 {
		per *= 1.6
	}
	return 10e6 + dofs*per
}

// rectangleNodes is the number of nodes of a generated rectangle, in
// floating point so that absurd cell counts cannot overflow.
func rectangleNodes(nx, ny float64, k mesh.Kind) float64 {
	if k.Order() == 1 {
		return (nx + 1) * (ny + 1)
	}
	all := (2*nx + 1) * (2*ny + 1)
	if k == mesh.Q8 {
		all -= nx * ny // no cell centres
	}
	return all
}

// Estimate is the size of a scene's bodies, known before any is built.
type Estimate struct {
	Nodes, DOFs float64 // all bodies; Gmsh bodies counted once read
	Rigid       float64 // rigid bodies and grains
	Bytes       float64
	Order       int // highest element order
	rigidBytes  float64
}

func (e *Estimate) add(nodes float64, order int) {
	e.Nodes += nodes
	e.DOFs += 2 * nodes
	e.Order = max(e.Order, order)
	e.total()
}

// rigidBodyBytes is what a rigid body or grain costs a run with its
// contacts (the 900-disk box: 1.7 kB per contact, 2.4 contacts a disk),
// with room; vertexBytes what each of a polygon's vertices adds.
const (
	rigidBodyBytes = 5000
	vertexBytes    = 64
)

// addRigid counts n rigid bodies of up to sides vertices each.
func (e *Estimate) addRigid(n, sides float64) {
	e.Rigid += n
	e.rigidBytes += n * (rigidBodyBytes + sides*vertexBytes)
	e.total()
}

func (e *Estimate) total() {
	e.Bytes = e.rigidBytes
	if e.DOFs > 0 || e.Rigid == 0 {
		e.Bytes += RunBytes(e.DOFs, e.Order)
	}
}

func (e Estimate) String() string {
	rigid := ""
	if e.Rigid > 0 {
		rigid = fmt.Sprintf(", %.4g rigid bodies", e.Rigid)
	}
	return fmt.Sprintf("%.4g nodes, %.4g DOFs%s, about %s", e.Nodes, e.DOFs, rigid, humanBytes(e.Bytes))
}

func humanBytes(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.3g GB", b/1e9)
	default:
		return fmt.Sprintf("%.3g MB", b/1e6)
	}
}

// MemoryLimit is the memory a run may plan for: the machine's total
// memory (Linux /proc/meminfo), or +Inf when it cannot be read. A variable
// so that tests and embedders can set their own.
var MemoryLimit = machineMemory()

func machineMemory() float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return math.Inf(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			if kb, err := strconv.ParseFloat(fs[1], 64); err == nil {
				return kb * 1024
			}
		}
	}
	return math.Inf(1)
}

// memoryShare is the part of MemoryLimit a run may plan for: the rest is
// the system's, the outputs' and the estimate's error (a body estimated
// at 23 GB was accepted on a 24.7 GB machine).
const memoryShare = 0.8

// Check refuses an estimate beyond memoryShare of MemoryLimit or
// maxNodes, before anything of that size is allocated.
func (e Estimate) Check() error {
	if e.Nodes > maxNodes {
		return fmt.Errorf("the bodies would have %.3g nodes, more than %.0g: use fewer cells or a smaller --refine", e.Nodes, float64(maxNodes))
	}
	if e.Bytes > memoryShare*MemoryLimit {
		return fmt.Errorf("the bodies would take %s, more than %.0f %% of the %s this machine has: use fewer cells or grains, or a smaller --refine", e, 100*memoryShare, humanBytes(MemoryLimit))
	}
	return nil
}

// maxNodes bounds a generated mesh whatever the memory limit, so that cell
// counts never overflow the integers the mesh is indexed with.
const maxNodes = 1e9

// Estimate sizes the scene's bodies before any is built: generated
// rectangles from their cell counts, Gmsh bodies by reading their files.
func (s *Scene) Estimate(v Variant) (Estimate, error) {
	est, _, err := s.estimate(v)
	return est, err
}

// estimate also returns the Gmsh meshes it read (nil for rectangles), so
// that Model reads each file once.
func (s *Scene) estimate(v Variant) (Estimate, []*mesh.Mesh, error) {
	var est Estimate
	meshes := make([]*mesh.Mesh, len(s.Bodies))
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Rectangle == nil {
			continue
		}
		k, f, err := b.Rectangle.variant(v)
		if err != nil {
			return est, nil, fmt.Errorf("%s: body %q: %w", s.Name, b.Name, err)
		}
		est.add(rectangleNodes(f*float64(b.Rectangle.Cells[0]), f*float64(b.Rectangle.Cells[1]), k), k.Order())
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Gmsh == "" {
			continue
		}
		m, err := s.mesh(b, v)
		if err != nil {
			return est, nil, fmt.Errorf("%s: body %q: %w", s.Name, b.Name, err)
		}
		order := 1
		for _, c := range m.Cells {
			order = max(order, c.Kind.Order())
		}
		est.add(float64(len(m.Nodes)), order)
		meshes[i] = m
	}
	for _, r := range s.Rigid {
		est.addRigid(1, float64(max(len(r.Polygon), 4)))
	}
	for _, w := range s.Walls {
		est.addRigid(float64(w.Courses)*float64(w.Blocks+1), 4)
	}
	for _, a := range s.Arches {
		est.addRigid(float64(a.Voussoirs), 4)
	}
	for _, g := range s.Grains {
		sides := 0
		if len(g.Sides) == 2 {
			sides = g.Sides[1]
		}
		est.addRigid(float64(g.Count), float64(sides))
	}
	return est, meshes, nil
}
