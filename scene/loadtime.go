package scene

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
)

// LoadTime is the time function of a load (a traction's `time`, a rigid
// body's or a mass's `load_time`): its value at t multiplies the load as
// given. Without one a load is constant.
//
//	time = { type = "ramp", duration = 0.5 }             # 0 at t = 0 to 1 at 0.5 s, then 1
//	time = { type = "sine", period = 0.4, phase = 0.0 }   # sin(2 pi t / period + phase)
//	time = { type = "table", file = "load.csv", column = "f" }  # a CSV's time and factor, linear between rows
type LoadTime struct {
	Type     string  `toml:"type"`     // ramp, sine or table
	Duration float64 `toml:"duration"` // ramp: s
	Period   float64 `toml:"period"`   // sine: s
	Phase    float64 `toml:"phase"`    // sine: rad
	File     string  `toml:"file"`     // table: a CSV beside the scene, the time (s) in its first column
	Column   string  `toml:"column"`   // table: the factor's column by its header (default the second)
}

// maxLoadFactor bounds a table's factor: past it a load given in N or Pa
// overflows what the ledger books.
const maxLoadFactor = 1e12

// maxLoadTableBytes bounds a load table's CSV file.
const maxLoadTableBytes = 256 << 20

// check refuses an unknown type, a key the type does not use, and values
// out of range, naming the key (at where, key).
func (lt *LoadTime) check(where, key string) error {
	if lt == nil {
		return nil
	}
	reads := map[string][]string{"ramp": {"duration"}, "sine": {"period", "phase"}, "table": {"file", "column"}}
	uses, ok := reads[lt.Type]
	if !ok {
		return bad(where, key+".type", strconv.Quote(lt.Type), `expected "ramp", "sine" or "table" (leave the key out for a constant load)`)
	}
	for _, g := range []struct {
		key string
		set bool
	}{{"duration", lt.Duration != 0}, {"period", lt.Period != 0}, {"phase", lt.Phase != 0}, {"file", lt.File != ""}, {"column", lt.Column != ""}} {
		if g.set && !slices.Contains(uses, g.key) {
			return fmt.Errorf(`%s: %s.%s is given, but a time function of type %q does not use it: a ramp takes duration, a sine period and phase, a table file and column`, where, key, g.key, lt.Type)
		}
	}
	switch {
	case lt.Type == "ramp" && !positive(lt.Duration):
		return bad(where, key+".duration", lt.Duration, "expected the ramp's positive duration in s")
	case lt.Type == "sine" && !positive(lt.Period):
		return bad(where, key+".period", lt.Period, "expected a positive period in s")
	case lt.Type == "sine" && !(math.Abs(lt.Phase) <= 1e6):
		return bad(where, key+".phase", lt.Phase, "expected a phase in rad")
	case lt.Type == "table" && lt.File == "":
		return fmt.Errorf("%s: %s.file is missing: a CSV of the time (s) and the load's factor", where, key)
	}
	return nil
}

// build is the time function; nil for none (a constant load).
func (lt *LoadTime) build(s *Scene, key string) (func(t float64) float64, error) {
	if lt == nil {
		return nil, nil
	}
	switch lt.Type {
	case "ramp":
		d := lt.Duration
		return func(t float64) float64 { return min(max(t, 0)/d, 1) }, nil
	case "sine":
		if h := s.Time.H; lt.Period < 2*h {
			return nil, bad(key, "period", lt.Period, fmt.Sprintf("a sine shorter than two steps of h = %g s, which cannot follow it: give a period of at least %g s (20 steps a period follow it well)", h, 2*h))
		}
		w, phase := 2*math.Pi/lt.Period, lt.Phase
		return func(t float64) float64 { return math.Sin(w*t + phase) }, nil
	}
	return lt.table(s, key)
}

// table reads a table's CSV: the factor between its rows linear in time,
// before the first row the first's and after the last the last's.
func (lt *LoadTime) table(s *Scene, key string) (func(t float64) float64, error) {
	data, path, err := s.readBeside(lt.File, "load table (CSV)", maxLoadTableBytes)
	if err != nil {
		return nil, fmt.Errorf("%s.file: %w", key, err)
	}
	ok := func(_, f float64) bool { return math.Abs(f) <= maxLoadFactor }
	ts, fs, err := csvColumns(data, path, lt.Column, key+".column", "the factor", ok,
		fmt.Sprintf("a time and a factor, finite numbers, the factor within +-%g", maxLoadFactor))
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%s: no rows: expected the time (s) and the factor, a row each", path)
	}
	for i := 1; i < len(ts); i++ {
		if !(ts[i] > ts[i-1]) {
			return nil, fmt.Errorf("%s: row %d's time %g is not after the one before (%g): expected increasing times", path, i+1, ts[i], ts[i-1])
		}
	}
	return func(t float64) float64 {
		i := sort.SearchFloat64s(ts, t) // the first row at or after t
		switch {
		case i == 0:
			return fs[0]
		case i == len(ts):
			return fs[len(fs)-1]
		}
		a := (t - ts[i-1]) / (ts[i] - ts[i-1])
		return fs[i-1] + a*(fs[i]-fs[i-1])
	}, nil
}
