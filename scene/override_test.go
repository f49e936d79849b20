package scene

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverride: keys of tables and of named elements of arrays of tables
// are set to TOML values, and the scene decodes with them; a path that
// names nothing says what there is.
func TestOverride(t *testing.T) {
	text, err := Override(minimal, "body.b.velocity", "[0.0, -8.0]")
	require.NoError(t, err)
	text, err = Override(text, "time.h", "2e-6")
	require.NoError(t, err)
	text, err = Override(text, "body.b.model", `"neohookean"`)
	require.NoError(t, err)
	require.NotContains(t, minimal, "[solver]")
	text, err = Override(text, "solver.order", `"random"`) // a table the scene leaves out
	require.NoError(t, err)
	sc, err := Decode(strings.NewReader(text), "scene.toml")
	require.NoError(t, err)
	assert.Equal(t, []float64{0, -8}, sc.Bodies[0].Velocity)
	assert.Equal(t, 2e-6, sc.Time.H)
	assert.Equal(t, "neohookean", sc.Bodies[0].Model)
	assert.Equal(t, "random", sc.Solver.Order)
	// An element by its number from 1, where no element has that name:
	// rules have no names.
	text, err = Override(rigidMinimal, "rigid_contacts.rule.1.mu", "0.7")
	require.NoError(t, err)
	sc, err = Decode(strings.NewReader(text), "scene.toml")
	require.NoError(t, err)
	assert.Equal(t, 0.7, sc.RigidContacts.Rules[0].Mu)
	text, err = Override(minimal, "body.1.velocity", "[0.0, 3.0]")
	require.NoError(t, err)
	sc, err = Decode(strings.NewReader(text), "scene.toml")
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 3}, sc.Bodies[0].Velocity)
	for _, tc := range []struct{ key, value, want string }{
		{"body.c.velocity", "[0.0, 1.0]", `body.c.velocity: no [[body]] named "c" (there are b; or a number from 1 to 1)`},
		{"rigid_contacts.rule.2.mu", "0.5", `rigid_contacts.rule.2.mu: no [[rigid_contacts.rule]] named "2" (there are 1, numbered from 1)`},
		{"body.velocity", "[0.0, 1.0]", "body.velocity: [[body]] is a list: name one, as body.NAME.KEY (or body.K.KEY, the K-th from 1)"},
		{"tim.h", "1e-6", `tim.h: the scene has no table "tim"`},
		{"body.b.damping.alpha", "1.0", `body.b.damping.alpha: the scene has no table "body.b.damping"`},
		{"time.h", "[1e-6", "time.h = [1e-6: not a TOML value"},
	} {
		_, err := Override(minimal+rigidMinimal[strings.Index(rigidMinimal, "[rigid_contacts]"):], tc.key, tc.value)
		assert.ErrorContains(t, err, tc.want, tc.key)
	}
}
