package scene

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/element"
	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/fe"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// Scene is the content of a scene file.
type Scene struct {
	Title     string     `toml:"title"`
	Time      Time       `toml:"time"`
	Solver    Solver     `toml:"solver"`
	Output    Output     `toml:"output"`
	Bodies    []Body     `toml:"body"`
	Obstacles []Obstacle `toml:"obstacle"`
	Contacts  []Contact  `toml:"contact"`
	// Rigid bodies and the rules of their contacts.
	Rigid         []Rigid       `toml:"rigid"`
	Grains        []Grains      `toml:"grains"`
	Walls         []Wall        `toml:"wall"`
	Arches        []Arch        `toml:"arch"`
	RigidContacts RigidContacts `toml:"rigid_contacts"`
	Periodic      Periodic      `toml:"periodic"`
	// Point masses, the springs between them and their contacts.
	Masses        []Mass         `toml:"mass"`
	Springs       []Spring       `toml:"spring"`
	PointContacts []PointContact `toml:"point_contact"`

	// Dir is the folder of the scene file: Gmsh paths are relative to it.
	Dir string `toml:"-"`
	// Files, when set, is where relative Gmsh paths are read instead of
	// Dir on disk: a built-in example's embedded folder.
	Files fs.FS `toml:"-"`
	// Example names the built-in example the scene is, whose Files those
	// are: a checkpoint of its run finds its meshes again by it.
	Example string `toml:"-"`
	// Name is the file's name, used in messages.
	Name string `toml:"-"`
	// Text is the scene as it was read, for a run to keep beside its
	// outputs.
	Text string `toml:"-"`

	notes []string // what the checks changed, for Model.Warnings
	kinds []Tables // the registered kinds' tables (kinds.go)
}

// Time is the time stepping.
type Time struct {
	H        float64 `toml:"h"`        // time step, s
	Theta    float64 `toml:"theta"`    // in [1/2, 1]; default 1/2
	Duration float64 `toml:"duration"` // s
}

// Solver configures NLGS.
type Solver struct {
	Tolerance float64 `toml:"tolerance"` // default 1e-8
	// ChangeTolerance also requires the relative change of the impulses
	// over a sweep to fall below it; absent, the residual alone decides
	// (contact problems are often hyperstatic: see signorini.Options).
	ChangeTolerance *float64 `toml:"change_tolerance"`
	MaxSweeps       int      `toml:"max_sweeps"` // default 10000
	Order           string   `toml:"order"`      // natural (default), alternating, random
	// Measure is what the tolerance bounds: "residual" (the default: the
	// natural-map residual) or "velocity" (the change of the contacts'
	// local velocities over a sweep relative to their scale, the same
	// meaning in every problem: signorini.VelocityChange).
	Measure    string  `toml:"measure"`
	Relaxation float64 `toml:"relaxation"` // in (0, 2); default 1
	Strict     bool    `toml:"strict"`     // stop at a step whose contact solve does not converge
	// Method is how each step's contact problem is solved: "auto" (the
	// default: NLGS, handed to Newton's method when it stalls), "nlgs"
	// or "newton" (signorini.Solve).
	Method string `toml:"method"`
	// NewtonIterations bounds Newton's iterations on one problem
	// (nil: 100, or 500 on a problem of more than 400 contacts); under
	// method "nlgs", which runs no Newton, it is refused.
	NewtonIterations *int `toml:"newton_iterations"`
	// Newton is "full" (the default: the hyperelastic bodies' tangents
	// refactorised at every iteration) or "modified" (a factor kept while
	// it converges; fe.Stepper.SetModifiedNewton).
	Newton string `toml:"newton"`
}

// Output selects what is written.
type Output struct {
	Every    int       `toml:"every"`    // steps between field outputs; default 10
	Encoding string    `toml:"encoding"` // base64 (default), raw, ascii
	Pictures []float64 `toml:"pictures"` // times of the deformed-bodies picture
	// Frame is the region bodies.png shows, [xmin, xmax, ymin, ymax] (m);
	// none: the bodies that move, over the run.
	Frame []float64 `toml:"frame"`
	// Gaps are pairs of [[rigid]] bodies whose distance is written every
	// step (history.csv) and drawn (gaps.png).
	Gaps [][]string `toml:"gaps"`
	// Profile writes the rigid bodies' velocity profile (profile.csv,
	// profile.png).
	Profile *Profile `toml:"profile"`
	// Granular measures the rigid grains at every output time
	// (granular.csv, forces.png, fabric.png, chains.pvd; package granular).
	Granular *Granular `toml:"granular"`
}

// Granular is a granular study's region and window: the grains whose
// centre lies in Region = [xmin, xmax, ymin, ymax] (m; none: the free
// grains' box at each time), the means and distributions over the output
// times in Window = [from, to] (s; none: the whole run).
type Granular struct {
	Region []float64 `toml:"region"`
	Window []float64 `toml:"window"`
	// Surface is [x0, x1] (m), the span the free surface is fitted over
	// at each output time (granular.FreeSurface): a heap's angle.
	Surface []float64 `toml:"surface"`
}

// Profile is the mean x velocity of the free rigid bodies in Strips
// horizontal strips between heights Bottom and Top, over the steps from
// From (s) on.
type Profile struct {
	Strips int       `toml:"strips"`
	Y      []float64 `toml:"y"` // [bottom, top], m
	From   float64   `toml:"from"`
	Window float64   `toml:"window"` // s: the mean over each window too (0: none)
}

// Body is one deformable body.
type Body struct {
	Name      string     `toml:"name"`
	Rectangle *Rectangle `toml:"rectangle"`
	Gmsh      string     `toml:"gmsh"`
	E         float64    `toml:"E"`
	Nu        float64    `toml:"nu"`
	Rho       float64    `toml:"rho"`
	Plane     string     `toml:"plane"`     // strain (default) or stress
	Thickness float64    `toml:"thickness"` // m; default 1
	Fixed     []Fixed    `toml:"fixed"`
	Velocity  []float64  `toml:"velocity"` // initial, m/s
	Gravity   []float64  `toml:"gravity"`  // m/s^2
	Ramp      float64    `toml:"ramp"`     // s: gravity and the tractions rise linearly from 0 to full over it
	// Traction loads edge groups: a traction vector or a pressure on
	// each, constant after the ramp.
	Traction []Traction `toml:"traction"`
	Damping  Damping    `toml:"damping"`
	Lumped   bool       `toml:"lumped"` // HRZ lumped mass
	// Model is "linear" (small strain, the default), "stvenant" or
	// "neohookean" (large strain, plane strain, element.Hyperelastic).
	Model string `toml:"model"`
	// Dilatation is "full" (the default) or "mean" (element.MeanDilatation:
	// no volumetric locking on Q4, Q8 and T6 as nu nears 1/2); for the
	// hyperelastic models.
	Dilatation string `toml:"dilatation"`
}

// Rectangle is a generated mesh.
type Rectangle struct {
	Kind   string    `toml:"kind"`   // T3, Q4, T6, Q8
	Origin []float64 `toml:"origin"` // lower-left corner
	Size   []float64 `toml:"size"`   // width, height
	Cells  []int     `toml:"cells"`  // along x and y
}

// Fixed clamps components of a node group, or drives them: with a Motion
// (velocity, sine or record) they move with its velocity, their
// displacement its theta-rule integral from the mesh's position
// (fe.Driven).
type Fixed struct {
	Group      string  `toml:"group"`
	Components string  `toml:"components"` // x, y or xy (default)
	Motion     *Motion `toml:"motion"`
}

// Damping is Rayleigh damping.
type Damping struct {
	Alpha float64 `toml:"alpha"`
	Beta  float64 `toml:"beta"`
}

// Obstacle is a rigid obstacle.
type Obstacle struct {
	Name   string      `toml:"name"`
	Points [][]float64 `toml:"points"` // polyline, obstacle on its right
	Center []float64   `toml:"center"` // disc
	Radius float64     `toml:"radius"`
	Motion Motion      `toml:"motion"`
}

// Motion is an obstacle's prescribed translation.
type Motion struct {
	Type      string    `toml:"type"`      // fixed (default), velocity, sine, record
	Velocity  []float64 `toml:"velocity"`  // for velocity
	Amplitude float64   `toml:"amplitude"` // for sine, m
	Period    float64   `toml:"period"`    // for sine, s
	Direction []float64 `toml:"direction"` // for sine and record
	// File is a record's CSV file (beside the scene): its first column
	// the time in s, Column (default the second) the acceleration along
	// Direction, in m/s^2 times Scale (default 1; 9.81 for a record in g).
	File   string  `toml:"file"`
	Column string  `toml:"column"`
	Scale  float64 `toml:"scale"`
	// Quantity is what a record's column gives: "acceleration" (the
	// default), "velocity" (m/s) or "displacement" (m, from 0 at its
	// first time), each linear between its samples and times Scale.
	Quantity string `toml:"quantity"`
}

// Side names an edge group of a body.
type Side struct {
	Body  string `toml:"body"`
	Group string `toml:"group"`
}

// Contact is a contact pair.
type Contact struct {
	Name       string   `toml:"name"`
	Candidate  Side     `toml:"candidate"`
	Antagonist *Side    `toml:"antagonist"`
	Obstacle   string   `toml:"obstacle"`
	Rigid      string   `toml:"rigid"` // a [[rigid]] body as antagonist
	Mu         float64  `toml:"mu"`
	MuDynamic  *float64 `toml:"mu_dynamic"` // while sliding; default mu
	Law        string   `toml:"law"`        // signorini (default) or shock
	Basis      string   `toml:"basis"`      // nodal (default) or pairing
	Alert      float64  `toml:"alert"`      // m; default: half the smallest candidate edge
	OneWay     bool     `toml:"one_way"`    // only the candidate's nodes are kept out (default: both bodies)
	// Cohesion is the tension (Pa, per area of joint) each unit touching
	// at the run's start holds before its bond breaks for good: a glued
	// or mortared joint (0, the default: none).
	Cohesion float64 `toml:"cohesion"`
}

// MaxSceneBytes bounds a scene file: a scene is a page of text (meshes
// are files of their own), so a larger one is a mistake or a device.
const MaxSceneBytes = 16 << 20

// Load reads and checks a scene file.
func Load(path string) (*Scene, error) {
	text, err := inputfile.ReadFile(path, MaxSceneBytes, "scene file (TOML)")
	if err != nil {
		return nil, err
	}
	return Decode(bytes.NewReader(text), path)
}

// Example decodes a built-in example (package examples), the meshes it
// names read from its embedded folder.
func Example(name string) (*Scene, error) {
	data, err := examples.Scene(name)
	if err != nil {
		return nil, err
	}
	sc, err := Decode(bytes.NewReader(data), "examples/"+name+"/scene.toml")
	if err != nil {
		return nil, err
	}
	if sc.Files, err = examples.Files(name); err != nil {
		return nil, err
	}
	sc.Example = name
	return sc, nil
}

// unknownKeys names each key the scene does not know, once, with the
// lines where it is set (the decoder gives keys, not positions: a line
// that starts with the key's last part and "=" is where it is set).
func unknownKeys(name, text string, und []toml.Key) error {
	lines := strings.Split(text, "\n")
	var msgs []string
	seen := map[string]bool{}
	for _, k := range und {
		key := k.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		var at []string
		for i, l := range lines {
			if left, _, ok := strings.Cut(l, "="); ok && strings.TrimSpace(left) == k[len(k)-1] {
				at = append(at, strconv.Itoa(i+1))
			}
		}
		if len(at) > 0 {
			key += " (line " + strings.Join(at, ", ") + ")"
		}
		msgs = append(msgs, key)
	}
	return fmt.Errorf("%s: unknown key %s (check the spelling against the scene reference, docs/guide.md)", name, strings.Join(msgs, "; "))
}

// Decode reads and checks a scene; name is used in messages and its folder
// for relative Gmsh paths.
func Decode(r io.Reader, name string) (*Scene, error) {
	var s Scene
	text, err := inputfile.Read(r, name, MaxSceneBytes, "scene file (TOML)")
	if err != nil {
		return nil, err
	}
	md, err := toml.NewDecoder(bytes.NewReader(text)).Decode(&s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := ownUnknown(md.Undecoded()); len(und) > 0 {
		return nil, unknownKeys(name, string(text), und)
	}
	s.Name, s.Dir, s.Text = name, filepath.Dir(name), string(text)
	if err := s.explicitZeros(md); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := s.readKinds(name, text); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate fills in the defaults and checks every value, for scenes built
// in Go rather than read from a file.
func (s *Scene) Validate() error {
	s.defaults()
	if err := s.check(); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	return nil
}

// explicitZeros refuses a zero written in the file where an absent key
// means a default: defaults() cannot tell the two apart, and a user who
// writes theta = 0 or every = 0 means something other than the default.
func (s *Scene) explicitZeros(md toml.MetaData) error {
	for _, k := range []struct {
		table, key string
		zero       bool
		want       string
	}{
		{"time", "theta", s.Time.Theta == 0, "expected a value in [0.5, 1] (leave it out for 0.5)"},
		{"solver", "tolerance", s.Solver.Tolerance == 0, "expected a positive tolerance (leave it out for 1e-8)"},
		{"solver", "max_sweeps", s.Solver.MaxSweeps == 0, "expected a positive number of sweeps (leave it out for the default: 10000 under nlgs, 100000 under auto)"},
		{"solver", "relaxation", s.Solver.Relaxation == 0, "expected a value in (0, 2) (leave it out for 1)"},
		{"output", "every", s.Output.Every == 0, "expected a whole number of steps >= 1 (leave it out for 10)"},
	} {
		if k.zero && md.IsDefined(k.table, k.key) {
			return bad("["+k.table+"]", k.key, 0, k.want)
		}
	}
	return nil
}

func (s *Scene) defaults() {
	if s.Time.Theta == 0 {
		s.Time.Theta = timestep.DefaultTheta // alpha's check below needs it
	}
	if s.Output.Every == 0 {
		s.Output.Every = 10
	}
	if s.Output.Encoding == "" {
		s.Output.Encoding = "base64"
	}
	for i := range s.Contacts {
		if s.Contacts[i].Law == "" {
			s.Contacts[i].Law = "signorini"
		}
		if s.Contacts[i].Basis == "" {
			s.Contacts[i].Basis = "nodal"
		}
	}
}

// Steps is the number of steps of the run.
func (s *Scene) Steps() int {
	return int(math.Round(s.Time.Duration / s.Time.H))
}

// maxStrips and maxWindows bound the velocity profile's strips and
// windows: each holds a column of profile.csv, allocated before the run.
const (
	maxStrips  = 10000
	maxWindows = 100000
)

// bad builds the error for one key: "body \"upper\": rho = -7800: ...".
// models are the hyperelastic values of a body's model key.
var models = map[string]element.Law{"stvenant": element.StVenantKirchhoff, "neohookean": element.NeoHookean}

func bad(where, key string, value any, want string) error {
	if where != "" {
		where += ": "
	}
	return fmt.Errorf("%s%s = %v: %s", where, key, value, want)
}

// muDynamicRange is what a dynamic friction coefficient out of range is
// told.
func muDynamicRange(static float64) string {
	return fmt.Sprintf("expected the friction coefficient while sliding, from 0 to the static one (mu = %g)", static)
}

// muRange is what a friction coefficient out of range is told.
var muRange = fmt.Sprintf("expected a friction coefficient in [0, %g] (mu = %g already makes a contact stick; beyond it the solver's convergence measure is lost in round-off)", contact.MaxMu, contact.MaxMu)

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func (s *Scene) check() error {
	t := s.Time
	switch {
	case !positive(t.H):
		return bad("[time]", "h", t.H, "expected a positive time step in s")
	case !(t.Theta >= 0.5 && t.Theta <= 1):
		return bad("[time]", "theta", t.Theta, "expected a value in [0.5, 1]")
	case !positive(t.Duration):
		return bad("[time]", "duration", t.Duration, "expected a positive duration in s")
	case t.Duration/t.H > 1e8:
		return bad("[time]", "duration", t.Duration, fmt.Sprintf("%.3g steps of h = %g s is more than 1e8", t.Duration/t.H, t.H))
	case s.Steps() < 1:
		return bad("[time]", "duration", t.Duration, fmt.Sprintf("shorter than half a step of h = %g s: no step would run", t.H))
	}
	if err := s.Solver.check(); err != nil {
		return err
	}
	o := s.Output
	if o.Every < 1 {
		return bad("[output]", "every", o.Every, "expected a whole number of steps >= 1")
	}
	switch o.Encoding {
	case "base64", "raw", "ascii":
	default:
		return bad("[output]", "encoding", fmt.Sprintf("%q", o.Encoding), "expected base64, raw or ascii")
	}
	if p := o.Profile; p != nil && (p.Strips < 1 || p.Strips > maxStrips || len(p.Y) != 2 || !finite(p.Y...) || !(p.Y[1] > p.Y[0]) || !(p.From >= 0) || p.From > t.Duration ||
		!(p.Window == 0 || p.Window >= t.H) || !finite(p.Window) || (p.Window > 0 && (t.Duration-p.From)/p.Window > maxWindows)) {
		return bad("[output]", "profile", fmt.Sprintf("{strips = %d, y = %v, from = %g, window = %g}", p.Strips, p.Y, p.From, p.Window),
			fmt.Sprintf("expected strips in [1, %d], y = [bottom, top] with bottom < top, from in [0, %g] s, window 0 (none) or at least the step h = %g s and at most %d windows over the run", maxStrips, t.Duration, t.H, maxWindows))
	}
	if g := o.Granular; g != nil {
		if r := g.Region; r != nil && (len(r) != 4 || !finite(r...) || !(r[1] > r[0]) || !(r[3] > r[2])) {
			return bad("[output]", "granular.region", fmt.Sprint(r), "expected [xmin, xmax, ymin, ymax] in m with xmin < xmax and ymin < ymax")
		}
		if w := g.Window; w != nil && (len(w) != 2 || !finite(w...) || w[0] < 0 || !(w[1] > w[0])) {
			return bad("[output]", "granular.window", fmt.Sprint(w), "expected [from, to] in s with 0 <= from < to")
		}
		if sf := g.Surface; sf != nil && (len(sf) != 2 || !bounded(sf...) || !(sf[1] > sf[0])) {
			return bad("[output]", "granular.surface", fmt.Sprint(sf), fmt.Sprintf("expected [x0, x1] in m with x0 < x1, within +-%g m: the span of the free surface to fit", rigid.MaxCoordinate))
		}
		if !s.hasRigid() {
			return bad("[output]", "granular", "{...}", "the scene has no [[rigid]] body, [[grains]], [[wall]] or [[arch]]: the measures are of rigid grains")
		}
	}
	if f := o.Frame; f != nil && (len(f) != 4 || !finite(f...) || !(f[1] > f[0]) || !(f[3] > f[2])) {
		return bad("[output]", "frame", fmt.Sprint(f), "expected [xmin, xmax, ymin, ymax] in m with xmin < xmax and ymin < ymax: the region bodies.png shows")
	}
	var kept, past []float64
	for _, p := range o.Pictures {
		switch {
		case !(p >= 0) || math.IsInf(p, 0):
			return bad("[output]", "pictures", p, fmt.Sprintf("expected times within [0, %g] s", t.Duration))
		case p > t.Duration:
			past = append(past, p)
		default:
			kept = append(kept, p)
		}
	}
	if len(past) > 0 {
		// A shortened duration (a sweep's, an edit's) keeps the pictures
		// it reaches.
		s.Output.Pictures = kept
		s.notes = append(s.notes, fmt.Sprintf("[output] pictures at %v s lie past the duration %g s: left out", past, t.Duration))
	}
	if len(s.Bodies) == 0 && !s.hasRigid() && len(s.Masses) == 0 {
		return errors.New("no [[body]], [[rigid]], [[grains]], [[wall]], [[arch]] nor [[mass]]: a scene needs at least one body")
	}
	names := map[string]bool{}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if err := b.check(i, t); err != nil {
			return err
		}
		if names[b.Name] {
			return fmt.Errorf("body %q is defined twice", b.Name)
		}
		names[b.Name] = true
	}
	if err := s.checkRigid(maps.Clone(names)); err != nil {
		return err
	}
	obstacles := map[string]bool{}
	for i, o := range s.Obstacles {
		if err := o.check(i); err != nil {
			return err
		}
		if obstacles[o.Name] {
			return fmt.Errorf("obstacle %q is defined twice", o.Name)
		}
		obstacles[o.Name] = true
	}
	rigids := map[string]bool{}
	for _, r := range s.Rigid {
		rigids[r.Name] = true
	}
	for i, c := range s.Contacts {
		if err := c.check(i, names, obstacles, rigids); err != nil {
			return err
		}
	}
	return s.checkPoints(names, obstacles, rigids)
}

// antagonists counts the antagonists a contact names.
func antagonists(c Contact) int {
	n := 0
	for _, given := range []bool{c.Antagonist != nil, c.Obstacle != "", c.Rigid != ""} {
		if given {
			n++
		}
	}
	return n
}

func (v Solver) check() error {
	switch {
	case v.Tolerance < 0 || !finite(v.Tolerance):
		return bad("[solver]", "tolerance", v.Tolerance, "expected a positive tolerance (default 1e-8)")
	case v.ChangeTolerance != nil && !(*v.ChangeTolerance > 0):
		return bad("[solver]", "change_tolerance", *v.ChangeTolerance, "expected a positive tolerance (leave it out to stop on the residual alone)")
	case v.MaxSweeps < 0:
		return bad("[solver]", "max_sweeps", v.MaxSweeps, "expected a positive number of sweeps (default 10000 under nlgs, 100000 under auto)")
	case v.Relaxation != 0 && !(v.Relaxation > 0 && v.Relaxation < 2):
		return bad("[solver]", "relaxation", v.Relaxation, "expected a value in (0, 2)")
	}
	if _, err := signorini.ParseOrder(v.Order); err != nil {
		return bad("[solver]", "order", fmt.Sprintf("%q", v.Order), "expected natural, alternating, random or coloured")
	}
	if v.Measure != "" && v.Measure != "residual" && v.Measure != "velocity" {
		return bad("[solver]", "measure", fmt.Sprintf("%q", v.Measure), "expected residual or velocity")
	}
	if v.Newton != "" && v.Newton != "full" && v.Newton != "modified" {
		return bad("[solver]", "newton", fmt.Sprintf("%q", v.Newton), "expected full or modified")
	}
	if _, err := signorini.ParseMethod(v.Method); err != nil {
		return bad("[solver]", "method", fmt.Sprintf("%q", v.Method), "expected auto, nlgs or newton")
	}
	if n := v.NewtonIterations; n != nil {
		switch {
		case *n < 1 || *n > 10000:
			return bad("[solver]", "newton_iterations", *n, "expected a number of iterations from 1 to 10000 (leave it out for 100, or 500 on a step of more than 400 contacts)")
		case v.Method == "nlgs":
			return bad("[solver]", "newton_iterations", *n, `method = "nlgs" runs no Newton iteration: remove it, or set method = "auto" or "newton"`)
		}
	}
	return nil
}

func (b *Body) check(i int, t Time) error {
	where := fmt.Sprintf("body %d", i+1)
	if err := fileName(b.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("body %q", b.Name)
	a := b.Damping.Alpha * t.H * (1 - t.Theta)
	switch {
	case (b.Rectangle == nil) == (b.Gmsh == ""):
		return fmt.Errorf("%s: give exactly one mesh: rectangle = {kind, origin, size, cells} or gmsh = \"file.msh\"", where)
	case !positive(b.E):
		return bad(where, "E", b.E, "expected a positive Young's modulus in Pa")
	case b.Nu == 0.5:
		return bad(where, "nu", b.Nu, "exact incompressibility cannot be represented by displacements (lambda is infinite): use nu = 0.4999 or less")
	case !(b.Nu > -1 && b.Nu < 0.5):
		return bad(where, "nu", b.Nu, "expected a Poisson's ratio in (-1, 0.5)")
	case b.Model != "" && b.Model != "linear" && models[b.Model] == 0:
		return bad(where, "model", fmt.Sprintf("%q", b.Model), "expected linear, stvenant or neohookean")
	case b.Dilatation != "" && b.Dilatation != "full" && b.Dilatation != "mean":
		return bad(where, "dilatation", fmt.Sprintf("%q", b.Dilatation), "expected full or mean")
	case b.Dilatation == "mean" && models[b.Model] == 0:
		return bad(where, "dilatation", `"mean"`, `it is for model = "stvenant" or "neohookean" (the linear model has no mean dilatation)`)
	case models[b.Model] != 0 && b.Plane == "stress":
		return bad(where, "plane", `"stress"`, fmt.Sprintf("model = %q is plane strain: leave plane out", b.Model))
	case !positive(b.Rho):
		return bad(where, "rho", b.Rho, "expected a positive density in kg/m^3")
	case b.Thickness < 0 || !finite(b.Thickness):
		return bad(where, "thickness", b.Thickness, "expected a positive thickness in m (default 1)")
	case b.Plane != "" && b.Plane != "strain" && b.Plane != "stress":
		return bad(where, "plane", fmt.Sprintf("%q", b.Plane), "expected strain or stress")
	case b.Velocity != nil && (len(b.Velocity) != 2 || !finite(b.Velocity...)):
		return bad(where, "velocity", b.Velocity, "expected [vx, vy] in m/s")
	case b.Gravity != nil && (len(b.Gravity) != 2 || !finite(b.Gravity...)):
		return bad(where, "gravity", b.Gravity, "expected [gx, gy] in m/s^2")
	case b.Damping.Alpha < 0 || b.Damping.Beta < 0 || !finite(b.Damping.Alpha, b.Damping.Beta):
		return bad(where, "damping", fmt.Sprintf("{alpha = %g, beta = %g}", b.Damping.Alpha, b.Damping.Beta), "expected non-negative Rayleigh coefficients")
	case !(b.Ramp >= 0) || !finite(b.Ramp):
		return bad(where, "ramp", b.Ramp, "expected a duration >= 0 in s over which gravity and the tractions rise from 0")
	case a > 1:
		// The step multiplies a rigid motion's velocity by
		// (1 - (1-theta) alpha h) / (1 + theta alpha h), negative here.
		return bad(where, "damping.alpha", b.Damping.Alpha, fmt.Sprintf("alpha h (1 - theta) = %.3g > 1 makes velocities change sign every step: use alpha < %.3g, or theta = 1", a, 1/(t.H*(1-t.Theta))))
	}
	if r := b.Rectangle; r != nil {
		switch {
		case len(r.Origin) != 2 || !finite(r.Origin...):
			return bad(where, "rectangle.origin", r.Origin, "expected [x, y] in m")
		case len(r.Size) != 2 || !positive(r.Size[0]) || !positive(r.Size[1]):
			return bad(where, "rectangle.size", r.Size, "expected [width, height], both positive, in m")
		case len(r.Cells) != 2 || r.Cells[0] < 1 || r.Cells[1] < 1:
			return bad(where, "rectangle.cells", r.Cells, "expected [nx, ny], both at least 1")
		}
	}
	for k, tr := range b.Traction {
		if err := tr.check(fmt.Sprintf("%s: traction %d", where, k+1)); err != nil {
			return err
		}
	}
	for k, f := range b.Fixed {
		if f.Group == "" {
			return fmt.Errorf("%s: fixed %d: group is missing", where, k+1)
		}
		switch f.Components {
		case "", "x", "y", "xy":
		default:
			return bad(where, fmt.Sprintf("fixed[%d].components", k+1), fmt.Sprintf("%q", f.Components), "expected x, y or xy")
		}
		if f.Motion == nil {
			continue
		}
		at := fmt.Sprintf("%s: fixed %d", where, k+1)
		if err := f.Motion.check(at); err != nil {
			return err
		}
	}
	return nil
}

// Traction is a load on a body's edge group: Value = [tx, ty] (Pa), or
// Pressure (Pa, along the inward normal: positive pushes on the edge).
type Traction struct {
	Group    string    `toml:"group"`
	Value    []float64 `toml:"value"`
	Pressure *float64  `toml:"pressure"`
	Time     *LoadTime `toml:"time"` // its factor in time; none: constant
}

// check refuses a traction without a group, with neither or both of
// value and pressure, or a value that is not finite.
func (tr Traction) check(where string) error {
	switch {
	case tr.Group == "":
		return fmt.Errorf("%s: group is missing: the edge group it loads", where)
	case (tr.Value == nil) == (tr.Pressure == nil):
		return fmt.Errorf("%s: give value = [tx, ty] (Pa) or pressure (Pa), one of them", where)
	case tr.Value != nil && (len(tr.Value) != 2 || !bounded(tr.Value...)):
		return bad(where, "value", tr.Value, "expected [tx, ty] in Pa")
	case tr.Pressure != nil && !bounded(*tr.Pressure):
		return bad(where, "pressure", *tr.Pressure, "expected a pressure in Pa")
	}
	return tr.Time.check(where, "time")
}

// load is the traction as the body takes it: t(x, n), the pressure's
// along -n, times its time function.
func (tr Traction) load(s *Scene) (fe.Traction, error) {
	f, err := tr.Time.build(s, "time")
	if err != nil {
		return fe.Traction{}, err
	}
	if f == nil {
		f = func(float64) float64 { return 1 }
	}
	if p := tr.Pressure; p != nil {
		return fe.Traction{Group: tr.Group, Value: func(t float64, _, n [2]float64) [2]float64 {
			q := *p * f(t)
			return [2]float64{-q * n[0], -q * n[1]}
		}}, nil
	}
	v := [2]float64{tr.Value[0], tr.Value[1]}
	return fe.Traction{Group: tr.Group, Value: func(t float64, _, _ [2]float64) [2]float64 {
		k := f(t)
		return [2]float64{k * v[0], k * v[1]}
	}}, nil
}

// fileName checks a body or obstacle name: it becomes part of output file
// names and of XML attributes.
func fileName(name string) error {
	switch {
	case name == "":
		return errors.New("is missing")
	case name == "." || name == "..":
		return fmt.Errorf("%q: expected a name, not a folder", name)
	case !utf8.ValidString(name):
		return fmt.Errorf("%q is not valid UTF-8", name)
	}
	for _, r := range name {
		if unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|,`, r) {
			return fmt.Errorf("%q holds %q: names become file names; use letters, digits, '-', '_' or '.'", name, r)
		}
	}
	return nil
}

func (o Obstacle) check(i int) error {
	where := fmt.Sprintf("obstacle %d", i+1)
	if err := fileName(o.Name); err != nil {
		return fmt.Errorf("%s: name %w", where, err)
	}
	where = fmt.Sprintf("obstacle %q", o.Name)
	disc := o.Radius != 0 || o.Center != nil
	switch {
	case disc && o.Points != nil:
		return fmt.Errorf("%s: give either points (a polyline) or center and radius (a disc), not both", where)
	case disc && (len(o.Center) != 2 || !finite(o.Center...)):
		return bad(where, "center", o.Center, "expected [x, y] in m")
	case disc && !positive(o.Radius):
		return bad(where, "radius", o.Radius, "expected a positive radius in m")
	case !disc && len(o.Points) < 2:
		return fmt.Errorf("%s: points: expected at least two [x, y] points, the obstacle on their right", where)
	}
	for k, p := range o.Points {
		if len(p) != 2 || !finite(p...) {
			return bad(where, fmt.Sprintf("points[%d]", k+1), p, "expected [x, y] in m")
		}
	}
	return o.Motion.check(where)
}

func (m Motion) check(where string) error {
	if err := m.unused(where); err != nil {
		return err
	}
	switch m.Type {
	case "", "fixed":
	case "velocity":
		if len(m.Velocity) != 2 || !finite(m.Velocity...) || math.Hypot(m.Velocity[0], m.Velocity[1]) >= maxMotionSpeed {
			return bad(where, "motion.velocity", m.Velocity, fmt.Sprintf("expected [vx, vy] in m/s, below %g", maxMotionSpeed))
		}
	case "sine":
		switch {
		case !positive(m.Period):
			return bad(where, "motion.period", m.Period, "expected a positive period in s")
		case !(math.Abs(m.Amplitude) < 1e15):
			return bad(where, "motion.amplitude", m.Amplitude, "expected an amplitude in m, within +-1e+15")
		case len(m.Direction) != 2 || !(math.Hypot(m.Direction[0], m.Direction[1]) > 0):
			return bad(where, "motion.direction", m.Direction, "expected a non-zero [dx, dy]")
		case 2*math.Pi*math.Abs(m.Amplitude)/m.Period >= maxMotionSpeed:
			return bad(where, "motion", fmt.Sprintf("{amplitude = %g, period = %g}", m.Amplitude, m.Period), fmt.Sprintf("its largest speed 2 pi amplitude / period must be below %g m/s", maxMotionSpeed))
		}
	case "record":
		switch {
		case m.File == "":
			return fmt.Errorf("%s: motion.file is missing: a record's CSV file (time in s, then the acceleration in m/s^2)", where)
		case len(m.Direction) != 2 || !finite(m.Direction...) || !(math.Hypot(m.Direction[0], m.Direction[1]) > 0):
			return bad(where, "motion.direction", m.Direction, "expected a non-zero [dx, dy]")
		case !finite(m.Scale) || math.Abs(m.Scale) > 1e6:
			return bad(where, "motion.scale", m.Scale, "expected the factor into m/s^2 (1, or 9.81 for a record in g; 0 means 1)")
		case m.Quantity != "" && m.Quantity != "acceleration" && m.Quantity != "velocity" && m.Quantity != "displacement":
			return bad(where, "motion.quantity", fmt.Sprintf("%q", m.Quantity), `expected "acceleration", "velocity" or "displacement"`)
		}
	default:
		return bad(where, "motion.type", fmt.Sprintf("%q", m.Type), "expected fixed, velocity, sine or record")
	}
	return nil
}

// maxMotionSpeed bounds a prescribed motion's speed (m/s): beyond it an
// obstacle or a driven body leaves every contact in the first step, which
// is an input mistake, not a scene (rigid.MaxCoordinate for the rest).
const maxMotionSpeed = 1e6

// unused refuses a motion key that the motion's type does not read: a
// sine's amplitude under the default type "fixed" would leave the ground
// still without a word.
func (m Motion) unused(where string) error {
	reads := map[string][]string{"": nil, "fixed": nil, "velocity": {"velocity"}, "sine": {"amplitude", "period", "direction"},
		"record": {"direction", "file", "column", "scale", "quantity"}}
	keys, ok := reads[m.Type]
	if !ok {
		return nil // check names the unknown type
	}
	given := []struct {
		key string
		set bool
	}{{"velocity", m.Velocity != nil}, {"amplitude", m.Amplitude != 0}, {"period", m.Period != 0}, {"direction", m.Direction != nil},
		{"file", m.File != ""}, {"column", m.Column != ""}, {"scale", m.Scale != 0}, {"quantity", m.Quantity != ""}}
	for _, g := range given {
		if g.set && !slices.Contains(keys, g.key) {
			typ := m.Type
			if typ == "" {
				typ = "fixed"
			}
			fix := `type = "sine" with amplitude, period and direction, type = "velocity" with velocity, or type = "record" with file, direction, column and scale`
			return fmt.Errorf(`%s: motion.%s is given, but a motion of type %q does not use it: give %s, or leave it out`, where, g.key, typ, fix)
		}
	}
	return nil
}

func (c Contact) check(i int, bodies, obstacles, rigids map[string]bool) error {
	where := fmt.Sprintf("contact %d", i+1)
	if c.Name != "" {
		where = fmt.Sprintf("contact %q", c.Name)
	}
	switch {
	case !bodies[c.Candidate.Body]:
		return bad(where, "candidate.body", fmt.Sprintf("%q", c.Candidate.Body), "expected the name of a [[body]]")
	case c.Candidate.Group == "":
		return fmt.Errorf("%s: candidate.group is missing", where)
	case antagonists(c) != 1:
		return fmt.Errorf("%s: give exactly one of antagonist = {body, group}, obstacle = \"name\" and rigid = \"name\"", where)
	case c.Rigid != "" && !rigids[c.Rigid]:
		return bad(where, "rigid", fmt.Sprintf("%q", c.Rigid), "expected the name of a [[rigid]] body")
	case c.Antagonist != nil && !bodies[c.Antagonist.Body]:
		return bad(where, "antagonist.body", fmt.Sprintf("%q", c.Antagonist.Body), "expected the name of a [[body]]")
	case c.Antagonist != nil && c.Antagonist.Group == "":
		return fmt.Errorf("%s: antagonist.group is missing", where)
	case c.Antagonist != nil && *c.Antagonist == c.Candidate:
		return fmt.Errorf("%s: candidate and antagonist are both group %q of body %q: a group cannot be paired with itself (for self-contact pair two different groups)", where, c.Candidate.Group, c.Candidate.Body)
	case c.Obstacle != "" && !obstacles[c.Obstacle]:
		return bad(where, "obstacle", fmt.Sprintf("%q", c.Obstacle), "expected the name of an [[obstacle]]")
	case c.Obstacle != "" && c.OneWay:
		return bad(where, "one_way", "true", "a pair with an obstacle has one pass only: leave one_way out")
	case !(c.Mu >= 0 && c.Mu <= contact.MaxMu):
		return bad(where, "mu", c.Mu, muRange)
	case c.MuDynamic != nil && !(*c.MuDynamic >= 0 && *c.MuDynamic <= c.Mu):
		return bad(where, "mu_dynamic", *c.MuDynamic, muDynamicRange(c.Mu))
	case c.Law != "signorini" && c.Law != "shock":
		return bad(where, "law", fmt.Sprintf("%q", c.Law), "expected signorini or shock")
	case c.Basis != "nodal" && c.Basis != "pairing":
		return bad(where, "basis", fmt.Sprintf("%q", c.Basis), "expected nodal or pairing")
	case c.Alert < 0 || !finite(c.Alert):
		return bad(where, "alert", c.Alert, "expected a positive alert distance in m")
	case !(c.Cohesion >= 0) || c.Cohesion > maxCohesion:
		return bad(where, "cohesion", c.Cohesion, fmt.Sprintf("expected a tensile strength in Pa from 0 (no bond) to %g", maxCohesion))
	}
	return nil
}
