package scene

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// Override returns the scene text with one key set to a value given in
// TOML (8.0, [0.0, -8.0], "neohookean"). The key is a dotted path: a
// table's key (time.h), or a key of the element of an array of tables
// with that name (body.disc.velocity, rigid.top.position). A path that
// names nothing is an error that says what there is; the result is
// checked as a scene when it is decoded.
func Override(text, key, value string) (string, error) {
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		return "", err
	}
	var v map[string]any
	if _, err := toml.Decode("v = "+value, &v); err != nil {
		return "", fmt.Errorf("%s = %s: not a TOML value: %w", key, value, err)
	}
	parts := strings.Split(key, ".")
	table := doc
	for i := 0; i < len(parts)-1; i++ {
		switch next := table[parts[i]].(type) {
		case map[string]any:
			table = next
		case []map[string]any:
			if i+1 >= len(parts)-1 {
				return "", fmt.Errorf("%s: [[%s]] is a list: name one, as %s.NAME.KEY", key, parts[i], parts[i])
			}
			var names []string
			found := false
			for _, el := range next {
				if el["name"] == parts[i+1] {
					table, found = el, true
					break
				}
				names = append(names, fmt.Sprint(el["name"]))
			}
			if !found {
				return "", fmt.Errorf("%s: no [[%s]] named %q (there are %s)", key, parts[i], parts[i+1], strings.Join(names, ", "))
			}
			i++
		case nil:
			if i > 0 || !isTable(parts[0]) {
				return "", fmt.Errorf("%s: the scene has no table %q", key, strings.Join(parts[:i+1], "."))
			}
			added := map[string]any{} // a table the scene leaves out, as [solver]
			table[parts[i]] = added
			table = added
		default:
			return "", fmt.Errorf("%s: the scene has no table %q", key, strings.Join(parts[:i+1], "."))
		}
	}
	table[parts[len(parts)-1]] = v["v"]
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// isTable reports whether a scene's top-level key name is a table (not
// an array of tables).
func isTable(name string) bool {
	t := reflect.TypeFor[Scene]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("toml") == name {
			return f.Type.Kind() == reflect.Struct
		}
	}
	return false
}
