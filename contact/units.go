package contact

import (
	"cmp"
	"slices"

	"github.com/fecontact/fecontact/element"
)

// units appends pair p's contact units, built from its projected candidate
// nodes (by local index; nil where no antagonist was found), to r.units,
// their entries to r's slab.
func (d *Detector) units(r *detection, pi int, p *Pair, ps *pass, pts []*Point, cfg Config) {
	var vObs [2]float64
	if p.Obstacle != nil {
		vObs = p.Obstacle.motion(cfg).Velocity(cfg.Time)
	}
	carrier := p.Obstacle.freeCarrier(cfg)
	scratch := ps.work.scratch
	defer func() { ps.work.scratch = scratch }()
	for j, col := range ps.weights {
		if len(col) == 0 || !complete(col, pts) {
			continue
		}
		frame := pts[j]
		var heaviest float64
		u := Unit{Mu: p.Mu, MuDynamic: p.muDynamic}
		scratch = scratch[:0]
		ps.work.driven = [2]float64{}
		for _, w := range col { // complete: every pts[w.I] is found
			q := pts[w.I]
			if frame == nil || (pts[j] == nil && w.P > heaviest) {
				frame, heaviest = q, w.P
			}
			u.Gap += w.P * q.Gap
			u.Weight += w.P
			scratch = ps.addRows(scratch, q, w.P, carrier, cfg)
			if p.Obstacle != nil {
				for c := 0; c < 2; c++ {
					u.ObsN[c] += w.P * q.N[c]
					u.ObsT[c] += w.P * q.T[c]
				}
			}
		}
		u.Rigid = u.RigidAt(vObs)
		u.addDriven(ps.work.driven)
		u.Key = Key{Pair: pi, Node: ps.cand.nodes[j], Edge: frame.Edge, Reverse: ps.reverse}
		u.X, u.N, u.T = frame.X, frame.N, frame.T
		u.Entries = r.entries(scratch)
		r.units = append(r.units, u)
	}
	for _, q := range ps.work.valley {
		ps.valleyUnit(r, pi, &q, p, vObs, carrier, cfg)
	}
}

// valleyUnit appends the unit of a valley point q (a node's second face):
// a point unit with the node's weight, the sum of its column of P.
func (ps *pass) valleyUnit(r *detection, pi int, q *Point, p *Pair, vObs [2]float64, carrier *Obstacle, cfg Config) {
	o := p.Obstacle
	var w float64
	for _, c := range ps.weights[ps.cand.local[q.Node]] {
		w += c.P
	}
	u := Unit{Mu: p.Mu, MuDynamic: p.muDynamic, Gap: w * q.Gap, Weight: w, X: q.X, N: q.N, T: q.T,
		Key: Key{Pair: pi, Node: q.Node, Edge: q.Edge, Reverse: ps.reverse, Valley: true}}
	if o != nil {
		u.ObsN, u.ObsT = [2]float64{w * q.N[0], w * q.N[1]}, [2]float64{w * q.T[0], w * q.T[1]}
	}
	u.Rigid = u.RigidAt(vObs)
	ps.work.driven = [2]float64{}
	ps.work.scratch = ps.addRows(ps.work.scratch[:0], q, w, carrier, cfg)
	u.addDriven(ps.work.driven)
	u.Entries = r.entries(ps.work.scratch)
	r.units = append(r.units, u)
}

// detection is one Detect's result and the storage of its units'
// entries, kept from one detection to the next.
type detection struct {
	units  []Unit
	points []Point
	slab   []Entry
}

// reset empties r, keeping its storage.
func (r *detection) reset() {
	r.units, r.points, r.slab = r.units[:0], r.points[:0], r.slab[:0]
}

// entries merges es (see merge) and copies them to r's slab, as a unit's
// entries. A full slab is replaced by a larger one: units already made
// keep the old one, and the next detection fills the new one.
func (r *detection) entries(es []Entry) []Entry {
	es = merge(es)
	if cap(r.slab)-len(r.slab) < len(es) {
		r.slab = make([]Entry, 0, max(2*cap(r.slab), 64*len(es)))
	}
	start := len(r.slab)
	r.slab = append(r.slab, es...)
	return r.slab[start:len(r.slab):len(r.slab)]
}

// complete reports whether every node of a column of P found its
// antagonist. A unit whose weighted gap would miss some of its nodes is left
// out: a partial sum over nodes with weights of both signs is not a gap,
// and dropping a node as it crosses the alert distance would change the
// unit's gap by a jump. (Nodal columns have one node: always complete.)
func complete(col []Weight, pts []*Point) bool {
	for _, w := range col {
		if pts[w.I] == nil {
			return false
		}
	}
	return true
}

// addRows appends weight times node q's rows H_q: +n, +t on the candidate
// node's DOFs, -N_k n, -N_k t on the antagonist edge's nodes k, or -n, -t
// and -(r x n), -(r x t) on the x, y and rotation of the free rigid body
// that carries the obstacle carrier (nil for none), r from its centre to
// the closest point; the rows of driven DOFs times their velocities in cfg
// go to ps.work.driven.
func (ps *pass) addRows(dst []Entry, q *Point, weight float64, carrier *Obstacle, cfg Config) []Entry {
	add := func(side *Side, node int, f float64) {
		dst = side.nodeRows(dst, node, f, q.N, q.T, cfg.moving(side.Body), &ps.work.driven)
	}
	add(ps.cand, q.Node, weight)
	if o := carrier; o != nil {
		c := ps.work.carrier
		r := [2]float64{q.Xa[0] - c[0], q.Xa[1] - c[1]}
		dst = append(dst,
			Entry{Body: o.Body, Eq: 0, N: -weight * q.N[0], T: -weight * q.T[0]},
			Entry{Body: o.Body, Eq: 1, N: -weight * q.N[1], T: -weight * q.T[1]},
			Entry{Body: o.Body, Eq: 2, N: -weight * cross(r, q.N), T: -weight * cross(r, q.T)})
	}
	if a := ps.ant; a != nil {
		e := a.edge(q.Edge)
		var N [3]float64
		element.EdgeShape(len(e.Nodes), q.S, N[:len(e.Nodes)], nil)
		for k, node := range e.Nodes {
			add(a, node, -weight*N[k])
		}
	}
	return dst
}

// merge sorts entries by (Body, Eq) and adds up duplicates.
func merge(es []Entry) []Entry {
	slices.SortStableFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Body, b.Body), cmp.Compare(a.Eq, b.Eq))
	})
	out := es[:0]
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].Body == e.Body && out[n-1].Eq == e.Eq {
			out[n-1].N += e.N
			out[n-1].T += e.T
			continue
		}
		out = append(out, e)
	}
	return out
}

// addDriven adds the velocity term of the driven nodes the unit touches to
// Rigid, and keeps it (Driven).
func (u *Unit) addDriven(d [2]float64) {
	if d != [2]float64{} { // an obstacle's term unchanged to the bit where nothing is driven
		u.Driven = d
		u.Rigid[0] += d[0]
		u.Rigid[1] += d[1]
	}
}

// RigidEnd is the unit's Rigid term with its obstacle moving at v: the
// obstacle's, and its driven nodes' as they were.
func (u *Unit) RigidEnd(v [2]float64) [2]float64 {
	r := u.RigidAt(v)
	if u.Driven != [2]float64{} {
		r[0] += u.Driven[0]
		r[1] += u.Driven[1]
	}
	return r
}

// Velocity returns the unit's local velocity U~ = H~ v + Rigid for the
// bodies' free velocity vectors v[body].
func (u *Unit) Velocity(v [][]float64) [2]float64 {
	U := u.Rigid
	for _, e := range u.Entries {
		U[0] += e.N * v[e.Body][e.Eq]
		U[1] += e.T * v[e.Body][e.Eq]
	}
	return U
}

// Velocities is Velocity(v) and Velocity(w), the same sums in one pass
// over the entries: a step asks every unit its velocity at the start and
// its free one together (the problem), where two passes read the entries
// twice.
func (u *Unit) Velocities(v, w [][]float64) (Uv, Uw [2]float64) {
	Uv, Uw = u.Rigid, u.Rigid
	for _, e := range u.Entries {
		x, y := v[e.Body][e.Eq], w[e.Body][e.Eq]
		Uv[0] += e.N * x
		Uv[1] += e.T * x
		Uw[0] += e.N * y
		Uw[1] += e.T * y
	}
	return Uv, Uw
}

// NormalVelocities is the normal components of Velocities(v, w): the
// impact checks at a step's start ask them of every unit that touches.
func (u *Unit) NormalVelocities(v, w [][]float64) (Uv, Uw float64) {
	Uv, Uw = u.Rigid[0], u.Rigid[0]
	for _, e := range u.Entries {
		Uv += e.N * v[e.Body][e.Eq]
		Uw += e.N * w[e.Body][e.Eq]
	}
	return Uv, Uw
}

// AddImpulse adds H~' P, the generalised impulse of the unit's impulse
// P = (P_N, P_T), to the bodies' free vectors r[body].
func (u *Unit) AddImpulse(r [][]float64, P [2]float64) {
	for _, e := range u.Entries {
		r[e.Body][e.Eq] += e.N*P[0] + e.T*P[1]
	}
}
