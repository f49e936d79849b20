package scene

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// A scene's builders ([[grains]], [[wall]], [[arch]]) expanded into the
// bodies they build: the scene a run keeps (scene-as-run.toml) lists
// every body, so that it runs again without the builders, its random
// draws and its deposits, to the bit.

// builderHeader is the header of a builder's table: [[grains]], [[wall]]
// or [[arch]], spaces and a comment allowed.
var builderHeader = regexp.MustCompile(`^\s*\[\[\s*(grains|wall|arch)\s*\]\]\s*(#.*)?$`)

// Expanded is the scene with its builders' tables commented out and the
// bodies they build written after them as [[rigid]] tables (their
// vertices about the centre of mass, mass and inertia as built), decoded
// again: the same rigid bodies, their areas perhaps to the last digit.
// A scene without builders is returned as it is, and so is one whose
// builders its text gives in a form the expansion cannot take out
// (inline arrays, or a text the expanded scene does not read back from)
// or whose expansion would be larger than a scene may be (MaxSceneBytes);
// its warnings say why: the expansion never stops a run.
func (s *Scene) Expanded() (*Scene, error) {
	if len(s.Grains)+len(s.Walls)+len(s.Arches) == 0 {
		return s, nil
	}
	built, err := s.builtBodies()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(commentBuilders(s.Text))
	b.WriteString("\n# The bodies of the builders above, as they were built (fecontact expanded them):\n")
	for _, body := range built {
		t, err := rigidTable(body)
		if err != nil {
			return nil, fmt.Errorf("%s: expanding its builders: %w", s.Name, err)
		}
		b.WriteString(t)
	}
	if b.Len() > MaxSceneBytes {
		s.notes = append(s.notes, fmt.Sprintf("scene-as-run.toml keeps the builders: the %d bodies they build would make it %.0f MB, over the %d MB a scene may be", len(built), float64(b.Len())/1e6, MaxSceneBytes>>20))
		return s, nil
	}
	e, err := Decode(strings.NewReader(b.String()), s.Name)
	if err != nil { // a text the commenting out did not take right: the run goes on with the builders
		s.notes = append(s.notes, fmt.Sprintf("scene-as-run.toml keeps the builders: the scene with them expanded did not read back (%v)", err))
		return s, nil
	}
	if len(e.Grains)+len(e.Walls)+len(e.Arches) > 0 { // written inline: grains = [{...}]
		s.notes = append(s.notes, "scene-as-run.toml keeps the builders: they are written as inline arrays, which the expansion does not take out; write them as [[grains]], [[wall]] or [[arch]] tables")
		return s, nil
	}
	e.Files, e.Example = s.Files, s.Example
	return e, nil
}

// builtBodies are the bodies the scene's builders build, in the rigid
// system's order (after the [[rigid]] tables' own).
func (s *Scene) builtBodies() ([]*rigid.Body, error) {
	var out []*rigid.Body
	for i := range s.Grains {
		gs, err := s.Grains[i].build()
		if err != nil {
			return nil, fmt.Errorf("%s: grains %q: %w", s.Name, s.Grains[i].Name, err)
		}
		out = append(out, gs...)
	}
	for i := range s.Walls {
		ws, err := s.Walls[i].build()
		if err != nil {
			return nil, fmt.Errorf("%s: wall %q: %w", s.Name, s.Walls[i].Name, err)
		}
		out = append(out, ws...)
	}
	for i := range s.Arches {
		as, err := s.Arches[i].build()
		if err != nil {
			return nil, fmt.Errorf("%s: arch %q: %w", s.Name, s.Arches[i].Name, err)
		}
		out = append(out, as...)
	}
	return out, nil
}

// commentBuilders comments out every line of the builders' tables: from
// a builder's header to the next table's. A header is a line that starts
// with "[" outside any array, so that an array written over lines, its
// rows starting with "[", stays in its table.
func commentBuilders(text string) string {
	lines := strings.SplitAfter(text, "\n")
	in, depth := false, 0
	var b strings.Builder
	for _, l := range lines {
		if t := strings.TrimSpace(l); depth == 0 && strings.HasPrefix(t, "[") {
			in = builderHeader.MatchString(t)
		}
		depth += brackets(l)
		if in {
			b.WriteString("# (expanded below) ")
		}
		b.WriteString(l)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// brackets is how many arrays a line opens less how many it closes,
// outside its strings and its comment (a header's brackets balance).
func brackets(line string) int {
	n := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return n
		case c == '[':
			n++
		case c == ']':
			n--
		}
	}
	return n
}

// rigidTable is a built body as a [[rigid]] table that builds it again;
// a body with what the table does not write (a motion but fixed, a force,
// a moment, a surface) is an error: a builder that makes one needs its
// keys written here.
func rigidTable(b *rigid.Body) (string, error) {
	_, fixed := b.Motion.(contact.Fixed)
	if (b.Motion != nil && !fixed) || b.Force != [2]float64{} || b.Moment != 0 || b.LoadTime != nil || len(b.Surface) > 0 {
		return "", fmt.Errorf("rigid body %q: its motion, force, moment or surface is not written by the expansion", b.Name)
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, "[[rigid]]\nname = %s\n", strconv.Quote(b.Name))
	if b.Group != "" {
		fmt.Fprintf(&w, "group = %s\n", strconv.Quote(b.Group))
	}
	switch sh := b.Shape.(type) {
	case rigid.Disk:
		fmt.Fprintf(&w, "radius = %s\n", num(sh.R))
	case *rigid.Polygon:
		fmt.Fprintf(&w, "shape = %s\n", pairs(sh.Vertices()))
	}
	fmt.Fprintf(&w, "position = [%s, %s]\n", num(b.Q[0]), num(b.Q[1]))
	if b.Q[2] != 0 {
		fmt.Fprintf(&w, "angle = %s\n", num(b.Q[2]))
	}
	fmt.Fprintf(&w, "mass = %s\ninertia = %s\n", num(b.Mass), num(b.Inertia))
	if fixed {
		w.WriteString("motion = { type = \"fixed\" }\n")
		return w.String(), nil
	}
	if b.V[0] != 0 || b.V[1] != 0 {
		fmt.Fprintf(&w, "velocity = [%s, %s]\n", num(b.V[0]), num(b.V[1]))
	}
	if b.V[2] != 0 {
		fmt.Fprintf(&w, "omega = %s\n", num(b.V[2]))
	}
	if b.Gravity != [2]float64{} {
		fmt.Fprintf(&w, "gravity = [%s, %s]\n", num(b.Gravity[0]), num(b.Gravity[1]))
	}
	return w.String(), nil
}

// num writes x as a TOML float that reads back to the same bits.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return strings.ToLower(s)
	}
	return s
}

// pairs writes points as a TOML array of [x, y].
func pairs(ps [][2]float64) string {
	parts := make([]string, len(ps))
	for k, p := range ps {
		parts[k] = "[" + num(p[0]) + ", " + num(p[1]) + "]"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
