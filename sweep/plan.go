package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/results"
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

// Plan is a study in its folder: the variants and their scenes.
type Plan struct {
	dir      string
	m        manifest
	variants []variant
}

// variant is one scene of a study: the values it takes, in the order of
// the settings, and its folder.
type variant struct {
	values []string
	dir    string
	scene  *scene.Scene
}

// SettingError is a setting that names no key of the scene: the caller's
// mistake in what it asked for, not the scene's.
type SettingError struct{ Err error }

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

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
	if n := Count(set); n > MaxVariants {
		return nil, fmt.Errorf("the settings make %.4g variants, more than the %d a sweep runs", n, MaxVariants)
	}
	m := manifest{Version: version, Scene: base.Name, Dir: absDir(base.Dir), Example: base.Example, Text: base.Text, Set: set}
	m.Variants = int(Count(set))
	return plan(dir, m)
}

// Open reads the plan of the study in dir, written by Plan.Write.
func Open(dir string) (*Plan, error) {
	var m manifest
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (a sweep's folder has one once it is planned)", path, err)
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Variants < 1 {
		return nil, fmt.Errorf("%s: not a sweep's manifest, or damaged", path)
	}
	if n := Count(m.Set); n != float64(m.Variants) || n > MaxVariants {
		return nil, fmt.Errorf("%s: its settings make %.4g variants, it says %d (at most %d): damaged; plan the sweep again", path, n, m.Variants, MaxVariants)
	}
	return plan(dir, m)
}

// plan makes every variant's scene from the manifest's text.
func plan(dir string, m manifest) (*Plan, error) {
	p := &Plan{dir: dir, m: m}
	for k, values := range product(p.m.Set) {
		v := variant{values: values, dir: filepath.Join(dir, fmt.Sprintf("variant_%03d", k+1))}
		t := m.Text
		var err error
		for i, s := range p.m.Set {
			if t, err = scene.Override(t, s.Key, values[i]); err != nil {
				return nil, &SettingError{err}
			}
		}
		if v.scene, err = scene.Decode(strings.NewReader(t), m.Scene); err != nil {
			return nil, fmt.Errorf("variant %d (%s): %w", k+1, p.describe(values), err)
		}
		v.scene.Dir = m.Dir
		if m.Example != "" {
			if v.scene.Files, err = examples.Files(m.Example); err != nil {
				return nil, err
			}
			v.scene.Example = m.Example
		}
		p.variants = append(p.variants, v)
	}
	return p, nil
}

// product lists every combination of the settings' values.
func product(set []Setting) [][]string {
	out := [][]string{nil}
	for _, s := range set {
		var next [][]string
		for _, v := range out {
			for _, val := range s.Values {
				next = append(next, append(append([]string(nil), v...), val))
			}
		}
		out = next
	}
	return out
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil && dir != "" {
		return abs
	}
	return dir
}

// Len is the number of variants.
func (p *Plan) Len() int { return len(p.variants) }

// Scene is the base scene's name.
func (p *Plan) Scene() string { return p.m.Scene }

// Dir is the study's folder.
func (p *Plan) Dir() string { return p.dir }

// VariantDir is the folder of variant k (from 0).
func (p *Plan) VariantDir(k int) string { return p.variants[k].dir }

// Describe says which values variant k (from 0) takes: "time.h = 1e-3,
// body.bar.velocity = [-1.0, 0.0]".
func (p *Plan) Describe(k int) string { return p.describe(p.variants[k].values) }

func (p *Plan) describe(values []string) string {
	parts := make([]string, len(p.m.Set))
	for i, s := range p.m.Set {
		parts[i] = s.Key + " = " + values[i]
	}
	return strings.Join(parts, ", ")
}

// Write clears the files of an earlier study from the folder, writes each
// variant's scene into its folder and the manifest, and returns how many
// files and folders it removed.
func (p *Plan) Write() (int, error) {
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return 0, err
	}
	removed, err := results.ClearFiles(p.dir, "sweep.csv", "sweep.png", "variant_[0-9][0-9][0-9]*", ManifestFile, "sweep.sbatch", "gather.sbatch", "slurm")
	if err != nil {
		return removed, err
	}
	for k, v := range p.variants {
		if err := os.MkdirAll(v.dir, 0o755); err != nil {
			return removed, err
		}
		note := fmt.Sprintf("# variant %d of the sweep in %s: %s\n", k+1, p.dir, p.Describe(k))
		if err := os.WriteFile(filepath.Join(v.dir, "scene.toml"), []byte(note+v.scene.Text), 0o644); err != nil {
			return removed, err
		}
	}
	return removed, atomicfile.Write(filepath.Join(p.dir, ManifestFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p.m)
	})
}
