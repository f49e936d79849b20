package scene

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/fecontact/fecontact/kind"
)

// The kinds of body a scene reads from arrays of tables of their own:
// the one list (registered), and how their tables are read.
//
// A kind registered here is read from its array of tables ([[bead]],
// [[beam]]) by the kind's own code: the scene decodes the kind's table
// type, names the keys it does not have as the scene's unknown keys, and
// hands the kind it builds to the simulation (Model.Kinds, after the
// finite-element bodies, the rigid bodies and the point masses). Outputs,
// the checkpoint, restart and --set (Override) need nothing more: they ask
// the kind (package kind) or edit the text.
//
// The finite-element bodies, rigid bodies and point masses keep their
// tables in Scene's fields: their contacts name one another's bodies,
// sides and carried obstacles across tables. A registered kind's tables
// hold its own bodies and the units they make (kind.Source); it cannot
// yet put its bodies in another kind's contact tables.

// A Kind is a kind of body with an array of tables of its own in a scene.
type Kind interface {
	// Table is the name of its array of tables: "bead" for [[bead]].
	Table() string
	// Read decodes the scene's tables of the kind with decode, which
	// fills a pointer to a slice of the kind's table type and fails
	// naming every key the type does not have (return its error as it
	// is); it checks every value and returns what Build makes bodies
	// from. Its errors name the table (by name or number from 1), the
	// key, the value and what is expected; it refuses a count of bodies
	// that would exhaust memory.
	Read(decode func(v any) error) (Tables, error)
}

// Tables are a scene's tables of one kind, read and checked.
type Tables interface {
	// Build makes new bodies of the kind where the tables place them: a
	// call per simulation, whose state the kind then owns.
	Build() (kind.Kind, error)
}

// registered is the one list of the kinds read from tables of their own,
// in the order their bodies follow the built-in ones. A kind of body
// added to fecontact adds its line here (as `beam.Table{},`); a program
// that embeds fecontact adds its own with Register.
var registered = []Kind{}

// Register makes a kind's tables part of every scene decoded afterwards
// (call it from an init function). It panics, as database/sql's Register
// does, on a kind whose table name a scene key or another kind already
// takes: a program's kinds are fixed when it starts.
func Register(k Kind) {
	name := k.Table()
	if name == "" || sceneKey(name) || slices.ContainsFunc(registered, func(r Kind) bool { return r.Table() == name }) {
		panic(fmt.Sprintf("scene: Register: the table name %q is empty or taken", name))
	}
	registered = append(registered, k)
}

// sceneKey reports whether name is one of Scene's own top-level keys.
func sceneKey(name string) bool {
	t := reflect.TypeFor[Scene]()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("toml") == name {
			return true
		}
	}
	return false
}

// ownUnknown is und without the keys under a registered kind's table:
// those are the kind's to read (readKinds).
func ownUnknown(und []toml.Key) []toml.Key {
	var own []toml.Key
	for _, k := range und {
		if !slices.ContainsFunc(registered, func(r Kind) bool { return r.Table() == k[0] }) {
			own = append(own, k)
		}
	}
	return own
}

// readKinds reads the tables of every registered kind the text has, in
// the registry's order.
func (s *Scene) readKinds(name string, text []byte) error {
	if len(registered) == 0 {
		return nil
	}
	var top map[string]toml.Primitive
	md, err := toml.Decode(string(text), &top)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, k := range registered {
		prim, ok := top[k.Table()]
		if !ok {
			continue
		}
		decode := func(v any) error {
			if err := md.PrimitiveDecode(prim, v); err != nil {
				return fmt.Errorf("[[%s]]: %w", k.Table(), err)
			}
			var und []toml.Key
			for _, key := range md.Undecoded() {
				if key[0] == k.Table() {
					und = append(und, key)
				}
			}
			if len(und) > 0 {
				return unknownKeys("[["+k.Table()+"]]", string(text), und)
			}
			return nil
		}
		t, err := k.Read(decode)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		s.kinds = append(s.kinds, t)
	}
	return nil
}

// buildKinds makes the bodies of the registered kinds' tables.
func (s *Scene) buildKinds() ([]kind.Kind, error) {
	var out []kind.Kind
	for _, t := range s.kinds {
		k, err := t.Build()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		out = append(out, k)
	}
	return out, nil
}
