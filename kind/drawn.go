package kind

import "github.com/fecontact/fecontact/io/vtk"

// Drawn is a family the outputs show without naming its kind (optional):
// a run writes each of its series as NAME.pvd with a piece per output
// time and opens it in ParaView as its style says, draws its shapes in
// bodies.png, and writes its columns in history.csv every step. A kind
// that implements it (rigid bodies, point masses, any an embedding
// program brings) gets all of these from package io/results unchanged.
type Drawn interface {
	// Series are the family's ParaView series at the state now, in the
	// order they are written; a nil Grid (and no Parts) writes no piece
	// this time. The series' names and styles are fixed for the run. The
	// grids are read while the steps go on (they are written beside
	// them): they must not share storage the steps change, only storage
	// the family reuses at its next Series call.
	Series() ([]Series, error)
	// Shapes are what a picture draws of the family now.
	Shapes(dst []Shape) []Shape
	// Columns name the family's history.csv columns, once; Row appends
	// their values now, one per column, in that order.
	Columns() []Column
	Row(dst []float64) []float64
}

// Series is one ParaView series of a family: NAME.pvd, its pieces
// NAME_00042.vtu, or, for a series of parts (a body each), a piece per
// part, NAME_PART_00042.vtu, listed as the parts of one time.
type Series struct {
	Name  string // plain ASCII, unique among the run's series
	Style Style
	Grid  *vtk.Grid
	Parts []Part // instead of Grid
}

// Part is one part of a Series: a body's piece.
type Part struct {
	Name string // a file name's part: the body's name
	Grid *vtk.Grid
}

// Style is how the ParaView script shows a series.
type Style int

const (
	// Solid is polygons drawn as surfaces with their edges, framed by the
	// camera but for the cells whose "driven" array is 1 (a ground).
	Solid Style = iota
	// Lines is thin dark lines, not framed (springs).
	Lines
	// Dots is spheres at the points, of the "radius" point array where it
	// is positive (or of a hundredth of the scene), framed.
	Dots
	// Warped is deformable bodies: surfaces with their edges, warped by
	// their "displacement" point vectors and coloured by their
	// "von_mises" point array, framed.
	Warped
)

// Shape is one thing a picture draws: a closed outline, an open line, a
// dot or a mesh. Still marks a shape whose motion is prescribed (a driven
// ground): drawn, but not what the picture frames.
type Shape struct {
	Form   Form
	Points [][2]float64 // the outline's vertices, the line's points, the dot, the mesh's nodes
	Still  bool
	// Sides are a mesh's cell sides, each an open line through Points
	// (their indices); a family may share them among its shapes, which
	// must not change them.
	Sides [][]int
}

// Form is a Shape's form.
type Form int

const (
	Outline Form = iota // closed polygon: a body
	Line                // open polyline: a spring
	Dot                 // one point: a point mass
	Mesh                // a body's cells' sides: a deformable body, coloured as an outline is
)

// Column is a history.csv column: its name, its unit ("" for a count or
// a ratio) and the significant digits it is written to.
type Column struct {
	Name, Unit string
	Digits     int
}
