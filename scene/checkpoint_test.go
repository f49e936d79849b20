package scene

import (
	"bytes"
	"io/fs"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/timestep"
)

// TestCheckpointExact: a simulation saved after n steps and loaded into
// one built afresh from the same scene goes on bit for bit as the one it
// was saved from: every step's statistics over the next n steps, and at
// the end every body's state and the energy ledger, compared with ==.
// For every kind of body and state the step carries: the colliding blocks
// (elastic; nodal and pairing bases: the warm start of both), the pillar
// (rigid, warm starts, a moving ground), the disc (hyperelastic under
// modified Newton, whose kept factor is made again, and under full
// Newton), the klarbring example (point masses) and a mixed scene.
func TestCheckpointExact(t *testing.T) {
	cases := []struct {
		name, example string
		set           [][2]string
		n             int
	}{
		{"colliding blocks, nodal", "colliding-blocks", nil, 150},
		{"colliding blocks, pairing", "colliding-blocks", [][2]string{{"contact.upper-on-lower.basis", `"pairing"`}}, 150},
		{"pillar", "pillar", nil, 200},
		{"disc, modified Newton", "disc-impact", nil, 40},
		{"disc, full Newton", "disc-impact", [][2]string{{"solver.newton", `"full"`}}, 30},
		{"klarbring", "klarbring", nil, 1000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := examples.Scene(tc.example)
			require.NoError(t, err)
			text := string(data)
			for _, kv := range tc.set {
				text, err = Override(text, kv[0], kv[1])
				require.NoError(t, err)
			}
			files, err := examples.Files(tc.example)
			require.NoError(t, err)
			checkpointExact(t, text, files, tc.n)
		})
	}
	t.Run("mixed", func(t *testing.T) { checkpointExact(t, mixedCheckpoint, nil, 300) })
}

// mixedCheckpoint: an elastic block dropped on a free rigid plate on a
// fixed rigid ground, and a mass on a spring falling on the block.
const mixedCheckpoint = `
[time]
h = 1e-4
duration = 0.1

[[body]]
name = "block"
rectangle = { kind = "Q4", origin = [-0.05, 0.051], size = [0.1, 0.05], cells = [8, 4] }
E = 1e7
nu = 0.3
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "plate"
rectangle = [0.3, 0.05]
position = [0.0, 0.025]
rho = 1000
gravity = [0.0, -9.81]

[[rigid]]
name = "ground"
group = "ground"
rectangle = [2.0, 0.2]
position = [0.0, -0.1]
motion = { type = "fixed" }

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.3

[[contact]]
candidate = { body = "block", group = "bottom" }
rigid = "plate"
mu = 0.3

[[mass]]
name = "bob"
mass = 0.1
position = [0.0, 0.105]
velocity = [0.0, -0.5]
gravity = [0.0, -9.81]

[[spring]]
masses = ["bob"]
anchor = [0.0, 0.3]
stiffness = 5.0

[[point_contact]]
name = "on block"
side = { body = "block", group = "top" }
mu = 0.2
`

func checkpointExact(t *testing.T, text string, files fs.FS, n int) {
	t.Helper()
	build := func() (*Model, *timestep.Simulation) {
		sc, err := Decode(strings.NewReader(text), "checkpoint.toml")
		require.NoError(t, err)
		sc.Files = files
		m, err := sc.Model(Variant{})
		require.NoError(t, err)
		sim, err := m.Simulation()
		require.NoError(t, err)
		return m, sim
	}
	_, a := build()
	_, b := build()
	for i := range n {
		_, err := a.Step()
		require.NoError(t, err)
		_, err = b.Step()
		require.NoError(t, err, "step %d", i+1)
	}
	var buf bytes.Buffer
	st := b.Contacts()
	t.Logf("units at the checkpoint: %d", len(st))
	require.NoError(t, b.SaveState(&buf))
	size := buf.Len()
	mc, c := build()
	require.NoError(t, c.LoadState(&buf))
	for i := range n {
		sa, err := a.Step()
		require.NoError(t, err)
		sc, err := c.Step()
		require.NoError(t, err)
		require.Equal(t, sa, sc, "step %d after the checkpoint", n+i+1)
	}
	assert.Equal(t, a.TotalEnergy(), c.TotalEnergy())
	assert.Equal(t, a.Stepper.Time(), c.Stepper.Time())
	for i := range a.Stepper.NumBodies() {
		assert.Equal(t, a.Stepper.Body(i).Q, c.Stepper.Body(i).Q, "body %d", i)
		assert.Equal(t, a.Stepper.Body(i).V, c.Stepper.Body(i).V, "body %d", i)
	}
	if a.Rigid != nil {
		assert.Equal(t, a.Rigid.State(), c.Rigid.State())
	}
	if a.Points != nil {
		assert.Equal(t, a.Points.State(), c.Points.State())
	}
	assert.Equal(t, a.NormalWork, c.NormalWork)
	assert.Equal(t, a.FrictionWork, c.FrictionWork)
	assert.False(t, math.IsNaN(a.TotalEnergy().Balance()))
	t.Logf("%d steps, then %d more from a state of %d bytes: the same bits (%d bodies)", n, n, size, len(mc.Bodies))
}
