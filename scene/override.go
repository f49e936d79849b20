package scene

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Override returns the scene text with one key set to a value given in
// TOML (8.0, [0.0, -8.0], "neohookean"). The key is a dotted path: a
// table's key (time.h), or a key of the element of an array of tables
// with that name (body.disc.velocity, rigid.top.position) or, where no
// element has that name, that number from 1 (rigid_contacts.rule.1.mu:
// rules have no names). A path that
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
				return "", fmt.Errorf("%s: [[%s]] is a list: name one, as %s.NAME.KEY (or %s.K.KEY, the K-th from 1)", key, parts[i], parts[i], parts[i])
			}
			el, err := namedElement(next, key, strings.Join(parts[:i+1], "."), parts[i+1])
			if err != nil {
				return "", err
			}
			table = el
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

// namedElement is the element of an array of tables named name or, where
// none is, numbered name from 1.
func namedElement(list []map[string]any, key, array, name string) (map[string]any, error) {
	var names []string
	for _, el := range list {
		if el["name"] == name {
			return el, nil
		}
		if n, ok := el["name"]; ok {
			names = append(names, fmt.Sprint(n))
		}
	}
	if k, err := strconv.Atoi(name); err == nil && k >= 1 && k <= len(list) {
		return list[k-1], nil
	}
	there := fmt.Sprintf("there are %d, numbered from 1", len(list))
	if len(names) > 0 {
		there = "there are " + strings.Join(names, ", ") + "; or a number from 1 to " + strconv.Itoa(len(list))
	}
	return nil, fmt.Errorf("%s: no [[%s]] named %q (%s)", key, array, name, there)
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
