//go:build long

package granular_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/granular"
	"github.com/fecontact/fecontact/internal/piles"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/rigid"
	"github.com/fecontact/fecontact/signorini"
	"github.com/fecontact/fecontact/timestep"
)

// TestCoordinationFallsWithFriction: 168 polydisperse disks rained into a
// box from a loose grid come to rest with fewer contacts the rougher they
// are: Z without rattlers 4.00 without friction (measured; isostatic),
// 3.49, 3.32 and 3.13 at mu 0.2, 0.5 and 1, towards 3 (2D's isostatic
// frictional limit, d + 1). About 9 minutes, the frictionless rain the
// most, so in the long tier:
//
//	go test -tags long -run TestCoordinationFallsWithFriction -v ./granular/
func TestCoordinationFallsWithFriction(t *testing.T) {
	var zs []float64
	for _, mu := range []float64{0, 0.2, 0.5, 1} {
		rng := rand.New(rand.NewPCG(1, 2))
		const r, cols, rows = 0.005, 12, 14
		bodies, err := piles.Walls(cols*2.4*r, rows*2.4*r+0.05, 0.015)
		require.NoError(t, err)
		for i := range rows {
			for k := range cols {
				b, err := rigid.NewBody(fmt.Sprintf("d%d_%d", i, k), rigid.Disk{R: r * (0.8 + 0.4*rng.Float64())},
					[2]float64{(float64(k) + 0.5) * 2.4 * r, (float64(i)+0.5)*2.4*r + 0.002}, 2600)
				require.NoError(t, err)
				b.Gravity = [2]float64{0, -9.81}
				b.V = [3]float64{0.1 * (rng.Float64() - 0.5), 0, 0}
				bodies = append(bodies, b)
			}
		}
		sys, err := rigid.NewSystem(bodies, []rigid.Rule{{Mu: mu, Law: contact.Shock}}, 0.1*r)
		require.NoError(t, err)
		sim, err := timestep.NewSimulation(nil, nil, timestep.SimOptions{H: 1e-3, Rigid: sys,
			Solver: signorini.Options{Tol: 1e-6, Measure: signorini.VelocityChange}})
		require.NoError(t, err)
		e0 := sim.TotalEnergy().Balance()
		for range 1500 {
			_, err := sim.Step()
			require.NoError(t, err)
			require.LessOrEqual(t, sim.TotalEnergy().Balance()-e0, 1e-9, "energy created")
		}
		require.Less(t, sim.TotalEnergy().Kinetic, 1e-9, "mu %g: at rest", mu)
		s, err := results.SampleOf(0, rigid.Grid(sys).Piece(), results.ContactGrid(sim).Piece())
		require.NoError(t, err)
		m := granular.Measure(s, granular.Region{})
		t.Logf("mu %g: 2 N_c / N_g %.4f, without %d rattlers %.4f (contacts per grain %.4f), solid fraction %.4f", mu, m.Z2, m.Rattlers, m.Z2NoRattlers, m.ZNoRattlers, m.SolidFraction)
		zs = append(zs, m.Z2NoRattlers)
	}
	assert.InEpsilon(t, 4.0, zs[0], 0.02, "frictionless: isostatic")
	for k := 1; k < len(zs); k++ {
		assert.Less(t, zs[k], zs[k-1], "rougher, fewer contacts")
		assert.Greater(t, zs[k], 3.0)
	}
	assert.Less(t, zs[len(zs)-1], 3.3, "towards 3 at mu 1")
}
