package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/scene"
)

// ManifestFile describes a planned study in its folder.
const ManifestFile = "sweep.json"

// manifest is what a study's steps need to find its variants: the base
// scene as it was (its text, and where its meshes are), the settings.
type manifest struct {
	Version  string    `json:"version"`
	Scene    string    `json:"scene"`   // its name, for messages
	Dir      string    `json:"dir"`     // the folder its meshes are read from
	Example  string    `json:"example"` // or the built-in example it is
	Text     string    `json:"text"`
	Set      []Setting `json:"set"`
	Variants int       `json:"variants"`
}

// Plan is a study in its folder: the settings, from which each variant's
// values and scene are made when they are needed.
type Plan struct {
	dir   string
	m     manifest
	files *outdir.Folder // the study's folder, while this Plan holds it
}

// SettingError is a setting that names no key of the scene: the caller's
// mistake in what it asked for, not the scene's.
type SettingError struct{ Err error }

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// MaxSettings bounds the keys a study sets: each is a column of
// sweep.csv.
const MaxSettings = 64

// maxManifest bounds sweep.json as read (10 000 variants of a few values
// of a 100 kB scene are far below it).
const maxManifest = 64 << 20

// New plans the variants of base (a scene as decoded, with its Text) that
// the settings make, into folder dir: every variant's scene is made and
// checked now, so that a bad value is an error at once, not after the
// others' hours. version is the program's, kept in the manifest.
func New(base *scene.Scene, set []Setting, dir, version string) (*Plan, error) {
	switch {
	case len(set) == 0:
		return nil, errors.New("no setting: a study needs at least one scene key and its values")
	case base.Text == "":
		return nil, fmt.Errorf("scene %q has no text: a study sets keys in the text a scene was decoded from (scene.Load, scene.Decode)", base.Name)
	}
	m := manifest{Version: version, Scene: base.Name, Dir: absDir(base.Dir), Example: base.Example, Text: base.Text, Set: set}
	m.Variants = int(min(Count(set), MaxVariants+1))
	if err := checkSettings(m.Set, "--set"); err != nil {
		return nil, err
	}
	p := &Plan{dir: dir, m: m}
	for k := range p.Len() {
		if _, err := p.scene(k); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkSettings refuses settings that make too many variants, or that
// set one key twice; where says where they come from.
func checkSettings(set []Setting, where string) error {
	if len(set) > MaxSettings {
		return fmt.Errorf("%s: %d settings, more than the %d keys a study sets", where, len(set), MaxSettings)
	}
	seen := map[string]bool{}
	for _, s := range set {
		switch {
		case len(s.Values) == 0:
			return fmt.Errorf("%s: %s: no values", where, s.Key)
		case seen[s.Key]:
			return fmt.Errorf("%s: %s is set twice: give all its values in one --set (%s=V1|V2)", where, s.Key, s.Key)
		}
		seen[s.Key] = true
	}
	if n := Count(set); n > MaxVariants {
		return fmt.Errorf("%s: the settings make %.4g variants, more than the %d a sweep runs: fewer values, or several sweeps", where, n, MaxVariants)
	}
	return nil
}

// Open reads the plan of the study in dir, written by Plan.Write with
// this version of the program. No variant's scene is made until it runs
// (each was checked when the study was planned), so that a task of a
// large study starts at once.
func Open(dir, version string) (*Plan, error) {
	var m manifest
	path := filepath.Join(dir, ManifestFile)
	data, err := inputfile.ReadFile(path, maxManifest, "sweep manifest (sweep.json, as fecontact sweep writes it)")
	if err != nil {
		return nil, fmt.Errorf("%w (a sweep's folder has one once it is planned)", err)
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Variants < 1 {
		return nil, fmt.Errorf("%s: not a sweep's manifest, or damaged", path)
	}
	if m.Version != version {
		return nil, fmt.Errorf("%s: planned by fecontact %s, this is %s: run the study with the version that planned it, or plan it again (fecontact sweep ... -o %s)", path, m.Version, version, dir)
	}
	if err := checkSettings(m.Set, path); err != nil {
		return nil, fmt.Errorf("%w: damaged; plan the sweep again", err)
	}
	if n := Count(m.Set); n != float64(m.Variants) {
		return nil, fmt.Errorf("%s: its settings make %.4g variants, it says %d: damaged; plan the sweep again", path, n, m.Variants)
	}
	return &Plan{dir: dir, m: m}, nil
}

// values are variant k's values, in the order of the settings: the last
// setting's change fastest.
func (p *Plan) values(k int) []string {
	out := make([]string, len(p.m.Set))
	for i := len(p.m.Set) - 1; i >= 0; i-- {
		vs := p.m.Set[i].Values
		out[i] = vs[k%len(vs)]
		k /= len(vs)
	}
	return out
}

// scene makes variant k's scene from the manifest's text.
func (p *Plan) scene(k int) (*scene.Scene, error) {
	values := p.values(k)
	t := p.m.Text
	var err error
	for i, s := range p.m.Set {
		if t, err = scene.Override(t, s.Key, values[i]); err != nil {
			return nil, &SettingError{err}
		}
	}
	sc, err := scene.Decode(strings.NewReader(t), p.m.Scene)
	if err != nil {
		return nil, fmt.Errorf("variant %d (%s): %w", k+1, p.describe(values), err)
	}
	sc.Dir = p.m.Dir
	if p.m.Example != "" {
		if sc.Files, err = examples.Files(p.m.Example); err != nil {
			return nil, err
		}
		sc.Example = p.m.Example
	}
	return sc, nil
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil && dir != "" {
		return abs
	}
	return dir
}

// Len is the number of variants.
func (p *Plan) Len() int { return p.m.Variants }

// Scene is the base scene's name.
func (p *Plan) Scene() string { return p.m.Scene }

// Dir is the study's folder.
func (p *Plan) Dir() string { return p.dir }

// VariantDir is the folder of variant k (from 0).
func (p *Plan) VariantDir(k int) string { return filepath.Join(p.dir, variantName(k)) }

// variantName is variant k's folder in the study's.
func variantName(k int) string { return fmt.Sprintf("variant_%03d", k+1) }

// Describe says which values variant k (from 0) takes: "time.h = 1e-3,
// body.bar.velocity = [-1.0, 0.0]".
func (p *Plan) Describe(k int) string { return p.describe(p.values(k)) }

func (p *Plan) describe(values []string) string {
	parts := make([]string, len(p.m.Set))
	for i, s := range p.m.Set {
		parts[i] = s.Key + " = " + values[i]
	}
	return strings.Join(parts, ", ")
}

// Write takes the study's folder (outdir.Create: an earlier study's
// files and variant folders are removed, a folder of anything else is
// refused unless o.Overwrite), writes each variant's folder with its
// scene and the manifest, and returns how many files and folders it
// removed. The Plan holds the folder until Close.
func (p *Plan) Write(o outdir.Options) (int, error) {
	files, removed, err := outdir.Create(p.dir, "sweep", o)
	if err != nil {
		return removed, err
	}
	p.files = files
	for k := range p.Len() {
		if err := p.writeVariant(k); err != nil {
			return removed, err
		}
	}
	path, err := files.Path(ManifestFile)
	if err != nil {
		return removed, err
	}
	return removed, atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p.m)
	})
}

// writeVariant makes variant k's folder, a run's folder whose scene.toml
// every run of the variant keeps.
func (p *Plan) writeVariant(k int) error {
	dir, err := p.files.Sub(variantName(k))
	if err != nil {
		return err
	}
	vf, _, err := outdir.Create(dir, "run", outdir.Options{})
	if err != nil {
		return err
	}
	defer vf.Close()
	sc, err := p.scene(k)
	if err != nil {
		return err
	}
	path, err := vf.Keep("scene.toml")
	if err != nil {
		return err
	}
	note := fmt.Sprintf("# variant %d of the sweep in %s: %s\n", k+1, p.dir, p.Describe(k))
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, note+sc.Text)
		return err
	})
}

// hold takes the study's folder for a write, when the Plan does not hold
// it already (a gathering in a job of its own); release gives it back.
func (p *Plan) hold() (release func(), err error) {
	if p.files != nil {
		return func() {}, nil
	}
	if p.files, err = outdir.Reopen(p.dir, "sweep", outdir.Options{}); err != nil {
		return nil, err
	}
	return func() { p.Close() }, nil
}

// Close releases the study's folder, which Write took: the jobs of a
// study submitted to Slurm take it in turn.
func (p *Plan) Close() error {
	if p.files == nil {
		return nil
	}
	err := p.files.Close()
	p.files = nil
	return err
}
