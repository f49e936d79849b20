package timestep

import (
	"math/rand/v2"
	"testing"

	"github.com/fecontact/fecontact/kind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmTableIsTheMapItReplaced drives the table and a plain map (what
// the Simulation used before) through the same steps and checks every
// lookup against it: the units of a step in the last one's order, with
// units gone and new, shuffled, with two units of one identity (the map's
// last write wins), looked up in order, in reverse and at random, with
// rolling impulses set after the solve and the checkpoint's entries.
func TestWarmTableIsTheMapItReplaced(t *testing.T) {
	cases := []struct {
		name string
		next func(rng *rand.Rand, last []kind.ID) []kind.ID
	}{
		{"the same units in the same order", func(_ *rand.Rand, last []kind.ID) []kind.ID { return append([]kind.ID(nil), last...) }},
		{"one unit gone and one new", func(rng *rand.Rand, last []kind.ID) []kind.ID {
			out := append([]kind.ID(nil), last...)
			i := rng.IntN(len(out))
			out = append(out[:i], out[i+1:]...)
			j := rng.IntN(len(out) + 1)
			return append(out[:j], append([]kind.ID{{Node: 1000 + rng.IntN(1000), A: 7}}, out[j:]...)...)
		}},
		{"shuffled", func(rng *rand.Rand, last []kind.ID) []kind.ID {
			out := append([]kind.ID(nil), last...)
			rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
			return out
		}},
		{"two units of one identity", func(rng *rand.Rand, last []kind.ID) []kind.ID {
			out := append([]kind.ID(nil), last...)
			out[rng.IntN(len(out))] = out[rng.IntN(len(out))]
			return out
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			var table warmTable
			ref := map[kind.ID]warmStart{}
			ids := make([]kind.ID, 12)
			for i := range ids {
				ids[i] = kind.ID{Source: i % 2, Pair: i, Node: i / 3, Reverse: i%3 == 0}
			}
			for step := range 40 {
				lookups := rng.Perm(len(ids))
				switch step % 3 {
				case 0:
					for i := range lookups {
						lookups[i] = i
					}
				case 1:
					for i := range lookups {
						lookups[i] = len(ids) - 1 - i
					}
				}
				for _, a := range lookups {
					require.Equal(t, ref[ids[a]], table.get(ids[a]), "step %d, unit %d", step, a)
				}
				// The solve: every unit's warm start, then some rolling impulses.
				table.reset(ids)
				clear(ref)
				for a, id := range ids {
					w := warmStart{p: [2]float64{float64(step), float64(a)}, slid: a%2 == 0, forward: step%2 == 0}
					table.set(a, w)
					ref[id] = w
				}
				for a := 0; a < len(ids); a += 4 {
					table.setRoll(a, float64(100*step+a))
					w := ref[ids[a]]
					w.roll = float64(100*step + a)
					ref[ids[a]] = w
				}
				got := map[kind.ID]warmStart{}
				table.entries(func(id kind.ID, w warmStart) {
					_, twice := got[id]
					assert.False(t, twice, "entries gave %v twice", id)
					got[id] = w
				})
				require.Equal(t, ref, got, "step %d: the checkpoint's entries", step)
				ids = c.next(rng, ids)
			}
		})
	}
}
