package scene

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/rigid"
)

// Wall builds a masonry wall of rectangular blocks, course by course from
// Origin (the lower-left corner): Blocks full blocks of Size = [w, h] a
// course, in a running bond (every other course shifted by half a block,
// with a half block at each end, so that the wall's ends are straight),
// a stack bond (blocks over blocks), a header bond (courses of headers,
// blocks (w - joint) / 2 wide, every other course shifted by half a
// header with a quarter block at each end) or an English bond (courses of
// stretchers and of headers in turn, the header courses with their
// quarter closers at the ends); Joint is the gap between blocks
// and courses (0: dry joints, blocks touching). The blocks are NAME_cK_bJ
// (course K from 1 at the bottom, block J from 1 on the left), of group
// Group (default Name), deterministic: a run lists them in its summary
// and history as any [[rigid]] body.
type Wall struct {
	Name     string    `toml:"name"`
	Group    string    `toml:"group"`
	Origin   []float64 `toml:"origin"`
	Courses  int       `toml:"courses"`
	Blocks   int       `toml:"blocks"`
	Size     []float64 `toml:"size"`
	Bond     string    `toml:"bond"`  // running (default), stack, header or english
	Joint    float64   `toml:"joint"` // m
	Rho      float64   `toml:"rho"`
	Velocity []float64 `toml:"velocity"`
	Gravity  []float64 `toml:"gravity"`
}

// maxWallBlocks bounds a wall before anything is allocated.
const maxWallBlocks = 1000000

func (w *Wall) check(i int) error {
	where := fmt.Sprintf("wall %d", i+1)
	if err := fileName(w.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("wall %q", w.Name)
	switch {
	case len(w.Origin) != 2 || !bounded(w.Origin...):
		return bad(where, "origin", w.Origin, "expected [x, y], the wall's lower-left corner, in m")
	case w.Courses < 1 || w.Blocks < 1 || float64(w.Courses)*float64(w.Blocks+1) > maxWallBlocks:
		return bad(where, "courses x blocks", fmt.Sprintf("%d x %d", w.Courses, w.Blocks), fmt.Sprintf("expected at least one course of one block, %d blocks at most", maxWallBlocks))
	case len(w.Size) != 2 || !positive(w.Size[0]) || !positive(w.Size[1]) || !bounded(w.Size...):
		return bad(where, "size", w.Size, "expected [width, height] of a block, positive, in m")
	case w.Bond != "" && w.Bond != "running" && w.Bond != "stack" && w.Bond != "header" && w.Bond != "english":
		return bad(where, "bond", fmt.Sprintf("%q", w.Bond), `expected "running", "stack", "header" or "english"`)
	case (w.Bond == "header" || w.Bond == "english") && !(w.Size[0] > 3*w.Joint):
		return bad(where, "joint", w.Joint, "expected a joint under a third of the block's width: a header bond's quarter closers are (w - 3 joint) / 4 wide")
	case !(w.Joint >= 0) || !(w.Joint < math.Min(w.Size[0], w.Size[1])):
		return bad(where, "joint", w.Joint, "expected a gap between blocks in m, from 0 (dry) to less than a block")
	case !positive(w.Rho):
		return bad(where, "rho", w.Rho, "expected a positive density in kg/m^3")
	case w.Velocity != nil && (len(w.Velocity) != 2 || !bounded(w.Velocity...)):
		return bad(where, "velocity", w.Velocity, "expected [vx, vy] in m/s")
	case w.Gravity != nil && (len(w.Gravity) != 2 || !bounded(w.Gravity...)):
		return bad(where, "gravity", w.Gravity, "expected [gx, gy] in m/s^2")
	}
	return nil
}

// course is the widths of course c's blocks, left to right.
func (w *Wall) course(c int) []float64 {
	bw, j := w.Size[0], w.Joint
	fill := func(n int, width float64) []float64 {
		out := make([]float64, n)
		for k := range out {
			out[k] = width
		}
		return out
	}
	header := (bw - j) / 2 // two headers and their joint are a stretcher
	switch {
	case w.Bond == "stack", (w.Bond == "" || w.Bond == "running") && c%2 == 0, w.Bond == "english" && c%2 == 0:
		return fill(w.Blocks, bw)
	case w.Bond == "" || w.Bond == "running":
		// Half a block at each end: the joints fall over the course
		// below's blocks' middles and the ends stay straight.
		return append(append([]float64{header}, fill(w.Blocks-1, bw)...), header)
	case w.Bond == "header" && c%2 == 0:
		return fill(2*w.Blocks, header)
	}
	// A header course shifted by half a header: a quarter closer at
	// each end.
	closer := (header - j) / 2
	return append(append([]float64{closer}, fill(2*w.Blocks-1, header)...), closer)
}

// group is the wall's blocks' group.
func (w *Wall) group() string {
	if w.Group != "" {
		return w.Group
	}
	return w.Name
}

// build lays the wall's blocks.
func (w *Wall) build() ([]*rigid.Body, error) {
	bh, j := w.Size[1], w.Joint
	var out []*rigid.Body
	for c := range w.Courses {
		y := w.Origin[1] + float64(c)*(bh+j) + bh/2
		widths := w.course(c)
		x := w.Origin[0]
		for k, width := range widths {
			shape, err := rigid.Rectangle(width, bh)
			if err != nil {
				return nil, err
			}
			b, err := rigid.NewBody(fmt.Sprintf("%s_c%d_b%d", w.Name, c+1, k+1), shape, [2]float64{x + width/2, y}, w.Rho)
			if err != nil {
				return nil, err
			}
			b.Group = w.group()
			if w.Velocity != nil {
				b.V[0], b.V[1] = w.Velocity[0], w.Velocity[1]
			}
			if w.Gravity != nil {
				b.Gravity = [2]float64{w.Gravity[0], w.Gravity[1]}
			}
			out = append(out, b)
			x += width + j
		}
	}
	return out, nil
}
