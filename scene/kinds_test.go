package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

type named string

func (n named) Table() string                        { return string(n) }
func (named) Read(func(v any) error) (Tables, error) { return nil, nil }

// TestRegisterRefusesTakenNames: a kind cannot take a scene key or
// another kind's table, or have none: its tables would be read twice or
// never.
func TestRegisterRefusesTakenNames(t *testing.T) {
	defer func(r []Kind) { registered = r }(registered)
	registered = nil
	Register(named("bead"))
	for _, name := range []string{"bead", "rigid", "time", "point_contact", ""} {
		assert.Panics(t, func() { Register(named(name)) }, "%q", name)
	}
	assert.Equal(t, []Kind{named("bead")}, registered)
}
