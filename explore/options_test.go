package explore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/rigid"
)

// TestOptionsRefused: options no survey can use are refused by Check and
// by Run before anything is allocated (--solutions -1 made a slice of
// negative length), and a survey of bodies that are not at rest ends in
// an error saying so, where it returned no solution without a word.
func TestOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Solutions: -1}, "explore: -1 solutions per modality: expected 1 to 1000000"},
		{Options{Solutions: 0}, "explore: 0 solutions per modality"},
		{Options{Solutions: 1e9}, "explore: 1000000000 solutions per modality"},
		{Options{Solutions: 10, Tol: -1}, "explore: tolerance -1: expected a residual in (0, 1), such as 1e-8"},
		{Options{Solutions: 10, Tol: math.NaN()}, "explore: tolerance NaN"},
		{Options{Solutions: 10, Tol: 1e300}, "explore: tolerance 1e+300"},
		{Options{Solutions: 10, MaxSweeps: -5}, "explore: -5 sweeps at most"},
	} {
		require.ErrorContains(t, tc.opt.Check(), tc.want)
	}
	require.NoError(t, Options{Solutions: 300}.Check(), "the command's defaults")

	// A block on the ground pulled sideways by more than mu g: no force
	// in the cones holds it, it slides.
	shape, err := rigid.Rectangle(0.2, 0.1)
	require.NoError(t, err)
	ground, err := rigid.NewBody("ground", shape, [2]float64{0, -0.05}, 0)
	require.NoError(t, err)
	ground.Motion = contact.Fixed{}
	block, err := rigid.NewBody("block", shape, [2]float64{0, 0.05}, 1000)
	require.NoError(t, err)
	block.Gravity, block.V = [2]float64{5, -g}, [3]float64{1, 0, 0}
	sys, err := rigid.NewSystem([]*rigid.Body{ground, block}, []rigid.Rule{{Mu: 0.3, Law: contact.Shock}}, 0)
	require.NoError(t, err)
	s, err := New(sys, 1e-3)
	require.NoError(t, err)
	require.InDelta(t, 10, s.Kinetic, 1e-12, "the kinetic energy New took away: 1/2 x 20 kg x (1 m/s)^2")
	_, _, err = s.Run(RandomOrder, Options{Solutions: -1})
	require.ErrorContains(t, err, "-1 solutions per modality")
	_, _, err = s.Run(RandomOrder, Options{Solutions: 20})
	require.ErrorContains(t, err, "explore: none of the 20 runs holds the bodies at rest within 0.0001 of their weight: they are not at rest (their kinetic energy was 10 J per m): run the scene longer, start from a later state, or survey the step with --moving")
}
