// Package golden pins figures of reference runs to files in testdata, so
// that a change of physics cannot pass the tests unnoticed.
//
// A test computes its figures, each with the tolerance within which it must
// match, and calls Check: the figures are compared with those stored in
// testdata/golden/NAME.json. After a change that moves the physics on
// purpose, rerun the tests with FECONTACT_UPDATE_GOLDEN=1 to rewrite the
// files, and say in the commit which figures moved and why (git diff shows
// them).
package golden

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Figure is a value and the absolute tolerance it is checked to.
type Figure struct {
	Value, Tol float64
}

// Update reports whether the golden files are being rewritten.
func Update() bool { return os.Getenv("FECONTACT_UPDATE_GOLDEN") == "1" }

// Check compares figs with testdata/golden/name.json, or rewrites the file
// when Update. A figure missing from the file, or from figs, fails.
func Check(t testing.TB, name string, figs map[string]Figure) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".json")
	if Update() {
		values := map[string]float64{}
		for k, f := range figs {
			values[k] = f.Value
		}
		data, err := json.MarshalIndent(values, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden figures: %v (FECONTACT_UPDATE_GOLDEN=1 writes them)", err)
	}
	var want map[string]float64
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	keys := make([]string, 0, len(figs))
	for k := range figs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w, ok := want[k]
		got := figs[k]
		switch {
		case !ok:
			t.Errorf("%s: no golden value of %s (got %.10g)", path, k, got.Value)
		case !(math.Abs(got.Value-w) <= got.Tol):
			t.Errorf("%s: %s = %.10g, golden %.10g (difference %.3g, tolerance %.3g)", path, k, got.Value, w, got.Value-w, got.Tol)
		}
	}
	for k := range want {
		if _, ok := figs[k]; !ok {
			t.Errorf("%s: golden figure %s is no longer computed", path, k)
		}
	}
}

// Within is the figure value, to be matched within tol.
func Within(value, tol float64) Figure { return Figure{Value: value, Tol: tol} }
