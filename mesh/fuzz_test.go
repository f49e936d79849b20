package mesh

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileGmsh are hand-made files that once crashed the reader or made it
// allocate terabytes; they seed the fuzzer.
var hostileGmsh = []string{
	"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n2 1 0 -1\n$EndNodes\n",
	"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n2 1 0 1000000000000\n1\n$EndNodes\n",
	"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n-1 1 1 1\n$EndNodes\n",
	"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n-5 0 0 0\n$EndEntities\n",
	"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n-3\n$EndNodes\n",
	"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n$Elements\n1\n1 2 -1 3\n$EndElements\n",
	"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 NaN 1 0\n$EndNodes\n$Elements\n1\n1 2 2 1 1 1 2 3\n$EndElements\n",
}

// FuzzDecodeGmsh: whatever the bytes, the reader returns an error or a mesh
// whose cells name existing nodes; it never panics.
func FuzzDecodeGmsh(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.msh")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range hostileGmsh {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := DecodeGmsh(strings.NewReader(s), "fuzz.msh")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.msh") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		for c, cell := range m.Cells {
			if len(cell.Nodes) != cell.Kind.NumNodes() {
				t.Errorf("cell %d: %d nodes for %v", c, len(cell.Nodes), cell.Kind)
			}
			for _, n := range cell.Nodes {
				if n < 0 || n >= len(m.Nodes) {
					t.Errorf("cell %d: node %d of %d", c, n, len(m.Nodes))
				}
			}
		}
	})
}

func TestGmshHostileCounts(t *testing.T) {
	for i, want := range []string{
		"fuzz.msh:6: numNodesInBlock = -1: expected a count in [0, 1]",
		"fuzz.msh:6: numNodesInBlock = 1000000000000: expected a count in [0, 1]",
		"fuzz.msh:5: numEntityBlocks = -1: expected a count >= 0",
		"fuzz.msh:5: numPoints = -5: expected a count >= 0",
		"fuzz.msh:5: number of nodes = -3: expected a count >= 0",
	} {
		_, err := DecodeGmsh(strings.NewReader(hostileGmsh[i]), "fuzz.msh")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("input %d: got %v, want %q", i, err, want)
		}
	}
}
