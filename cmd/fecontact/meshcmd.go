package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/io/vtk"
	"github.com/fecontact/fecontact/mesh"
)

func meshCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mesh", flag.ContinueOnError)
	fs.SetOutput(stdout)
	out := fs.String("o", "", "write the mesh to this .vtu file")
	encoding := fs.String("encoding", "base64", "VTU data encoding: base64, raw or ascii")
	kind := fs.String("kind", "Q4", "rect: cell kind T3, Q4, T6 or Q8")
	size := fs.String("size", "1x1", "rect: width x height in m, e.g. 0.12x0.04")
	cells := fs.String("cells", "10x10", "rect: cells along x and y, e.g. 30x10")
	origin := fs.String("origin", "0,0", "rect: lower-left corner x,y in m")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: fecontact mesh FILE.msh [-o out.vtu]\n       fecontact mesh rect --kind Q8 --size 0.12x0.04 --cells 30x10 [-o out.vtu]")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: expected one mesh file or \"rect\", got %d arguments", errUsage, len(pos))
	}
	var m *mesh.Mesh
	if pos[0] == "rect" {
		m, err = rectFromFlags(*kind, *size, *cells, *origin)
	} else {
		m, err = mesh.ReadGmsh(pos[0])
	}
	if err != nil {
		return err
	}
	enc, err := vtk.ParseEncoding(*encoding)
	if err != nil {
		return fmt.Errorf("%w: --encoding: %v", errUsage, err)
	}
	problems := element.CheckMesh(m)
	summarise(stdout, m, problems)
	if problems != nil {
		return errors.New("the mesh has problems (listed above); nothing written")
	}
	if *out != "" {
		if err := vtk.WriteVTU(*out, vtk.FromMesh(m), enc); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
	}
	return nil
}

func rectFromFlags(kind, size, cells, origin string) (*mesh.Mesh, error) {
	k, err := mesh.ParseKind(kind)
	if err != nil {
		return nil, fmt.Errorf("%w: --kind: %v", errUsage, err)
	}
	wh, err := pair(size, "x", "--size", "WIDTHxHEIGHT, e.g. 0.12x0.04")
	if err != nil {
		return nil, err
	}
	n, err := pair(cells, "x", "--cells", "NXxNY, e.g. 30x10")
	if err != nil {
		return nil, err
	}
	if n[0] != math.Trunc(n[0]) || n[1] != math.Trunc(n[1]) {
		return nil, fmt.Errorf("%w: --cells %q: expected whole numbers", errUsage, cells)
	}
	o, err := pair(origin, ",", "--origin", "X,Y, e.g. 0,0.04")
	if err != nil {
		return nil, err
	}
	return mesh.Rectangle(o, wh[0], wh[1], int(n[0]), int(n[1]), k)
}

// pair reads two numbers separated by sep.
func pair(s, sep, flagName, want string) ([2]float64, error) {
	parts := strings.Split(s, sep)
	var out [2]float64
	if len(parts) != 2 {
		return out, fmt.Errorf("%w: %s %q: expected %s", errUsage, flagName, s, want)
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return out, fmt.Errorf("%w: %s %q: expected %s", errUsage, flagName, s, want)
		}
		out[i] = v
	}
	return out, nil
}

// summarise prints the mesh's sizes, groups and problems.
func summarise(w io.Writer, m *mesh.Mesh, problems error) {
	fmt.Fprintf(w, "mesh %s\n", m.Name)
	fmt.Fprintf(w, "  nodes       %d\n", len(m.Nodes))
	count := map[mesh.Kind]int{}
	for _, c := range m.Cells {
		count[c.Kind]++
	}
	var kinds []string
	for _, k := range mesh.Kinds {
		if count[k] > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %v", count[k], k))
		}
	}
	fmt.Fprintf(w, "  cells       %d (%s)\n", len(m.Cells), strings.Join(kinds, ", "))
	if problems == nil {
		lo, hi := math.Inf(1), 0.0
		for c := range m.Cells {
			a := m.Area(c)
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
		fmt.Fprintf(w, "  area        %.6g m^2\n", m.TotalArea())
		fmt.Fprintf(w, "  cell area   smallest %.4g, largest %.4g m^2\n", lo, hi)
		var length float64
		be := m.BoundaryEdges()
		for _, e := range be {
			length += m.EdgeLength(e)
		}
		fmt.Fprintf(w, "  boundary    %d edges, %.6g m\n", len(be), length)
	}
	nodes, edges, cells := m.GroupNames()
	groups := func(label string, names []string, size func(string) int) {
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s (%d)", n, size(n)))
		}
		if len(parts) == 0 {
			parts = []string{"none"}
		}
		fmt.Fprintf(w, "  %-11s %s\n", label, strings.Join(parts, ", "))
	}
	groups("node groups", nodes, func(n string) int { return len(m.NodeGroups[n]) })
	groups("edge groups", edges, func(n string) int { return len(m.EdgeGroups[n]) })
	groups("cell groups", cells, func(n string) int { return len(m.CellGroups[n]) })
	if problems == nil {
		fmt.Fprintln(w, "  problems    none")
		return
	}
	fmt.Fprintln(w, "  problems:")
	for _, line := range strings.Split(problems.Error(), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
}
