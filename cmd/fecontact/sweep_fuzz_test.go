package main

import (
	"strings"
	"testing"
)

// FuzzSetFlag: whatever a --set says, it is taken or refused with an error
// that quotes it; never a panic, never more values than a sweep runs,
// whatever ranges and counts it names (0..1000000000 made 16 GB of
// values).
func FuzzSetFlag(f *testing.F) {
	for _, s := range []string{
		"contact.1.mu=0.1|0.2|0.3", "time.h=1e-6..2e-6/3", "body.bar.velocity=[-1,0]..[-12,0]",
		"k=0..1000000000", "k=0..1/1000000000", "k=nan..1/3", "k=[1,2]..[3]", "k=1..1", "k=..", "=", "k=1e308..-1e308",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		var s sets
		if err := s.Set(arg); err != nil {
			return
		}
		if len(s) != 1 || len(s[0].values) < 1 || len(s[0].values) > maxVariants {
			t.Errorf("%q: %d settings, %d values", arg, len(s), len(s[0].values))
		}
		if !strings.Contains(arg, "=") {
			t.Errorf("%q taken without a key", arg)
		}
	})
}
