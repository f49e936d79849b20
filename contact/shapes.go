package contact

// The antagonists a candidate node is projected on: another body's side,
// an obstacle's polyline or disc, each placed in the configuration once a
// pass (geometry), with its vertices' rounding.

// antagonist is the geometry of a pass's antagonist in one configuration:
// its entries' grown boxes, the projection on entry k, and the vertex at an
// end of entry k (end 0 at s = -1, 1 at s = +1) with which of the vertex's
// faces (1 or 2) is entry k's own; ok is false at a free end. The shape
// lives in the pass's work, so that a step allocates none.
type antagonist struct {
	boxes []box
	shape interface {
		project(k int, x [2]float64) projection
		vertex(k, end int) (v vertex, own int, ok bool)
	}
}

func (g antagonist) project(k int, x [2]float64) projection { return g.shape.project(k, x) }

func (g antagonist) vertex(k, end int) (vertex, int, bool) { return g.shape.vertex(k, end) }

// geometry returns the pass's antagonist in the configuration.
func (ps *pass) geometry(p *Pair, cfg Config) antagonist {
	w := ps.work
	if a := ps.ant; a != nil {
		ant := a.geometry(cfg, p.Alert, w)
		w.boxes = ant.boxes
		return ant
	}
	o := p.Obstacle
	place, centre, _ := o.place(cfg) // checked by Detect
	w.carrier = centre
	if o.Radius > 0 {
		c := place.at(o.Center)
		r := [2]float64{o.Radius, o.Radius}
		w.disc = discShape{c: c, r: o.Radius}
		w.boxes = append(w.boxes[:0], boxOf([2]float64{c[0] - r[0], c[1] - r[1]}, [2]float64{c[0] + r[0], c[1] + r[1]}).grow(p.Alert))
		return antagonist{boxes: w.boxes, shape: &w.disc}
	}
	pl := &w.polyline
	pl.pts, pl.closed = pl.pts[:0], o.closed()
	for _, q := range o.Points {
		pl.pts = append(pl.pts, place.at(q))
	}
	w.boxes = w.boxes[:0]
	for k := 0; k+1 < len(pl.pts); k++ {
		w.boxes = append(w.boxes, boxOf(pl.pts[k], pl.pts[k+1]).grow(p.Alert))
	}
	return antagonist{boxes: w.boxes, shape: pl}
}

// discShape is a disc obstacle placed in a configuration: no vertices.
type discShape struct {
	c [2]float64
	r float64
}

func (d *discShape) project(_ int, x [2]float64) projection { return projectDisc(x, d.c, d.r) }

func (d *discShape) vertex(int, int) (vertex, int, bool) { return vertex{}, 0, false }

// polylineShape is a polyline obstacle placed in a configuration.
type polylineShape struct {
	pts    [][2]float64
	closed bool
}

func (o *polylineShape) project(k int, x [2]float64) projection {
	// The free side is on the left of the polyline: project on the
	// reversed segment, whose right is that side, and flip s back.
	pr := projectSegment(x, o.pts[k+1], o.pts[k])
	pr.s = -pr.s
	return pr
}

// normal is segment j's outward normal. Walking the polyline backwards
// keeps the obstacle on the left, as a body's boundary: vertex j ends
// segment j and starts segment j-1.
func (o *polylineShape) normal(j int) [2]float64 {
	d := [2]float64{o.pts[j][0] - o.pts[j+1][0], o.pts[j][1] - o.pts[j+1][1]}
	l := norm(d[0], d[1])
	return [2]float64{d[1] / l, -d[0] / l}
}

func (o *polylineShape) vertex(k, end int) (vertex, int, bool) {
	pts := o.pts
	last := len(pts) - 2 // the last segment
	j := k + end
	after, before := j, j-1 // the segments that start and end at vertex j
	switch {
	case (j == 0 || j == last+1) && !o.closed:
		return vertex{}, 0, false
	case j == 0:
		before = last
	case j == last+1:
		after = 0
	}
	l := min(dist(pts[after], pts[after+1]), dist(pts[before], pts[before+1]))
	return vertex{x: pts[j], n1: o.normal(after), n2: o.normal(before), length: l}, 1 + end, true
}

func dist(a, b [2]float64) float64 { return norm(a[0]-b[0], a[1]-b[1]) }

// geometry returns the side's edges as an antagonist in the configuration.
func (a *Side) geometry(cfg Config, alert float64, w *passWork) antagonist {
	u := cfg.disp(a.Body)
	if len(w.X) != len(a.all) {
		w.X = make([][3][2]float64, len(a.all))
	}
	X := w.X
	g := antagonist{boxes: w.boxes[:0]}
	for k, e := range a.all {
		for i, n := range e.Nodes {
			X[k][i] = a.position(u, n)
		}
		if len(e.Nodes) == 2 {
			g.boxes = append(g.boxes, boxOf(X[k][0], X[k][1]).grow(alert))
		} else {
			// The parabola lies in the convex hull of its Bezier points:
			// the ends and 2 X_mid - (X_0 + X_1)/2.
			c := [2]float64{2*X[k][2][0] - (X[k][0][0]+X[k][1][0])/2, 2*X[k][2][1] - (X[k][0][1]+X[k][1][1])/2}
			g.boxes = append(g.boxes, boxOf(X[k][0], X[k][1], c).grow(alert))
		}
	}
	if len(w.vertices) != 2*len(a.all) {
		w.vertices = make([]vertexMemo, 2*len(a.all))
	}
	clear(w.vertices)
	w.side = sideShape{a: a, u: u, X: X, memo: w.vertices}
	g.shape = &w.side
	return g
}

// sideShape is a side's edges in a configuration, with the vertices at
// their ends as vertex finds them (each is asked for by every candidate
// near it).
type sideShape struct {
	a    *Side
	u    []float64
	X    [][3][2]float64
	memo []vertexMemo // by 2 k + end
}

type vertexMemo struct {
	v        vertex
	own      int
	ok, done bool
}

func (g *sideShape) project(k int, x [2]float64) projection {
	if len(g.a.all[k].Nodes) == 2 {
		return projectSegment(x, g.X[k][0], g.X[k][1])
	}
	return projectQuadratic(x, &g.X[k])
}

func (g *sideShape) vertex(k, end int) (vertex, int, bool) {
	m := &g.memo[2*k+end]
	if !m.done {
		m.v, m.own, m.ok = g.findVertex(k, end)
		m.done = true
	}
	return m.v, m.own, m.ok
}

func (g *sideShape) findVertex(k, end int) (vertex, int, bool) {
	a := g.a
	n := a.all[k].Nodes[end]
	c, found := a.corners[n]
	if !found || !c.ok {
		return vertex{}, 0, false
	}
	n1, l1 := a.edgeNormal(g.u, c.in, 1)
	n2, l2 := a.edgeNormal(g.u, c.out, 0)
	l := min(l1, l2)
	// Entry k ends at its second node (the face before it) and starts at
	// its first (the face after it).
	return vertex{x: g.X[k][end], n1: n1, n2: n2, length: l}, 2 - end, true
}
