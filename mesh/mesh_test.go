package mesh

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRectangle(t *testing.T) {
	for _, tc := range []struct {
		kind         Kind
		nodes, cells int
	}{
		// 3x2 cells: (nx+1)(ny+1) corners; quadratic kinds add mid-side
		// nodes (Q8) or the full (2nx+1)(2ny+1) lattice (T6).
		{T3, 12, 12}, {Q4, 12, 6}, {T6, 35, 12}, {Q8, 29, 6},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			m, err := Rectangle([2]float64{1, 2}, 0.3, 0.2, 3, 2, tc.kind)
			require.NoError(t, err)
			require.NoError(t, m.Check())
			assert.Len(t, m.Nodes, tc.nodes)
			assert.Len(t, m.Cells, tc.cells)
			assert.InDelta(t, 0.06, m.TotalArea(), 1e-15)
			for c := range m.Cells {
				assert.Greater(t, m.Area(c), 0.0, "cell %d must be counter-clockwise", c)
			}
			want := map[string]float64{"bottom": 0.3, "top": 0.3, "left": 0.2, "right": 0.2}
			var perimeter float64
			for name, length := range want {
				es, err := m.EdgeGroup(name)
				require.NoError(t, err)
				var l float64
				for _, e := range es {
					assert.Len(t, e.Nodes, tc.kind.Order()+1)
					l += m.EdgeLength(e)
				}
				assert.InDelta(t, length, l, 1e-15, name)
				perimeter += l
				nodes, err := m.NodeGroup(name)
				require.NoError(t, err)
				assert.Len(t, nodes, len(es)*tc.kind.Order()+1, name)
			}
			var boundary float64
			for _, e := range m.BoundaryEdges() {
				boundary += m.EdgeLength(e)
				// The outward normal (dy, -dx) points away from the centre.
				a, b := m.Nodes[e.Nodes[0]], m.Nodes[e.Nodes[1]]
				n := [2]float64{b[1] - a[1], a[0] - b[0]}
				mid := [2]float64{(a[0]+b[0])/2 - 1.15, (a[1]+b[1])/2 - 2.1}
				assert.Greater(t, n[0]*mid[0]+n[1]*mid[1], 0.0, "edge %v points inwards", e.Nodes)
			}
			assert.InDelta(t, perimeter, boundary, 1e-15)
		})
	}
}

func TestRectangleRejects(t *testing.T) {
	_, err := Rectangle([2]float64{}, 0, 1, 2, 2, Q4)
	assert.ErrorContains(t, err, "width and height must be positive")
	_, err = Rectangle([2]float64{}, 1, 1, 0, 2, Q4)
	assert.ErrorContains(t, err, "at least one cell")
}

func TestCheckFindsProblems(t *testing.T) {
	base := func() *Mesh {
		m, err := Rectangle([2]float64{}, 1, 1, 2, 1, Q4)
		require.NoError(t, err)
		return m
	}
	for _, tc := range []struct {
		name   string
		break_ func(m *Mesh)
		want   string
	}{
		{"unused node", func(m *Mesh) { m.Nodes = append(m.Nodes, [2]float64{5, 5}) }, "node 6 at (5, 5) is used by no cell"},
		{"duplicate node", func(m *Mesh) {
			m.Nodes = append(m.Nodes, m.Nodes[4])
			m.Cells = append(m.Cells, Cell{Kind: T3, Nodes: []int{1, 6, 3}})
		}, "node 4 and node 6 are at the same place"},
		{"node twice", func(m *Mesh) { m.Cells[1].Nodes[2] = m.Cells[1].Nodes[0] }, "cell 1: uses node 1 twice"},
		{"out of range", func(m *Mesh) { m.Cells[0].Nodes[1] = 99 }, "cell 0: node 99 out of range"},
		{"mixed order", func(m *Mesh) {
			m.Cells = append(m.Cells, Cell{Kind: T6, Nodes: []int{0, 1, 3, 2, 4, 5}})
		}, "cell 2: kind T6 mixes order 2 with order 1 cells"},
		{"wrong node count", func(m *Mesh) { m.Cells[0].Nodes = m.Cells[0].Nodes[:3] }, "cell 0: 3 nodes for kind Q4"},
		{"bad group", func(m *Mesh) { m.NodeGroups["x"] = []int{42} }, `node group "x": node 42 does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			tc.break_(m)
			assert.ErrorContains(t, m.Check(), tc.want)
		})
	}
}

func TestUnknownGroupListsKnownOnes(t *testing.T) {
	m, err := Rectangle([2]float64{}, 1, 1, 1, 1, Q4)
	require.NoError(t, err)
	_, err = m.EdgeGroup("botom")
	assert.ErrorContains(t, err, `no edge group "botom" (edge groups: bottom, left, right, top)`)
}

func TestReadGmsh(t *testing.T) {
	for _, kind := range Kinds {
		for _, format := range []string{"msh41", "msh22"} {
			name := strings.ToLower(kind.String()) + "_" + format
			t.Run(name, func(t *testing.T) {
				m, err := ReadGmsh("testdata/" + name + ".msh")
				require.NoError(t, err)
				require.NoError(t, m.Check())
				for _, c := range m.Cells {
					require.Equal(t, kind, c.Kind)
				}
				assert.InDelta(t, 2.0, m.TotalArea(), 1e-12, "plate.geo is 2 x 1")
				cells, err := m.CellGroup("body")
				require.NoError(t, err)
				assert.Len(t, cells, len(m.Cells))
				for name, length := range map[string]float64{"bottom": 2, "top": 2, "left": 1, "right": 1} {
					es, err := m.EdgeGroup(name)
					require.NoError(t, err)
					var l float64
					for _, e := range es {
						assert.Len(t, e.Nodes, kind.Order()+1)
						l += m.EdgeLength(e)
					}
					assert.InDelta(t, length, l, 1e-12, name)
				}
				// The bottom edges run left to right: the body is on their left.
				es, _ := m.EdgeGroup("bottom")
				for _, e := range es {
					assert.Greater(t, m.Nodes[e.Nodes[1]][0], m.Nodes[e.Nodes[0]][0])
				}
				origin, err := m.NodeGroup("origin")
				require.NoError(t, err)
				require.Len(t, origin, 1)
				assert.Equal(t, [2]float64{0, 0}, m.Nodes[origin[0]])
				left, err := m.NodeGroup("left")
				require.NoError(t, err)
				for _, n := range left {
					assert.InDelta(t, 0, m.Nodes[n][0], 1e-12)
				}
				assert.Len(t, m.BoundaryEdges(), func() int {
					n := 0
					for _, g := range []string{"bottom", "top", "left", "right"} {
						n += len(m.EdgeGroups[g])
					}
					return n
				}())
			})
		}
	}
}

func TestReadGmshErrors(t *testing.T) {
	const head41 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
	const nodes22 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"not gmsh", "hello\n", "bad.msh:1: not a Gmsh mesh"},
		{"binary", "$MeshFormat\n4.1 1 8\n", "bad.msh:2: binary Gmsh files are not supported"},
		{"old version", "$MeshFormat\n3.0 0 8\n", "bad.msh:2: Gmsh format 3.0 is not supported"},
		{"9-node quad", nodes22 + "$Elements\n1\n1 10 2 1 1 1 2 3 4 1 2 3 4 1\n$EndElements\n", "bad.msh:13: element 1: Gmsh element 9-node quadrangle (type 10) is not supported"},
		{"tetrahedron", nodes22 + "$Elements\n1\n1 4 2 1 1 1 2 3 4\n$EndElements\n", "bad.msh:13: element 1: Gmsh element 4-node tetrahedron (type 4)"},
		{"bad coordinate", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 x 0\n", "bad.msh:6: node 1: coordinate \"x\" is not a number"},
		{"3D node", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 1\n", "bad.msh:6: node 1: z = 1"},
		{"missing node", nodes22 + "$Elements\n1\n1 3 2 1 1 1 2 3 7\n$EndElements\n", "bad.msh:13: element 1: node tag 7 is not defined"},
		{"truncated", nodes22 + "$Elements\n2\n1 3 2 1 1 1 2 3 4\n", "bad.msh:13: unexpected end of file"},
		{"wrong count", nodes22 + "$Elements\n1\n1 3 2 1 1 1 2 3\n$EndElements\n", "bad.msh:13: element 1 of type 3: expected 4 nodes, got 3"},
		{"no end", head41[:len(head41)-len("$EndMeshFormat\n")] + "$Nodes\n", "bad.msh:3: expected $EndMeshFormat"},
		{"no cells", nodes22 + "$Elements\n1\n1 15 2 1 1 1\n$EndElements\n", "bad.msh: no triangles or quadrangles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeGmsh(strings.NewReader(tc.text), "bad.msh")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestQuadraticEdgeLength(t *testing.T) {
	m := New("arc")
	// Parabola y = 0.1 (1 - x^2) through (-1,0), (1,0), (0,0.1): length
	// 2 * integral_0^1 sqrt(1 + 0.04 x^2) dx = sqrt(1.04) + asinh(0.2)/0.2.
	m.Nodes = [][2]float64{{-1, 0}, {1, 0}, {0, 0.1}}
	want := math.Sqrt(1.04) + math.Asinh(0.2)/0.2
	assert.InDelta(t, want, m.EdgeLength(Edge{Nodes: []int{0, 1, 2}}), 1e-9, "5-point Gauss on a nearly straight edge")
}
