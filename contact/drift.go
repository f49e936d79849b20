package contact

import (
	"math"
	"slices"
)

// A Trace is what of a configuration the Detector's pairs read: the
// positions of their sides' nodes (Side.AllNodes), the poses of the
// bodies that carry their obstacles, the time, and the pairs' own
// parameters. Detector.Drift compares a configuration with it.
type Trace struct {
	time  float64
	pos   [][2]float64 // the sides' read nodes, pair by pair, side by side
	poses [][3]float64 // the carried obstacles' bodies, pair by pair
	pairs []pairTrace
}

// pairTrace is what of a pair a detection's units carry.
type pairTrace struct {
	pair      *Pair
	mu, alert float64
}

// Trace records in dst what Detect reads of cfg, reusing its storage.
func (d *Detector) Trace(dst *Trace, cfg Config) {
	dst.time, dst.pos, dst.poses, dst.pairs = cfg.Time, dst.pos[:0], dst.poses[:0], dst.pairs[:0]
	for _, p := range d.Pairs {
		dst.pairs = append(dst.pairs, pairTrace{p, p.Mu, p.Alert})
		for _, s := range p.sides() {
			if s == nil {
				continue
			}
			u := cfg.disp(s.Body)
			for _, n := range s.read {
				dst.pos = append(dst.pos, s.position(u, n))
			}
		}
		if o := p.Obstacle; o != nil && o.Carried && o.Body >= 0 && o.Body < len(cfg.Poses) {
			dst.poses = append(dst.poses, cfg.Poses[o.Body])
		}
	}
}

// Drift is how far cfg is from the configuration traced in t, as the
// pairs see it: the largest distance a node of a side moved, relative to
// that side's shortest edge; +Inf where an obstacle may have moved (a
// carried one's body has another pose, or an obstacle has a motion and
// the time differs) or a pair changed. Detect finds in cfg the units it
// found in t's configuration, to within Drift times an edge in their
// positions and gaps (the faces beyond the flanks, whose nodes only the
// flanks' far vertices read, are not compared): a stepper whose step
// ended where it predicted, to round-off, keeps the units it detected
// there (timestep).
func (d *Detector) Drift(t *Trace, cfg Config) float64 {
	if len(t.pairs) != len(d.Pairs) {
		return math.Inf(1)
	}
	drift, k, j := 0.0, 0, 0
	for i, p := range d.Pairs {
		if t.pairs[i] != (pairTrace{p, p.Mu, p.Alert}) {
			return math.Inf(1)
		}
		for _, s := range p.sides() {
			if s == nil {
				continue
			}
			u := cfg.disp(s.Body)
			if k+len(s.read) > len(t.pos) {
				return math.Inf(1)
			}
			var d2 float64
			for i, n := range s.read {
				x, y := s.position(u, n), t.pos[k+i]
				dx, dy := x[0]-y[0], x[1]-y[1]
				d2 = max(d2, dx*dx+dy*dy)
			}
			drift = max(drift, math.Sqrt(d2)/s.shortest)
			k += len(s.read)
		}
		if o := p.Obstacle; o != nil {
			if o.MotionIn(cfg) != nil && cfg.Time != t.time {
				return math.Inf(1)
			}
			if o.Carried {
				if o.Body < 0 || o.Body >= len(cfg.Poses) || j >= len(t.poses) || cfg.Poses[o.Body] != t.poses[j] {
					return math.Inf(1)
				}
				j++
			}
		}
	}
	if math.IsNaN(drift) {
		return math.Inf(1)
	}
	return drift
}

// sides are the pair's candidate and its antagonist side, nil for an
// obstacle.
func (p *Pair) sides() [2]*Side { return [2]*Side{p.Candidate, p.Antagonist} }

// TraceState is a Trace as plain data, for a checkpoint: its pairs by
// their place among the Detector's, with the parameters traced.
type TraceState struct {
	Time      float64
	Pos       [][2]float64
	Poses     [][3]float64
	Mu, Alert []float64
}

// TraceState returns t as data. A traced pair that is not the Detector's
// at its place any more is given a NaN friction coefficient, which no
// pair has: the trace set from it (SetTrace) drifts by +Inf.
func (d *Detector) TraceState(t *Trace) TraceState {
	s := TraceState{Time: t.time, Pos: slices.Clone(t.pos), Poses: slices.Clone(t.poses)}
	for i, pt := range t.pairs {
		mu := pt.mu
		if i >= len(d.Pairs) || d.Pairs[i] != pt.pair {
			mu = math.NaN()
		}
		s.Mu, s.Alert = append(s.Mu, mu), append(s.Alert, pt.alert)
	}
	return s
}

// SetTrace sets dst to the trace s holds, each of its pairs the
// Detector's at its place: a TraceState of another Detector, or a damaged
// one, gives a trace that drifts by +Inf, never an error.
func (d *Detector) SetTrace(dst *Trace, s TraceState) {
	dst.time, dst.pos, dst.poses = s.Time, append(dst.pos[:0], s.Pos...), append(dst.poses[:0], s.Poses...)
	dst.pairs = dst.pairs[:0]
	for i, mu := range s.Mu {
		pt := pairTrace{mu: mu, alert: math.NaN()}
		if i < len(d.Pairs) {
			pt.pair = d.Pairs[i]
		}
		if i < len(s.Alert) {
			pt.alert = s.Alert[i]
		}
		dst.pairs = append(dst.pairs, pt)
	}
}
