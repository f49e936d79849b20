package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const wallScene = `[time]
h = 1e-3
duration = 0.2

[[rigid]]
name = "ground"
group = "ground"
rectangle = [4.0, 0.2]
position = [1.0, -0.1]
motion = { type = "fixed" }

[[wall]]
name = "w"
origin = [0.0, 0.0]
courses = 3
blocks = 4
size = [0.4, 0.2]
rho = 2000
gravity = [0.0, -9.81]

[rigid_contacts]
[[rigid_contacts.rule]]
groups = ["*", "*"]
mu = 0.6

[solver]
measure = "velocity"
tolerance = 1e-5
`

// TestWallBuilder: a [[wall]] of 3 courses of 4 blocks in a running bond
// lays 4 + 5 + 4 blocks (the middle course's ends halves, its joints over
// the blocks' middles, the wall's ends straight), every block touching its
// neighbours (dry joints); on a fixed ground under gravity it stands for
// 1 s, no block moving 1e-6 m (3e-9 m measured), at
// rest, the ledger closed; a stack bond lays 12; a joint opens the gaps;
// a wall of bad sizes is refused naming the key.
func TestWallBuilder(t *testing.T) {
	sc, err := Decode(strings.NewReader(wallScene), "wall.toml")
	require.NoError(t, err)
	m, err := sc.Model(Variant{})
	require.NoError(t, err)
	blocks := m.Rigid.Bodies[1:]
	require.Len(t, blocks, 13)
	mid := blocks[4:9]
	assert.Equal(t, "w_c2_b1", mid[0].Name)
	assert.InDelta(t, 0.1, mid[0].Q[0], 1e-12, "a half block at the left end")
	assert.InDelta(t, 1.5, mid[4].Q[0], 1e-12, "and at the right")
	assert.InDelta(t, 0.4, mid[1].Q[0], 1e-12, "a full block over the joint below")
	assert.InDelta(t, 0.3, mid[0].Q[1], 1e-12, "course 2's centre")
	sim, err := m.Simulation()
	require.NoError(t, err)
	e0 := sim.TotalEnergy().Balance()
	laid := make([][3]float64, len(blocks))
	for k, b := range blocks {
		laid[k] = b.Q
	}
	for range 1000 { // 1 s
		_, err := sim.Step()
		require.NoError(t, err)
	}
	var drift float64
	for k, b := range blocks {
		drift = math.Max(drift, math.Hypot(b.Q[0]-laid[k][0], b.Q[1]-laid[k][1]))
	}
	t.Logf("the largest drift of a block in 1 s: %.3g m", drift)
	assert.Less(t, drift, 1e-6, "the wall stands: no block moves 1e-6 m in 1 s")
	assert.InDelta(t, e0, sim.TotalEnergy().Balance(), 1e-9*blocks[0].Mass*9.81, "the ledger closes")

	stack := strings.Replace(wallScene, "gravity = [0.0, -9.81]\n", "gravity = [0.0, -9.81]\nbond = \"stack\"\njoint = 0.01\n", 1)
	sc, err = Decode(strings.NewReader(stack), "stack.toml")
	require.NoError(t, err)
	m, err = sc.Model(Variant{})
	require.NoError(t, err)
	require.Len(t, m.Rigid.Bodies, 13, "the ground and 12 blocks")
	assert.InDelta(t, 0.41, m.Rigid.Bodies[2].Q[0]-m.Rigid.Bodies[1].Q[0], 1e-12, "a block and a joint apart")

	for edit, want := range map[string]string{
		"size = [0.4, 0.2]": `size = [0.4 -0.2]: expected [width, height] of a block, positive, in m`,
		"courses = 3":       "courses x blocks = 0 x 4",
		"blocks = 4":        `bond = "flemish": expected "running", "stack", "header" or "english"`,
	} {
		bad := map[string]string{"size = [0.4, 0.2]": "size = [0.4, -0.2]", "courses = 3": "courses = 0", "blocks = 4": "blocks = 4\nbond = \"flemish\""}[edit]
		_, err := Decode(strings.NewReader(strings.Replace(wallScene, edit, bad, 1)), "bad.toml")
		assert.ErrorContains(t, err, `wall "w": `+want)
	}
}

// TestWallBonds: a header bond lays courses of headers (two and their
// joint a stretcher), every other one shifted by half a header with a
// quarter closer at each end; an English bond lays stretcher and header
// courses in turn; every course spans the wall's length exactly, its
// joints a quarter of a block from those below (header bonds' overlap),
// and the wall stands on its ground, the ledger closed.
func TestWallBonds(t *testing.T) {
	const bw, j, blocks = 0.4, 0.0, 4
	length := blocks*bw + (blocks-1)*j
	for _, tc := range []struct {
		bond   string
		counts []int // blocks per course, bottom up
	}{{"header", []int{8, 9, 8}}, {"english", []int{4, 9, 4}}} {
		text := strings.Replace(wallScene, "gravity = [0.0, -9.81]\n", "gravity = [0.0, -9.81]\nbond = \""+tc.bond+"\"\n", 1)
		sc, err := Decode(strings.NewReader(text), tc.bond+".toml")
		require.NoError(t, err, tc.bond)
		m, err := sc.Model(Variant{})
		require.NoError(t, err, tc.bond)
		blocksAll := m.Rigid.Bodies[1:]
		k := 0
		var joints [][]float64 // each course's joints' x
		for c, n := range tc.counts {
			course := blocksAll[k : k+n]
			k += n
			var right float64
			var js []float64
			for i, b := range course {
				vs := b.Vertices(nil)
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, v := range vs {
					lo, hi = math.Min(lo, v[0]), math.Max(hi, v[0])
				}
				if i == 0 {
					assert.InDelta(t, 0, lo, 1e-12, "%s: course %d starts at the wall's end", tc.bond, c+1)
				} else {
					assert.InDelta(t, right+j, lo, 1e-12, "%s: course %d's blocks touch", tc.bond, c+1)
					js = append(js, lo)
				}
				right = hi
			}
			assert.InDelta(t, length, right, 1e-12, "%s: course %d spans the wall", tc.bond, c+1)
			joints = append(joints, js)
		}
		require.Len(t, blocksAll, k, "%s: every block in a course", tc.bond)
		for c := 1; c < len(joints); c++ {
			for _, x := range joints[c] {
				for _, y := range joints[c-1] {
					assert.GreaterOrEqual(t, math.Abs(x-y), bw/4-1e-12, "%s: course %d's joint at %g a quarter block from those below", tc.bond, c+1, x)
				}
			}
		}
		sim, err := m.Simulation()
		require.NoError(t, err)
		e0 := sim.TotalEnergy().Balance()
		top := blocksAll[len(blocksAll)-1]
		start := top.Q
		for range 200 {
			_, err := sim.Step()
			require.NoError(t, err)
		}
		assert.Less(t, math.Hypot(top.Q[0]-start[0], top.Q[1]-start[1]), 1e-6, "%s: the wall stands", tc.bond)
		assert.InDelta(t, e0, sim.TotalEnergy().Balance(), 1e-9*blocksAll[0].Mass*9.81, "%s: the ledger closes", tc.bond)
	}
}
