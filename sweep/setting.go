package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxVariants bounds a study: each variant is a run with its own folder,
// and all are checked before the first runs.
const MaxVariants = 10000

// Setting is a scene key (a dotted path, as scene.Override reads it) and
// the values it takes, as TOML values.
type Setting struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// ParseSetting reads KEY=V1|V2|... (TOML values), KEY=A..B or
// KEY=A..B/N: a range of numbers, or of arrays of numbers of one length,
// with N values, or by steps of 1 in the component that changes most when
// every component of A and B is a whole number.
func ParseSetting(arg string) (Setting, error) {
	key, vals, ok := strings.Cut(arg, "=")
	if !ok || key == "" || vals == "" {
		return Setting{}, fmt.Errorf("%q: expected KEY=V1|V2|... or KEY=A..B or KEY=A..B/N", arg)
	}
	values, err := expand(vals)
	if err != nil {
		return Setting{}, fmt.Errorf("%s: %w", key, err)
	}
	return Setting{Key: key, Values: values}, nil
}

// Count is the number of variants the settings make (every combination
// of their values), counted in floating point so that a product of huge
// counts cannot overflow.
func Count(set []Setting) float64 {
	n := 1.0
	for _, s := range set {
		n *= float64(len(s.Values))
	}
	return n
}

// CheckCount refuses settings that make more than MaxVariants variants;
// key names the setting that took the count over.
func CheckCount(set []Setting, key string) error {
	if n := Count(set); n > MaxVariants {
		return fmt.Errorf("%s: the --set flags make %.4g variants, more than the %d a sweep runs: fewer values, or several sweeps", key, n, MaxVariants)
	}
	return nil
}

func expand(s string) ([]string, error) {
	from, to, isRange := strings.Cut(s, "..")
	if !isRange {
		if n := strings.Count(s, "|") + 1; n > MaxVariants {
			return nil, fmt.Errorf("%d values, more than the %d variants a sweep runs", n, MaxVariants)
		}
		return strings.Split(s, "|"), nil
	}
	n := 0
	if to2, count, ok := strings.Cut(to, "/"); ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil || n < 2 || n > MaxVariants {
			return nil, fmt.Errorf("range %s: /%s: expected a count from 2 to %d", s, count, MaxVariants)
		}
		to = to2
	}
	a, errA := numbers(from)
	b, errB := numbers(to)
	if errA != nil || errB != nil || len(a) != len(b) {
		return nil, fmt.Errorf("range %s: expected two finite numbers or two arrays of finite numbers of one length", s)
	}
	if n == 0 {
		var err error
		if n, err = unitSteps(s, a, b); err != nil {
			return nil, err
		}
	}
	out := make([]string, n)
	for i := range n {
		f := float64(i) / float64(n-1)
		parts := make([]string, len(a))
		for k := range a {
			parts[k] = tomlFloat(a[k] + f*(b[k]-a[k]))
		}
		if strings.HasPrefix(strings.TrimSpace(from), "[") {
			out[i] = "[" + strings.Join(parts, ", ") + "]"
		} else {
			out[i] = parts[0]
		}
	}
	return out, nil
}

// unitSteps is the number of values of range s from a to b by steps of 1
// in the component that changes most: whole numbers only.
func unitSteps(s string, a, b []float64) (int, error) {
	span := 0.0
	for k := range a {
		if a[k] != math.Round(a[k]) || b[k] != math.Round(b[k]) {
			return 0, fmt.Errorf("range %s: give the number of values, as %s/N", s, s)
		}
		span = math.Max(span, math.Abs(b[k]-a[k]))
	}
	if span+1 > MaxVariants {
		return 0, fmt.Errorf("range %s: %.4g values by steps of 1, more than the %d variants a sweep runs: give the number of values, as %s/N", s, span+1, MaxVariants, s)
	}
	if span == 0 {
		return 0, fmt.Errorf("range %s: its ends are equal", s)
	}
	return int(span) + 1, nil
}

// numbers reads a number or an array of numbers.
func numbers(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// Number is a setting's value as a number: the value, or an array's
// Euclidean norm; ok is false for a value that is not made of numbers.
func Number(value string) (x float64, ok bool) {
	xs, err := numbers(value)
	if err != nil {
		return 0, false
	}
	var s float64
	for _, v := range xs {
		s += v * v
	}
	if len(xs) == 1 {
		return xs[0], true
	}
	return math.Sqrt(s), true
}

// tomlFloat writes a float that TOML reads as a float (1.0, not 1).
func tomlFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") { // n: NaN, Inf
		s += ".0"
	}
	return s
}
