package sweep

import (
	"strings"
	"testing"
)

// FuzzParseSetting: whatever a --set says, it is taken or refused with an
// error; never a panic, never more values than a study runs, whatever
// ranges and counts it names (0..1000000000 made 16 GB of values).
func FuzzParseSetting(f *testing.F) {
	for _, s := range []string{
		"contact.1.mu=0.1|0.2|0.3", "time.h=1e-6..2e-6/3", "body.bar.velocity=[-1,0]..[-12,0]",
		"k=0..1000000000", "k=0..1/1000000000", "k=nan..1/3", "k=[1,2]..[3]", "k=1..1", "k=..", "=", "k=1e308..-1e308",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		s, err := ParseSetting(arg)
		if err != nil {
			return
		}
		if len(s.Values) < 1 || len(s.Values) > MaxVariants {
			t.Errorf("%q: %d values", arg, len(s.Values))
		}
		if !strings.Contains(arg, "=") || s.Key == "" {
			t.Errorf("%q taken without a key", arg)
		}
	})
}
