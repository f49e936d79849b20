package contact

// carriedUnits appends the units of the reverse pass of a pair whose
// obstacle a rigid body carries: the body's own features against the
// candidate side's edges, so that the rigid body does not enter the
// deformable one between its nodes. A polygon's vertices are points with
// one unit each, at their closest edge (a vertex of the side rounds or
// keeps the normal in its faces' cone, as for nodes; the candidate's faces
// are the polygon's two edges there). A disk is a point of radius r: one
// unit per edge whose closest point to its centre is inside the edge (two
// in a valley), or one at the side's vertex when none is. Each unit is a
// point force: weight 1, impulse in N s.
func (d *Detector) carriedUnits(r *detection, pi int, p *Pair, cfg Config) {
	o, side, w := p.Obstacle, p.Candidate, p.carried
	place, centre, _ := o.place(cfg) // checked by Detect
	ant := side.geometry(cfg, p.Alert+o.Radius, w)
	w.boxes = ant.boxes
	queries := len(o.Points)
	if o.Radius > 0 {
		queries = 1
	}
	w.grid.build(ant.boxes, queries)
	vObs, free := o.motion(cfg).Velocity(cfg.Time), o.MotionIn(cfg) == nil
	add := func(node, k int, x [2]float64, pr projection, gap float64) {
		q := Point{Pair: pi, Reverse: true, Node: node, X: x, Xa: pr.xa, N: pr.n, T: [2]float64{-pr.n[1], pr.n[0]}, Gap: gap, Edge: k, S: pr.s}
		r.points = append(r.points, q)
		var driven [2]float64
		w.scratch, driven = carriedRows(w.scratch[:0], o, side, q, centre, free, cfg)
		u := carriedUnit(p, q, vObs, free, r.entries(w.scratch))
		u.addDriven(driven)
		r.units = append(r.units, u)
	}
	if o.Radius > 0 {
		c := place.at(o.Center)
		side.discTouches(c, o.Radius, p.Alert, ant, w, func(k int, pr projection) {
			x := [2]float64{c[0] - o.Radius*pr.n[0], c[1] - o.Radius*pr.n[1]}
			add(k, k, x, pr, pr.gap-o.Radius)
		})
		return
	}
	vs := o.Points
	if o.closed() {
		vs = vs[:len(vs)-1]
	}
	for j, v := range vs {
		x := place.at(v)
		best, bestK := projection{}, -1
		for _, k := range w.grid.near(w.near[:0], x) {
			if pr := ant.project(k, x); pr.dist <= p.Alert && (bestK < 0 || pr.better(best, p.Alert)) {
				best, bestK = pr, k
			}
		}
		if bestK < 0 {
			continue
		}
		best = atVertex(x, best, bestK, ant, func() [][2]float64 { return polygonFaces(vs, j, place) })
		add(j, bestK, x, best, best.gap)
	}
}

// polygonFaces returns the outward normals of the two edges of a carried
// polyline at its vertex j (the obstacle on the polyline's right: outward
// is the left normal), placed.
func polygonFaces(vs [][2]float64, j int, place placement) [][2]float64 {
	n := len(vs)
	left := func(a, b [2]float64) [2]float64 {
		a, b = place.at(a), place.at(b)
		d := [2]float64{b[0] - a[0], b[1] - a[1]}
		l := dist(a, b)
		return [2]float64{-d[1] / l, d[0] / l}
	}
	return [][2]float64{left(vs[(j+n-1)%n], vs[j]), left(vs[j], vs[(j+1)%n])}
}

// carriedUnit makes the unit of a carried body's point q against the
// side's edge q.Edge, with the given entries (carriedRows); a driven
// body's velocity (free false) is the Rigid term.
func carriedUnit(p *Pair, q Point, vObs [2]float64, free bool, es []Entry) Unit {
	n, t := q.N, q.T
	u := Unit{Key: Key{Pair: q.Pair, Node: q.Node, Edge: q.Edge, Reverse: true}, X: q.X, N: n, T: t, Gap: q.Gap, Weight: 1, Mu: p.Mu, Entries: es}
	if !free {
		u.ObsN, u.ObsT = [2]float64{-n[0], -n[1]}, [2]float64{-t[0], -t[1]}
		u.Rigid = u.RigidAt(vObs)
	}
	return u
}

// carriedRows appends to es the rows of a carried body's point q against
// the side's edge q.Edge: +n, +t and +(r x n), +(r x t) on a free body's
// x, y and rotation (r from its centre to the point), -N_k n, -N_k t on
// the edge's nodes; a driven body (free false) has no rows.
func carriedRows(es []Entry, o *Obstacle, side *Side, q Point, centre [2]float64, free bool, cfg Config) ([]Entry, [2]float64) {
	n, t := q.N, q.T
	if free {
		r := [2]float64{q.X[0] - centre[0], q.X[1] - centre[1]}
		es = append(es, Entry{Body: o.Body, Eq: 0, N: n[0], T: t[0]}, Entry{Body: o.Body, Eq: 1, N: n[1], T: t[1]},
			Entry{Body: o.Body, Eq: 2, N: cross(r, n), T: cross(r, t)})
	}
	return side.Rows(es, Touch{Face: q.Edge, S: q.S}, n, t, cfg)
}
