package assemble

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/fecontact/fecontact/assemble/cholesky"
	"github.com/fecontact/fecontact/assemble/csr"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/mesh"
)

// Space is a mesh with its DOF map and the sparse pattern of its matrices.
type Space struct {
	Mesh *mesh.Mesh
	DOFs *DOFMap

	elems  [4]*element.Element // by mesh.Kind
	indptr []int
	ind    []int

	gradsOnce sync.Once // the stresses' gradients, at their first recovery (stress.go)
	grads     *grads
	gradsErr  error
}

// NewSpace checks the mesh (topology and Jacobians), numbers its DOFs with
// the given fixes and builds the pattern of its matrices.
func NewSpace(m *mesh.Mesh, fixes ...Fix) (*Space, error) {
	if err := element.CheckMesh(m); err != nil {
		return nil, err
	}
	dofs, err := NewDOFMap(m, fixes)
	if err != nil {
		return nil, err
	}
	s := &Space{Mesh: m, DOFs: dofs}
	for _, k := range mesh.Kinds {
		s.elems[k] = element.New(k)
	}
	s.buildPattern()
	return s, nil
}

// N is the number of equations.
func (s *Space) N() int { return s.DOFs.N() }

// nodeNeighbours returns, for every node, the sorted nodes sharing a cell
// with it (itself included), in compressed form.
func (s *Space) nodeNeighbours() (ptr, adj []int) {
	m := s.Mesh
	nn := len(m.Nodes)
	cptr := make([]int, nn+1)
	for _, c := range m.Cells {
		for _, n := range c.Nodes {
			cptr[n+1]++
		}
	}
	for i := 0; i < nn; i++ {
		cptr[i+1] += cptr[i]
	}
	cells := make([]int, cptr[nn])
	fill := slices.Clone(cptr[:nn])
	for ci, c := range m.Cells {
		for _, n := range c.Nodes {
			cells[fill[n]] = ci
			fill[n]++
		}
	}
	mark := make([]int, nn)
	for i := range mark {
		mark[i] = -1
	}
	ptr = make([]int, 1, nn+1)
	for n := 0; n < nn; n++ {
		start := len(adj)
		for _, ci := range cells[cptr[n]:cptr[n+1]] {
			for _, o := range m.Cells[ci].Nodes {
				if mark[o] != n {
					mark[o] = n
					adj = append(adj, o)
				}
			}
		}
		slices.Sort(adj[start:])
		ptr = append(ptr, len(adj))
	}
	return ptr, adj
}

// buildPattern lays out the CSR pattern of the free DOFs: equation rows in
// order, columns sorted within each row.
func (s *Space) buildPattern() {
	ptr, adj := s.nodeNeighbours()
	eq := s.DOFs.Eq
	s.indptr = make([]int, 1, s.N()+1)
	row := func(node int, emit func(e int)) {
		for _, o := range adj[ptr[node]:ptr[node+1]] {
			for c := 0; c < 2; c++ {
				if e := eq[2*o+c]; e >= 0 {
					emit(e)
				}
			}
		}
	}
	nnz := 0
	for _, full := range s.DOFs.DOF {
		row(full/2, func(int) { nnz++ })
	}
	s.ind = make([]int, 0, nnz)
	for _, full := range s.DOFs.DOF {
		row(full/2, func(e int) { s.ind = append(s.ind, e) })
		s.indptr = append(s.indptr, len(s.ind))
	}
}

// NewMatrix returns a zero matrix on the space's pattern. Its index slices
// are shared with the space and every other matrix of it: do not modify them.
func (s *Space) NewMatrix() *csr.Matrix {
	n := s.N()
	return csr.New(n, n, s.indptr, s.ind, make([]float64, len(s.ind)))
}

// scatter adds the dense element matrix ke of a cell into A.
func (s *Space) scatter(A []float64, ke []float64, eqs []int) {
	nd := len(eqs)
	for a, r := range eqs {
		if r < 0 {
			continue
		}
		row := s.ind[s.indptr[r]:s.indptr[r+1]]
		base := s.indptr[r]
		for b, c := range eqs {
			if c < 0 {
				continue
			}
			k, _ := slices.BinarySearch(row, c)
			A[base+k] += ke[a*nd+b]
		}
	}
}

// cellEqs fills eqs with the equations of cell c's DOFs (-1 when fixed).
func (s *Space) cellEqs(eqs []int, c int) []int {
	eqs = eqs[:0]
	for _, n := range s.Mesh.Cells[c].Nodes {
		eqs = append(eqs, s.DOFs.Eq[2*n], s.DOFs.Eq[2*n+1])
	}
	return eqs
}

// Kernel computes the element matrix of cell c, whose nodes are at X (in
// the cell's node order), into ke: zeroed, (2n)^2 row-major for n nodes,
// DOFs in node order, x then y.
type Kernel func(c int, X [][2]float64, ke []float64) error

// Assemble is the assembly loop: it calls k on every cell and adds the
// element matrices into a new matrix of the space's pattern, leaving out
// the rows and columns of fixed DOFs. It is how Stiffness and Mass are
// built, and how a caller assembles the matrices of an element or a
// material of their own. On a space without fixes the equations are the
// full DOFs 2*node+c: the matrices fe.NewBodyFromMatrices takes.
func (s *Space) Assemble(k Kernel) (*csr.Matrix, error) {
	A := s.NewMatrix()
	data := A.Data
	var X [][2]float64
	var eqs []int
	ke := make([]float64, 16*16)
	for c, cell := range s.Mesh.Cells {
		nd := 2 * cell.Kind.NumNodes()
		ke = ke[:nd*nd]
		clear(ke)
		X = s.Mesh.CellNodes(X, c)
		if err := k(c, X, ke); err != nil {
			return nil, fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		if !allFinite(ke) {
			return nil, fmt.Errorf("mesh %s: %s: element matrix has NaN or infinite entries", s.Mesh.Name, s.Mesh.CellAt(c))
		}
		eqs = s.cellEqs(eqs, c)
		s.scatter(data, ke, eqs)
	}
	return A, nil
}

// Restrict copies the rows and columns of the free DOFs of a full matrix
// (2 per node, node-major: index 2*node+c, any sparsity, columns in any
// order) onto the space's pattern, so that it combines with the space's
// matrices: for a body's matrices assembled elsewhere. An entry that
// couples two nodes sharing no cell has no place in the pattern and is an
// error, as are NaN and infinities.
func (s *Space) Restrict(A *csr.Matrix) (*csr.Matrix, error) {
	if A == nil {
		return nil, fmt.Errorf("mesh %s: no matrix", s.Mesh.Name)
	}
	n := 2 * len(s.Mesh.Nodes)
	if r, c := A.Dims(); r != n || c != n {
		return nil, fmt.Errorf("mesh %s: a %dx%d matrix for %d nodes: expected %dx%d (2 DOFs per node)", s.Mesh.Name, r, c, n/2, n, n)
	}
	if err := A.Check(); err != nil {
		return nil, fmt.Errorf("mesh %s: %w", s.Mesh.Name, err)
	}
	B := s.NewMatrix()
	data := B.Data
	var err error
	A.DoNonZero(func(i, j int, v float64) {
		if err != nil || v == 0 {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			err = fmt.Errorf("mesh %s: entry (%d, %d) is %v", s.Mesh.Name, i, j, v)
			return
		}
		ei, ej := s.DOFs.Eq[i], s.DOFs.Eq[j]
		if ei < 0 || ej < 0 {
			return
		}
		row := s.ind[s.indptr[ei]:s.indptr[ei+1]]
		k, ok := slices.BinarySearch(row, ej)
		if !ok {
			err = fmt.Errorf("mesh %s: entry (%d, %d) = %g couples nodes %d and %d, which share no cell", s.Mesh.Name, i, j, v, i/2, j/2)
			return
		}
		data[s.indptr[ei]+k] += v
	})
	return B, err
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Stiffness assembles the stiffness matrix K.
func (s *Space) Stiffness(m element.Elastic) (*csr.Matrix, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var w element.Workspace
	return s.Assemble(func(c int, X [][2]float64, ke []float64) error {
		return s.elems[s.Mesh.Cells[c].Kind].Stiffness(ke, X, m, &w)
	})
}

// Mass assembles the consistent mass matrix M.
func (s *Space) Mass(m element.Elastic) (*csr.Matrix, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return s.Assemble(func(c int, X [][2]float64, me []float64) error {
		return s.elems[s.Mesh.Cells[c].Kind].Mass(me, X, m)
	})
}

// LumpedMass returns the HRZ lumped mass per node (full numbering by node,
// one value per node, shared by both components).
func (s *Space) LumpedMass(m element.Elastic) ([]float64, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	ml := make([]float64, len(s.Mesh.Nodes))
	var X [][2]float64
	var cellMass [8]float64
	for c, cell := range s.Mesh.Cells {
		n := cell.Kind.NumNodes()
		clear(cellMass[:n])
		X = s.Mesh.CellNodes(X, c)
		if err := s.elems[cell.Kind].LumpedMass(cellMass[:n], X, m); err != nil {
			return nil, fmt.Errorf("mesh %s: %s: %w", s.Mesh.Name, s.Mesh.CellAt(c), err)
		}
		for a, node := range cell.Nodes {
			ml[node] += cellMass[a]
		}
	}
	return ml, nil
}

// LumpedMassMatrix returns the HRZ lumped mass as a diagonal matrix on the
// space's pattern, so that it combines with K like the consistent one.
func (s *Space) LumpedMassMatrix(m element.Elastic) (*csr.Matrix, error) {
	ml, err := s.LumpedMass(m)
	if err != nil {
		return nil, err
	}
	A := s.NewMatrix()
	data := A.Data
	for e, full := range s.DOFs.DOF {
		k, _ := slices.BinarySearch(s.ind[s.indptr[e]:s.indptr[e+1]], e)
		data[s.indptr[e]+k] = ml[full/2]
	}
	return A, nil
}

// Combine returns a A + b B for two matrices of this space's pattern.
func (s *Space) Combine(a float64, A *csr.Matrix, b float64, B *csr.Matrix) *csr.Matrix {
	C := s.NewMatrix()
	s.CombineTo(C, a, A, b, B)
	return C
}

// CombineTo sets C = a A + b B for matrices of this space's pattern.
func (s *Space) CombineTo(C *csr.Matrix, a float64, A *csr.Matrix, b float64, B *csr.Matrix) {
	ad, bd, cd := A.Data, B.Data, C.Data
	if len(ad) != len(s.ind) || len(bd) != len(s.ind) || len(cd) != len(s.ind) {
		panic("assemble: CombineTo with a matrix of another pattern")
	}
	for i := range cd {
		cd[i] = a*ad[i] + b*bd[i]
	}
}

// Ordering returns a fill-reducing ordering of the equations for package
// cholesky: nested dissection of the node graph split by node coordinates,
// each node's free DOFs kept together.
func (s *Space) Ordering() []int { return s.OrderingLast(nil) }

// OrderingLast is Ordering with the DOFs of the given nodes (a contact
// boundary, say) numbered last, in the order given: the trailing block of
// the factor then holds the Schur complement on them (cholesky.Factor.Tail).
func (s *Space) OrderingLast(last []int) []int {
	ptr, adj := s.nodeNeighbours()
	isLast := make([]bool, len(s.Mesh.Nodes))
	for _, n := range last {
		isLast[n] = true
	}
	// Node graph without self loops and without the last nodes; the
	// remaining nodes are renumbered 0..m-1 for the dissection.
	id := make([]int, len(s.Mesh.Nodes))
	var keep []int
	var coords [][2]float64
	for n := range s.Mesh.Nodes {
		id[n] = -1
		if !isLast[n] {
			id[n] = len(keep)
			keep = append(keep, n)
			coords = append(coords, s.Mesh.Nodes[n])
		}
	}
	g := cholesky.Graph{Xadj: make([]int, 1, len(keep)+1), Adj: make([]int, 0, len(adj))}
	for _, n := range keep {
		for _, o := range adj[ptr[n]:ptr[n+1]] {
			if o != n && id[o] >= 0 {
				g.Adj = append(g.Adj, id[o])
			}
		}
		g.Xadj = append(g.Xadj, len(g.Adj))
	}
	order, _ := cholesky.NestedDissection(g, coords)
	nodes := make([]int, 0, len(s.Mesh.Nodes))
	for _, k := range order {
		nodes = append(nodes, keep[k])
	}
	nodes = append(nodes, last...)
	perm := make([]int, 0, s.N())
	for _, n := range nodes {
		for c := 0; c < 2; c++ {
			if e := s.DOFs.Eq[2*n+c]; e >= 0 {
				perm = append(perm, e)
			}
		}
	}
	return perm
}

// Factor factorises a matrix of this space (K, M or a combination) with
// the space's ordering.
func (s *Space) Factor(A *csr.Matrix) (*cholesky.Factor, error) {
	return s.FactorLast(A, nil)
}

// FactorLast factorises with the DOFs of the given nodes ordered last.
func (s *Space) FactorLast(A *csr.Matrix, last []int) (*cholesky.Factor, error) {
	f, err := cholesky.New(A, s.OrderingLast(last))
	var pe *cholesky.PivotError
	if errors.As(err, &pe) {
		full := s.DOFs.DOF[pe.Row]
		return nil, fmt.Errorf("mesh %s: %s, %s displacement: %w", s.Mesh.Name, s.Mesh.NodeAt(full/2), "xy"[full%2:full%2+1], err)
	}
	if err != nil {
		return nil, fmt.Errorf("mesh %s: %w", s.Mesh.Name, err)
	}
	return f, nil
}
