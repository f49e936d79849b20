package timestep

import (
	"fmt"
	"math"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/kind"
)

// pairSource is the units of the Detector's pairs (kind.Source); at holds
// the motions of the driven rigid bodies that carry obstacles
// (contact.Config.Driven).
// It keeps its last two detections (find), and the units of a deep end
// with their obstacle terms moved back to the start (atEnd).
type pairSource struct {
	det   *contact.Detector
	at    *kind.Placement
	seen  [2]detected
	last  int // seen[last] is the latest detection
	moved []contact.Unit
}

// detected is a detection kept: its units, on entries of their own, their
// smallest gap and the trace of the configuration they were found in.
type detected struct {
	units  []contact.Unit
	slab   []contact.Entry
	minGap float64
	trace  contact.Trace
	ok     bool
}

// driftTol is how far a configuration may be from the last one detected,
// relative to a side's shortest edge (contact.Detector.Drift), for its
// units to be taken as they are. A step that ends where its correction
// check predicted it would (no correction, no Newton update) ends there to
// round-off, up to 4e-15 of an edge on the colliding blocks at refine 1;
// the units found there then start the next step, which detects once
// instead of twice. A body moved by hand, or a Newton update that ended
// elsewhere, is detected again (TestKeptUnitsAreTheStartsUnits).
const driftTol = 1e-12

// find returns the units at cfg and their smallest gap: the latest
// detection's when cfg is its configuration to within driftTol, otherwise
// a new detection's, kept. Each detection is kept until the next but one:
// the step goes on with its start's units while it detects at its end.
func (p *pairSource) find(cfg contact.Config) ([]contact.Unit, float64, error) {
	if last := &p.seen[p.last]; last.ok && p.det.Drift(&last.trace, cfg) <= driftTol {
		last.ok = false // once: the next configuration is measured again
		return last.units, last.minGap, nil
	}
	units, points, err := p.det.Detect(cfg)
	if err != nil {
		return nil, 0, err
	}
	minGap := math.Inf(1)
	for _, pt := range points {
		minGap = min(minGap, pt.Gap)
	}
	p.last ^= 1
	kept := &p.seen[p.last]
	kept.keep(units, minGap)
	p.det.Trace(&kept.trace, cfg)
	return kept.units, minGap, nil
}

// keep copies the units and their entries: the Detector's storage is
// only its own until its next detection but one, and anyone may detect.
func (k *detected) keep(units []contact.Unit, minGap float64) {
	k.units, k.slab = append(k.units[:0], units...), k.slab[:0]
	for _, u := range units {
		k.slab = append(k.slab, u.Entries...)
	}
	at := 0
	for a := range k.units {
		n := len(k.units[a].Entries)
		k.units[a].Entries = k.slab[at : at+n : at+n]
		at += n
	}
	k.minGap, k.ok = minGap, true
}

// keptState is the units a pairSource keeps for the next step, as a
// checkpoint holds them: with them a resumed run starts its next step as
// the run it resumes would have, bit for bit, not with a detection anew
// that agrees with them to round-off.
type keptState struct {
	Units  []contact.Unit
	MinGap float64
	Trace  contact.TraceState
}

// kept returns the units the next step may start with, nil for none.
func (p *pairSource) kept() *keptState {
	k := &p.seen[p.last]
	if !k.ok {
		return nil
	}
	return &keptState{k.units, k.minGap, p.det.TraceState(&k.trace)}
}

// restore keeps the units of a checkpoint (nil: none) for the next step,
// once valid says they are.
func (p *pairSource) restore(st *keptState, valid func(*contact.Unit) error) error {
	p.seen[0].ok, p.seen[1].ok = false, false
	if st == nil {
		return nil
	}
	for a := range st.Units {
		if err := valid(&st.Units[a]); err != nil {
			return fmt.Errorf("contact unit %d kept for the next step: %w", a, err)
		}
	}
	k := &p.seen[p.last]
	k.keep(st.Units, st.MinGap)
	p.det.SetTrace(&k.trace, st.Trace)
	return nil
}

// motion is the prescribed motion of pair k's obstacle, nil for none.
func (p *pairSource) motion(k int) contact.Motion {
	if o := p.det.Pairs[k].Obstacle; o != nil {
		return o.MotionIn(contact.Config{Driven: p.at.Driven})
	}
	return nil
}

func (p *pairSource) Detect(cfg contact.Config) ([]contact.Unit, float64, error) {
	return p.find(cfg)
}

// AtEnd detects at the predicted end; the units of a deep end have their
// obstacle terms moved back to the obstacles' velocities at the start, as
// problem and record expect (on a copy: the kept units stay as found).
func (p *pairSource) AtEnd(cfg contact.Config, start []contact.Unit, t float64) ([]contact.Unit, bool, error) {
	units, _, err := p.find(cfg)
	if err != nil {
		return nil, false, err
	}
	deep := false
	for a := range units {
		u := &units[a]
		pair := p.det.Pairs[u.Key.Pair]
		deep = deep || u.Gap < -predictTol*u.Weight*u.Weight/pair.Candidate.Thickness()
	}
	if !deep {
		return units, false, nil
	}
	p.moved = append(p.moved[:0], units...)
	for a := range p.moved {
		u := &p.moved[a]
		if m := p.motion(u.Key.Pair); m != nil {
			u.Rigid = u.RigidEnd(m.Velocity(t))
		}
	}
	return p.moved, true, nil
}

func (p *pairSource) Laws(units []contact.Unit, laws []kind.Law, ids []kind.ID) {
	for i := range units {
		p.law(&units[i], &laws[i])
		ids[i] = p.id(units[i].Key)
	}
}

func (p *pairSource) law(u *contact.Unit, l *kind.Law) {
	pair := p.det.Pairs[u.Key.Pair]
	// No slop: a finite-element unit's gap is measured again about the
	// predicted end where the step leaves it deep, and a slop there moved
	// the colliding blocks' exit velocity by up to 0.03 m/s (T6, pairing).
	th := pair.Candidate.Thickness()
	*l = kind.Law{Law: pair.Law, Reach: kind.PushReach * u.Weight * u.Weight / th, Cohesion: pair.Cohesion, Bond: kind.Slop * u.Weight * u.Weight / th}
	if u.Key.Reverse {
		l.Reach = 0 // found already inside: held, see contact.Detect
	}
	if u.Key.Reverse && pair.Obstacle != nil {
		// A rigid body's vertex against the side (contact.Detector's
		// carried units): a point force in N s, which a cohesion in Pa
		// has no area to multiply; the side's nodes' units hold the joint.
		l.Cohesion = 0
	}
	l.Motion = p.motion(u.Key.Pair)
}

// id is the unit's candidate node, and which of its units in a valley: the
// antagonist edge changes while it slides.
func (p *pairSource) id(k contact.Key) kind.ID {
	return kind.ID{Pair: k.Pair, Node: k.Node, Reverse: k.Reverse, Valley: k.Valley}
}

func (p *pairSource) Body(k contact.Key) int {
	pair := p.det.Pairs[k.Pair]
	switch {
	case k.Reverse && pair.Antagonist != nil:
		return pair.Antagonist.Body
	case k.Reverse: // a rigid body's vertex or disk on the side
		return pair.Obstacle.Body
	}
	return pair.Candidate.Body
}

func (p *pairSource) Thickness(k contact.Key) float64 {
	return p.det.Pairs[k.Pair].Candidate.Thickness()
}
func (p *pairSource) Reverse(k contact.Key) bool { return k.Reverse }
