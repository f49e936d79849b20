package results_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/io/results"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// runExample runs steps of an example into a new folder under dir (named
// name) through a Writer, as fecontact run does, and returns the folder.
func runExample(t *testing.T, example, dir, name string, steps, every int) string {
	t.Helper()
	data, err := examples.Scene(example)
	require.NoError(t, err)
	sc, err := scene.Decode(strings.NewReader(string(data)), example+"/scene.toml")
	require.NoError(t, err)
	m, err := sc.Model(scene.Variant{})
	require.NoError(t, err)
	sim, err := m.Simulation()
	require.NoError(t, err)
	out := filepath.Join(dir, name)
	f, _, err := outdir.Create(out, "run", outdir.Options{})
	require.NoError(t, err)
	defer f.Close()
	w, err := results.NewWriter(f, sim, results.Options{})
	require.NoError(t, err)
	require.NoError(t, w.Record(timestep.StepStats{}, true)) // the initial state
	for k := 1; k <= steps; k++ {
		st, err := sim.Step()
		require.NoError(t, err)
		require.NoError(t, w.Record(st, k%every == 0))
	}
	require.NoError(t, w.Close())
	return out
}

// TestParaViewScriptFindsItsRun: the script names the run's series and
// the folder it was written in, whatever bytes the folder's name holds
// (quotes, a newline, a backslash), so that it finds the run as a
// ParaView macro; Python reads both back exactly (without ParaView: the
// lines before its main).
func TestParaViewScriptFindsItsRun(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	name := "run \"it's\"\n\\ out"
	out := runExample(t, "colliding-blocks", t.TempDir(), name, 5, 5)
	script, err := os.ReadFile(filepath.Join(out, results.ParaViewScript))
	require.NoError(t, err)
	head, _, ok := strings.Cut(string(script), "\nSAMPLES =")
	require.True(t, ok)
	cmd := exec.Command(python, "-c", head+"\nimport json, sys\nsys.stdout.write(json.dumps([SERIES, RUN]))")
	got, err := cmd.Output()
	require.NoError(t, err)
	abs, err := filepath.Abs(out)
	require.NoError(t, err)
	want, err := json.Marshal([]any{[]string{"bodies.pvd", "contacts.pvd"}, abs})
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
}

// TestParaViewScriptRenders runs the script with ParaView's own pvpython
// (Debian's paraview, under xvfb-run) on a short colliding-blocks run and
// on a rigid pillar, and checks the frame it renders: not blank, the
// bodies spread over the frame (the camera on the moving bodies, not on
// the pillar's long ground), and the contact arrows drawn in the status
// colours. Skipped without pvpython or xvfb-run, except on CI.
func TestParaViewScriptRenders(t *testing.T) {
	pvpython, err1 := exec.LookPath("pvpython")
	xvfb, err2 := exec.LookPath("xvfb-run")
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must have paraview and xvfb (.ci/run installs them)")
		}
		t.Skip("no pvpython or xvfb-run: install Debian's paraview and xvfb")
	}
	if testing.Short() {
		t.Skip("ParaView takes seconds to start")
	}
	for _, tc := range []struct {
		example      string
		steps, every int
	}{{"colliding-blocks", 300, 50}, {"pillar", 600, 100}} {
		t.Run(tc.example, func(t *testing.T) {
			out := runExample(t, tc.example, t.TempDir(), "run", tc.steps, tc.every)
			shot := filepath.Join(t.TempDir(), "frame.png")
			render(t, xvfb, pvpython, filepath.Join(out, results.ParaViewScript), shot)
			img := readPNG(t, shot)
			b := img.Bounds()
			// The bodies' part: below the time's line, left of the scalar bars.
			bodies := image.Rect(b.Min.X, b.Min.Y+40, b.Max.X-200, b.Max.Y)
			bg, share, box := background(img, bodies)
			t.Logf("background %v, %.1f %% of the bodies' part %v; drawn over %v", bg, 100*share, bodies, box)
			assert.Less(t, share, 0.95, "something is drawn")
			assert.Greater(t, float64(box.Dy())/float64(bodies.Dy()), 0.6, "the bodies fill the frame's height (the pillar framed, not its ground)")
			assert.True(t, hasColour(img, color.RGBA{214, 39, 40, 255}) || hasColour(img, color.RGBA{44, 160, 44, 255}) || hasColour(img, color.RGBA{31, 119, 180, 255}),
				"contact arrows in the status colours")
		})
	}
}

// render runs the script to a PNG, again when the X server of xvfb-run
// was not up in time (ParaView then aborts at once).
func render(t *testing.T, xvfb, pvpython, script, shot string) {
	t.Helper()
	var out []byte
	var err error
	for range 3 {
		cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1600x1200x24", pvpython, script, "--png", shot)
		cmd.Dir = t.TempDir() // not the run's folder: the script finds it
		out, err = cmd.CombinedOutput()
		if err == nil || !bytes.Contains(out, []byte("bad X server connection")) {
			break
		}
	}
	require.NoError(t, err, "%s", out)
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// background is the commonest colour in b, its share of b's pixels, and
// the box of the pixels of other colours.
func background(img image.Image, b image.Rectangle) (color.Color, float64, image.Rectangle) {
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[rgba(img.At(x, y))]++
		}
	}
	var bg color.RGBA
	for c, n := range count {
		if n > count[bg] {
			bg = c
		}
	}
	box := image.Rectangle{Min: b.Max, Max: b.Min}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if rgba(img.At(x, y)) != bg {
				box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
				box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
			}
		}
	}
	return bg, float64(count[bg]) / float64(b.Dx()*b.Dy()), box
}

// hasColour tells whether 20 pixels or more are within 40 of c in each
// channel (shading varies the arrows' colour).
func hasColour(img image.Image, c color.RGBA) bool {
	b := img.Bounds()
	n := 0
	near := func(a, b uint8) bool { return int(a)-int(b) < 40 && int(b)-int(a) < 40 }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := rgba(img.At(x, y))
			if near(p.R, c.R) && near(p.G, c.G) && near(p.B, c.B) {
				n++
			}
		}
	}
	return n >= 20
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
