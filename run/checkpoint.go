package run

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fecontact/fecontact/examples"
	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/internal/inputfile"
	"github.com/fecontact/fecontact/scene"
	"github.com/fecontact/fecontact/timestep"
)

// CheckpointFile is the file in a run's folder that holds its last
// checkpoint (Options.Checkpoint), from which Resume goes on.
const CheckpointFile = "checkpoint.gob"

// Checkpoint says when a run writes its checkpoint: every Steps steps,
// and every Wall of wall-clock time (whichever comes first; zero: not on
// that count), and always when it is interrupted and when it ends (so
// that Options.Until can extend it). Off writes none.
type Checkpoint struct {
	Steps int
	Wall  time.Duration
	Off   bool
}

// DefaultCheckpointWall is how often a run writes a checkpoint when its
// options ask for nothing else: a run of a few minutes loses little when
// it is stopped, and writes little.
const DefaultCheckpointWall = 10 * time.Minute

// ParseCheckpoint reads a checkpoint policy: a number of steps ("500"), a
// wall-clock interval ("90s", "10m", "1h"), or "off".
func ParseCheckpoint(s string) (Checkpoint, error) {
	if s == "off" {
		return Checkpoint{Off: true}, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return Checkpoint{}, fmt.Errorf("checkpoint every %d steps: expected a number of steps >= 1, a time such as 10m, or off", n)
		}
		return Checkpoint{Steps: n}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return Checkpoint{}, fmt.Errorf("checkpoint %q: expected a number of steps (500), a time (90s, 10m, 1h) or off", s)
	}
	return Checkpoint{Wall: d}, nil
}

// checkpointVersion changes whenever what a checkpoint holds does.
// Version 2 ends with the sha256 of what comes before it; version 3
// keeps the contact solves' certificate; version 5 the friction's counts
// (4 left them out: a resumed run's summary counted only its own steps)
// and the solves by their reason.
const checkpointVersion = 5

// checkpointHeader says what made the run a checkpoint is of.
type checkpointHeader struct {
	Format      string
	Version     int
	Program     string   // Options.Version
	Scene       [32]byte // sha256 of the scene as run
	Meshes      [32]byte // sha256 of the bodies' meshes (a Gmsh file may change beside an unchanged scene)
	SceneName   string   // the scene's name and folder, for messages and its meshes
	SceneDir    string
	Example     string // the built-in example it is, whose meshes are embedded
	Variant     scene.Variant
	Steps       int // asked for
	Every       int
	Done        int
	Elapsed     time.Duration // of the steps, so far
	TimeReached float64
}

// statsState is Stats for encoding/gob.
type statsState struct {
	ContactSteps, Units, Sweeps                               int
	Deepest                                                   timestep.StepStats
	MaxSweeps, Unconverged, Steps, Newton, MaxNewton, Factors int
	MinGap, MaxResidual                                       float64
	Init                                                      bool
	Warnings                                                  []string
	ContactNewton, NewtonSteps                                int
	Dynamic, StickAttempts                                    int
	Solves                                                    [timestep.NumSolveReasons]timestep.SolveCount
	WorstResidual, WorstGap, WorstCone, FirstUnconverged      timestep.StepStats
}

func (s *Stats) state() statsState {
	return statsState{s.ContactSteps, s.Units, s.Sweeps, s.Deepest, s.maxSweeps, s.unconverged, s.steps, s.newton, s.maxNewton, s.factors,
		s.minGap, s.maxResidual, s.init, s.warnings, s.contactNewton, s.newtonSteps, s.dynamic, s.stickAttempts, s.solves,
		s.worstResidual, s.worstGap, s.worstCone, s.firstUnconverged}
}

func (st statsState) stats() *Stats {
	return &Stats{ContactSteps: st.ContactSteps, Units: st.Units, Sweeps: st.Sweeps, Deepest: st.Deepest, maxSweeps: st.MaxSweeps,
		unconverged: st.Unconverged, steps: st.Steps, newton: st.Newton, maxNewton: st.MaxNewton, factors: st.Factors,
		minGap: st.MinGap, maxResidual: st.MaxResidual, init: st.Init, warnings: st.Warnings,
		contactNewton: st.ContactNewton, newtonSteps: st.NewtonSteps, dynamic: st.Dynamic, stickAttempts: st.StickAttempts, solves: st.Solves, worstResidual: st.WorstResidual, worstGap: st.WorstGap, worstCone: st.WorstCone, firstUnconverged: st.FirstUnconverged}
}

const checkpointFormat = "fecontact run checkpoint"

// writeCheckpoint writes the run's checkpoint atomically: a kill while
// it is written leaves the previous one whole. It ends with the sha256 of
// the rest, so that a checkpoint damaged since is refused, not resumed
// from values no run reached.
func (rs *running) writeCheckpoint() error {
	ws, err := rs.out.Checkpoint()
	if err != nil {
		return err
	}
	h := checkpointHeader{Format: checkpointFormat, Version: checkpointVersion, Program: rs.opt.Version, Scene: sha256.Sum256([]byte(rs.sc.Text)),
		Meshes:    meshesHash(rs.model),
		SceneName: rs.sc.Name, SceneDir: absolute(rs.sc.Dir), Example: rs.sc.Example,
		Variant: rs.opt.Variant, Steps: rs.r.Steps, Every: rs.sc.Output.Every, Done: rs.r.Done, Elapsed: rs.elapsed + time.Since(rs.loop),
		TimeReached: rs.sim.Time()}
	path, err := rs.files.Path(CheckpointFile)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		sum := sha256.New()
		bw := bufio.NewWriter(io.MultiWriter(w, sum))
		enc := gob.NewEncoder(bw)
		if err := enc.Encode(h); err != nil {
			return err
		}
		if err := rs.sim.SaveState(bw); err != nil {
			return err
		}
		if err := enc.Encode(ws); err != nil {
			return err
		}
		if err := enc.Encode(rs.sum.state()); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := w.Write(sum.Sum(nil))
		return err
	})
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	rs.lastCheckpoint, rs.lastCheckpointStep = time.Now(), rs.r.Done
	return nil
}

// due tells whether the policy wants a checkpoint after this step.
func (rs *running) due() bool {
	c := rs.opt.Checkpoint
	if c.Off {
		return false
	}
	wall := c.Wall
	if c.Steps == 0 && wall == 0 {
		wall = DefaultCheckpointWall
	}
	return (c.Steps > 0 && rs.r.Done-rs.lastCheckpointStep >= c.Steps) || (wall > 0 && time.Since(rs.lastCheckpoint) >= wall)
}

// maxCheckpoint bounds the checkpoint read (it is read whole to check
// its sha256): the colliding blocks at refine 16 write about 60 MB, a
// 100 000-disk run less.
const maxCheckpoint = 4 << 30

// ErrNoCheckpoint is a folder without a checkpoint to resume from.
var ErrNoCheckpoint = errors.New("no checkpoint")

// readCheckpoint reads a run folder's checkpoint and its header; the
// reader goes on with the simulation's state. A checkpoint of this
// format whose checksum does not match is refused; one of another
// version is left to resumable to refuse.
func readCheckpoint(dir string) (*bufio.Reader, checkpointHeader, error) {
	var h checkpointHeader
	path := filepath.Join(dir, CheckpointFile)
	data, err := inputfile.ReadFile(path, maxCheckpoint, "checkpoint of fecontact run")
	if errors.Is(err, os.ErrNotExist) {
		return nil, h, fmt.Errorf("%w in %s (%s): a run writes one every %v, when it is interrupted and when it ends, unless --checkpoint off", ErrNoCheckpoint, dir, CheckpointFile, DefaultCheckpointWall)
	}
	if err != nil {
		return nil, h, err
	}
	br := bufio.NewReader(bytes.NewReader(data))
	if err := gob.NewDecoder(br).Decode(&h); err != nil || h.Format != checkpointFormat {
		return nil, h, fmt.Errorf("%s: not a checkpoint of fecontact run, or damaged", path)
	}
	if h.Version != checkpointVersion {
		return br, h, nil
	}
	n := len(data) - sha256.Size
	if n < 0 || sha256.Sum256(data[:n]) != [sha256.Size]byte(data[n:]) {
		return nil, h, fmt.Errorf("%s: damaged since it was written (its checksum does not match): the run cannot go on from it; start it again", path)
	}
	br = bufio.NewReader(bytes.NewReader(data[:n]))
	if err := gob.NewDecoder(br).Decode(&h); err != nil {
		return nil, h, fmt.Errorf("%s: not a checkpoint of fecontact run, or damaged", path)
	}
	return br, h, nil
}

// resumable checks that a checkpoint can be resumed by this program on
// this scene text.
func resumable(h checkpointHeader, path, text, version string) error {
	switch {
	case h.Version != checkpointVersion:
		return fmt.Errorf("%s: a checkpoint of format %d, written by %s; this fecontact reads format %d: resume it with the version that wrote it, or start the run again", path, h.Version, h.Program, checkpointVersion)
	case h.Program != version:
		return fmt.Errorf("%s: written by %s, this is %s: resume it with the version that wrote it (its results would not continue bit for bit)", path, h.Program, version)
	case sha256.Sum256([]byte(text)) != h.Scene:
		return fmt.Errorf("%s: the scene beside it (%s) is not the one the run was started with: it was edited since; start a new run (fecontact run %s -o ANOTHER_FOLDER)", path, SceneAsRun, SceneAsRun)
	}
	return nil
}

// describe names a checkpoint's place in its run.
func (h checkpointHeader) describe() string {
	return fmt.Sprintf("step %d of %d (t = %.6g s)", h.Done, h.Steps, h.TimeReached)
}

// absolute is a folder's absolute path ("" stays "": the working folder).
func absolute(dir string) string {
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// sceneOf decodes the scene a checkpoint is of, from the copy beside it,
// with its name and the folder (or the example) its meshes are read from.
func sceneOf(h checkpointHeader, text []byte, path string) (*scene.Scene, error) {
	sc, err := scene.Decode(bytes.NewReader(text), path)
	if err != nil {
		return nil, err
	}
	sc.Name, sc.Dir = h.SceneName, h.SceneDir
	if sc.Example = h.Example; h.Example != "" {
		if sc.Files, err = examples.Files(h.Example); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// meshesHash is a digest of the model's meshes: their nodes and cells.
func meshesHash(m *scene.Model) [32]byte {
	h := sha256.New()
	for _, b := range m.Bodies {
		msh := b.Space.Mesh
		for _, x := range msh.Nodes {
			binary.Write(h, binary.LittleEndian, x)
		}
		for _, c := range msh.Cells {
			fmt.Fprint(h, c.Kind, c.Nodes)
		}
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
