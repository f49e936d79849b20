package rigid

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
)

// detectWork is the storage a detection reuses. Its items are the bodies,
// then the periodic images of those near the cell's ends.
type detectWork struct {
	items   []item
	verts   [][][2]float64 // per item: polygon vertices in place
	slab    [][2]float64
	span    [][2]int     // per item: its vertices in slab
	lo, hi  [][2]float64 // boxes, grown by half the alert distance
	big     []int
	cell    []int // per small body: its cell, or -1
	start   []int // cell -> first index in items
	binned  []int
	pairs   [][2]int
	keys    []uint64 // pairs packed for sorting
	near    nearPairs
	touches []touch
	order   []int32 // the touches' indices in the units' order
	ends    []int32 // orderTouches' places, per body
	// Where Detect leaves its units, and where a simulation's steps find
	// theirs (kind.go): a Detect between steps leaves the units of the
	// last step as they were, which the simulation reads its contacts
	// from.
	asked, stepped unitStore
}

// unitStore is where a detection leaves its units and their entries.
type unitStore struct {
	units   []contact.Unit
	entries []contact.Entry
}

// Detect finds the contacts between the bodies in their current pose and
// returns them as contact units whose entries act on body base+i for body
// i (its index in a simulation's velocity vectors), in the order of
// (candidate, antagonist, feature); a driven body is never the candidate.
// A pair of bodies deeper into each other than the alert distance is an
// error naming them. The units and their entries live in storage that the
// next Detect reuses (a fresh slice of a deposit's 2 000 units, cleared
// and collected every step, was 5 % of its step).
func (s *System) Detect(base int) ([]contact.Unit, error) {
	return s.detect(base, &s.det.asked)
}

// detect is Detect, its units and their entries left in out.
func (s *System) detect(base int, out *unitStore) ([]contact.Unit, error) {
	w := &s.det
	if err := s.CheckState(); err != nil {
		return nil, err
	}
	s.place()
	w.pairs = s.candidates(w.pairs[:0])
	w.touches = w.touches[:0]
	for _, pr := range w.pairs {
		w.touches = s.narrow(w.touches, pr[0], pr[1])
	}
	for k := range w.touches {
		t := &w.touches[k]
		if s.Bodies[t.a].Driven() {
			t.a, t.b, t.p, t.pb, t.fa, t.fb, t.ca, t.cb = t.b, t.a, t.pb, t.p, t.fb, t.fa, t.cb, t.ca
			t.n = [2]float64{-t.n[0], -t.n[1]}
		}
		if t.gap < -s.alert {
			return nil, fmt.Errorf("rigid bodies %q and %q: %.3g m into each other at (%.6g, %.6g), deeper than the alert distance %.3g m: move them apart, or use a smaller h or a larger alert",
				s.Bodies[t.a].Name, s.Bodies[t.b].Name, -t.gap, t.p[0], t.p[1], s.alert)
		}
	}
	s.orderTouches()
	out.entries = slices.Grow(out.entries[:0], 6*len(w.touches))[:0]
	// Each unit made in place: built and returned, a unit of 216 bytes
	// was copied twice, a tenth of the detection.
	out.units = reuse.Zeroed(out.units, len(w.order))
	for i, k := range w.order {
		s.unit(&out.units[i], &w.touches[k], base, &out.entries)
	}
	return out.units, nil
}

// orderTouches sets w.order to the touches' indices in the units' order:
// by (a, b, fa, fb), stably. They are counted out by a, then each body's
// few are sorted by insertion (those of a periodic image come out of
// order). A stable sort of the indices cost 2.4 % of a deposit's step,
// this 0.7-1.7 %; sorting the 128-byte touches themselves cost 6 %.
func (s *System) orderTouches() {
	w := &s.det
	end := reuse.Zeroed(w.ends, len(s.Bodies)+1)
	for k := range w.touches {
		end[w.touches[k].a+1]++
	}
	for i := 1; i < len(end); i++ {
		end[i] += end[i-1]
	}
	// end[a] is body a's first place; once a's touches are placed, it is
	// their end.
	w.order = reuse.Zeroed(w.order, len(w.touches))
	for k := range w.touches {
		a := w.touches[k].a
		w.order[end[a]] = int32(k)
		end[a]++
	}
	after := func(i, j int32) bool {
		x, y := &w.touches[i], &w.touches[j]
		return cmp.Or(cmp.Compare(x.b, y.b), cmp.Compare(x.fa, y.fa), cmp.Compare(x.fb, y.fb)) > 0
	}
	var lo int32
	for _, hi := range end[:len(s.Bodies)] {
		run := w.order[lo:hi]
		for i := 1; i < len(run); i++ {
			for j := i; j > 0 && after(run[j-1], run[j]); j-- {
				run[j-1], run[j] = run[j], run[j-1]
			}
		}
		lo = hi
	}
	w.ends = end
}

// MaxCoordinate bounds a rigid body's position and velocity (m, m/s, rad,
// rad/s): beyond it the grid of the broad phase, a body's box and its
// rotation lose their meaning (at 1e15 m a position's round-off is 0.1 m).
const MaxCoordinate = 1e15

// CheckState reports a body, free or driven, whose pose or velocity is
// not finite or not below MaxCoordinate in size: a diverging run or a
// hostile input, named with its value and the time, before it reaches the
// geometry.
func (s *System) CheckState() error {
	for _, b := range s.Bodies {
		if inRange(b.Q) && inRange(b.V) {
			continue
		}
		for k := range 3 {
			for _, x := range []struct {
				what string
				v    float64
			}{{"pose", b.Q[k]}, {"velocity", b.V[k]}} {
				if !within(x.v) {
					return fmt.Errorf("rigid body %q at t = %g: its %s has the component %g (%s), beyond what the broad phase and the rotation can hold (|x| < %g): the run diverged or the input is out of range; check its position, velocity, gravity and the driven bodies' motions, or use a smaller h",
						b.Name, s.t, x.what, x.v, [3]string{"x", "y", "rotation"}[k], MaxCoordinate)
				}
			}
		}
	}
	return nil
}

// inRange reports whether every component of x is within range:
// CheckState's test without its messages, which it built for every
// component of every body.
func inRange(x [3]float64) bool { return within(x[0]) && within(x[1]) && within(x[2]) }

// within reports whether v is below MaxCoordinate in size (false for NaN).
func within(v float64) bool { return math.Abs(v) < MaxCoordinate }

// maxSwept bounds the poses Tunnelled looks at between a step's ends.
const maxSwept = 64

// Tunnelled looks, after a step, for a body that went through another in
// it and ended clear of it, which the next detection cannot see: where a
// body's travel in the step (its centre's, plus its radius times its
// turn) exceeds the alert distance, the bodies are placed at poses
// interpolated every half alert distance (at most maxSwept) between the
// step's ends, and a pair that a rule lets touch found deeper into each
// other than the alert distance is an error naming both. (A disk at 500
// m/s over a 2 cm plate at h = 1 ms went through without a word.)
// Periodic images are not looked at.
func (s *System) Tunnelled() error {
	for i, b := range s.Bodies {
		travel := math.Hypot(s.dq[i][0], s.dq[i][1]) + b.Shape.Radius()*math.Abs(s.dq[i][2])
		if !(travel > s.alert) {
			continue
		}
		parts := min(int(math.Ceil(2*travel/s.alert)), maxSwept)
		end := make([][3]float64, len(s.Bodies))
		for j, o := range s.Bodies {
			end[j] = o.Q
		}
		err := s.sweep(i, parts, travel)
		for j, o := range s.Bodies {
			o.Q = end[j]
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sweep places the bodies at parts-1 poses between the step's ends and
// reports body i deeper than the alert distance into one it may touch.
func (s *System) sweep(i, parts int, travel float64) error {
	for k := 1; k < parts; k++ {
		f := float64(k) / float64(parts)
		for j, o := range s.Bodies {
			for c := range 3 {
				o.Q[c] = s.q0[j][c] + f*s.dq[j][c]
			}
		}
		for j, o := range s.Bodies {
			if j == i || !s.touchable(i, j) {
				continue
			}
			if d := Distance(s.Bodies[i], o); d < -s.alert {
				return fmt.Errorf("rigid body %q went through rigid body %q in the step to t = %g: %.3g m into it %.0f %% of the way, with a travel of %.3g m in the step against the alert distance %.3g m (tunnelling): use a smaller h or a larger alert",
					s.Bodies[i].Name, o.Name, s.t, -d, 100*f, travel, s.alert)
			}
		}
	}
	return nil
}

// item is a body or a periodic image of it, shifted by shift along x.
type item struct {
	body  int
	shift float64
	c     [2]float64 // its centre of mass
}

// place computes the items' vertices and boxes: every body, then with a
// period the images, shifted by one period, of the bodies whose box comes
// within the largest box size of the cell's ends (so that any body near
// one end meets the images of those near the other).
func (s *System) place() {
	w := &s.det
	w.items = w.items[:0]
	for i, b := range s.Bodies {
		w.items = append(w.items, item{body: i, c: [2]float64{b.Q[0], b.Q[1]}})
	}
	w.slab, w.span, w.lo, w.hi = w.slab[:0], w.span[:0], w.lo[:0], w.hi[:0]
	reach := 0.0
	for i := range s.Bodies {
		s.placeItem(i)
		reach = max(reach, w.hi[i][0]-w.lo[i][0])
	}
	if p := s.period; p[1] > p[0] {
		l := p[1] - p[0]
		for i := range s.Bodies {
			if w.lo[i][0] < p[0]+reach {
				w.items = append(w.items, item{body: i, shift: l, c: [2]float64{w.items[i].c[0] + l, w.items[i].c[1]}})
				s.placeItem(len(w.items) - 1)
			}
			if w.hi[i][0] > p[1]-reach {
				w.items = append(w.items, item{body: i, shift: -l, c: [2]float64{w.items[i].c[0] - l, w.items[i].c[1]}})
				s.placeItem(len(w.items) - 1)
			}
		}
	}
	w.verts = reuse.Zeroed(w.verts, len(w.items))
	for k, sp := range w.span {
		w.verts[k] = w.slab[sp[0]:sp[1]:sp[1]]
	}
}

// placeItem appends item k's vertices and box.
func (s *System) placeItem(k int) {
	w := &s.det
	it := w.items[k]
	b := s.Bodies[it.body]
	start := len(w.slab)
	w.slab = b.Vertices(w.slab)
	v := w.slab[start:]
	for j := range v {
		v[j][0] += it.shift
	}
	lo, hi := it.c, it.c
	if len(v) == 0 {
		r := b.Shape.Radius()
		lo, hi = [2]float64{lo[0] - r, lo[1] - r}, [2]float64{hi[0] + r, hi[1] + r}
	}
	for _, x := range v {
		for c := range 2 {
			lo[c], hi[c] = min(lo[c], x[c]), max(hi[c], x[c])
		}
	}
	a := s.alert / 2
	w.lo, w.hi = append(w.lo, [2]float64{lo[0] - a, lo[1] - a}), append(w.hi, [2]float64{hi[0] + a, hi[1] + a})
	w.span = append(w.span, [2]int{start, len(w.slab)}) // the slab may still grow
}

// broad appends the pairs of items (i < j by body, an item of the lower
// body first, without repeats) whose boxes (boxLo, boxHi) overlap and
// that a rule lets touch, sorted. Items whose box is larger than four
// times the median are tested against every item; the others are binned
// in a grid of cells as large as the largest of them, where a pair's
// items lie in neighbouring cells: linear in the number of bodies.
func (s *System) broad(out [][2]int, boxLo, boxHi [][2]float64) [][2]int {
	w := &s.det
	n := len(w.items)
	if n < 2 {
		return out
	}
	size := make([]float64, n)
	for i := range size {
		size[i] = max(boxHi[i][0]-boxLo[i][0], boxHi[i][1]-boxLo[i][1])
	}
	sorted := slices.Clone(size)
	slices.Sort(sorted)
	limit := 4 * sorted[n/2]
	w.big = w.big[:0]
	cell := 0.0
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for i, sz := range size {
		if sz > limit {
			w.big = append(w.big, i)
			continue
		}
		cell = max(cell, sz)
		for c := range 2 {
			lo[c], hi[c] = min(lo[c], boxLo[i][c]), max(hi[c], boxLo[i][c])
		}
	}
	add := func(i, j int) {
		a, b := w.items[i], w.items[j]
		if a.body == b.body || (a.shift != 0 && b.shift != 0) || !overlap(boxLo[i], boxHi[i], boxLo[j], boxHi[j]) {
			return
		}
		if a.body > b.body || (a.body == b.body && i > j) {
			i, j = j, i
		}
		if s.touchable(w.items[i].body, w.items[j].body) {
			out = append(out, [2]int{i, j})
		}
	}
	for k, i := range w.big {
		for j := range n {
			if j != i && (size[j] <= limit || slices.Index(w.big, j) > k) {
				add(i, j)
			}
		}
	}
	if cell > 0 {
		s.grid(size, boxLo, limit, cell, lo, hi, add)
	}
	return s.canonical(out)
}

// canonical sorts the pairs by bodies and drops repeats: a body and the
// image of another, and that other and the opposite image of the first,
// are one pair; it keeps the one whose first item is a body.
func (s *System) canonical(pairs [][2]int) [][2]int {
	w := &s.det
	if len(w.items) == len(s.Bodies) && len(s.Bodies) <= 1<<32 {
		// No images: the items are the bodies, and broad found each pair
		// once.
		w.keys = sortPairs(pairs, w.keys)
		return pairs
	}
	type key struct {
		a, b  int
		shift float64 // of b relative to a
	}
	keyOf := func(p [2]int) key {
		x, y := w.items[p[0]], w.items[p[1]]
		return key{x.body, y.body, y.shift - x.shift}
	}
	slices.SortFunc(pairs, func(p, q [2]int) int {
		kp, kq := keyOf(p), keyOf(q)
		return cmp.Or(cmp.Compare(kp.a, kq.a), cmp.Compare(kp.b, kq.b), cmp.Compare(kp.shift, kq.shift),
			cmp.Compare(math.Abs(w.items[p[0]].shift), math.Abs(w.items[q[0]].shift)))
	})
	return slices.CompactFunc(pairs, func(p, q [2]int) bool { return keyOf(p) == keyOf(q) })
}

// sortPairs sorts pairs of indices below 2^32 (a System's bodies) by
// packing each into one integer, keys being storage to reuse: sorting
// integers took a third of the time a comparison function did (15 % of
// the step of 1 000 disks at rest).
func sortPairs(pairs [][2]int, keys []uint64) []uint64 {
	keys = keys[:0]
	for _, p := range pairs {
		keys = append(keys, uint64(p[0])<<32|uint64(p[1]))
	}
	slices.Sort(keys)
	for k, key := range keys {
		pairs[k] = [2]int{int(key >> 32), int(key & (1<<32 - 1))}
	}
	return keys
}

// grid bins the small bodies by the lower corner of their box (boxLo)
// and pairs each with those of the nine cells around it.
func (s *System) grid(size []float64, boxLo [][2]float64, limit, cell float64, lo, hi [2]float64, add func(i, j int)) {
	w := &s.det
	n := len(size)
	// Counted in floating point: bodies 1e18 m apart would overflow an
	// int (the state is finite: Detect checks it).
	for (math.Floor((hi[0]-lo[0])/cell)+1)*(math.Floor((hi[1]-lo[1])/cell)+1) > float64(4*n+16) {
		cell *= 2 // bodies spread far apart: fewer, larger cells
	}
	nx, ny := int((hi[0]-lo[0])/cell)+1, int((hi[1]-lo[1])/cell)+1
	at := func(i int) (int, int) {
		return int((boxLo[i][0] - lo[0]) / cell), int((boxLo[i][1] - lo[1]) / cell)
	}
	w.cell, w.start = reuse.Zeroed(w.cell, n), reuse.Zeroed(w.start, nx*ny+1)
	for i := range n {
		w.cell[i] = -1
		if size[i] <= limit {
			cx, cy := at(i)
			w.cell[i] = cy*nx + cx
			w.start[w.cell[i]+1]++
		}
	}
	for c := range nx * ny {
		w.start[c+1] += w.start[c]
	}
	w.binned = reuse.Zeroed(w.binned, w.start[nx*ny])
	fill := slices.Clone(w.start[:nx*ny])
	for i, c := range w.cell {
		if c >= 0 {
			w.binned[fill[c]] = i
			fill[c]++
		}
	}
	for i, c := range w.cell {
		if c < 0 {
			continue
		}
		cx, cy := c%nx, c/nx
		for y := max(cy-1, 0); y <= min(cy+1, ny-1); y++ {
			for x := max(cx-1, 0); x <= min(cx+1, nx-1); x++ {
				for _, j := range w.binned[w.start[y*nx+x]:w.start[y*nx+x+1]] {
					if j > i {
						add(i, j)
					}
				}
			}
		}
	}
}

func overlap(alo, ahi, blo, bhi [2]float64) bool {
	return alo[0] <= bhi[0] && blo[0] <= ahi[0] && alo[1] <= bhi[1] && blo[1] <= ahi[1]
}

// touchable reports whether a rule pairs bodies i and j and one of them
// is free.
func (s *System) touchable(i, j int) bool {
	if s.Bodies[i].Driven() && s.Bodies[j].Driven() {
		return false
	}
	return s.ruleOf(i, j) != nil
}

// narrow appends the contact points of items i and j, as touches of their
// bodies with the items' centres (an image's is shifted).
func (s *System) narrow(out []touch, i, j int) []touch {
	w := &s.det
	ii, ij := w.items[i], w.items[j]
	bi, bj := s.Bodies[ii.body], s.Bodies[ij.body]
	di, iDisk := bi.Shape.(Disk)
	dj, jDisk := bj.Shape.(Disk)
	ci, cj := ii.c, ij.c
	vi, vj := w.verts[i], w.verts[j]
	n := len(out)
	switch {
	case iDisk && jDisk:
		out = diskDisk(out, i, j, ci, cj, di.R, dj.R, s.alert)
	case iDisk:
		out = diskPoly(out, i, j, ci, di.R, vj, s.alert)
	case jDisk:
		out = diskPoly(out, j, i, cj, dj.R, vi, s.alert)
	default:
		out = polyPoly(out, i, j, vi, vj, s.alert, 1e-3*s.alert, bi.Surface, bj.Surface)
	}
	for k := n; k < len(out); k++ {
		t := &out[k]
		t.ca, t.cb = w.items[t.a].c, w.items[t.b].c
		t.image = ii.shift != 0 || ij.shift != 0
		t.a, t.b = w.items[t.a].body, w.items[t.b].body
	}
	return out
}

// unit makes touch t the contact unit u, zero before: the rows H~ of the
// relative velocity U = n.(v_a + omega_a x r_a - v_b - omega_b x r_b) on
// the free bodies' DOFs, both lever arms r to the midpoint of t's two
// points; a driven antagonist's velocity is the Rigid term. The common
// point makes the impulses on the two bodies collinear, so that they
// keep the angular momentum exactly (with a lever arm to each body's own
// point, a penetrated or open contact's tangential impulse would make a
// couple of gap x P_T); the normal velocity is that of the two material
// points to first order, since moving a lever arm along n changes only
// the tangential one.
func (s *System) unit(u *contact.Unit, t *touch, base int, entries *[]contact.Entry) {
	n := t.n
	rule := s.ruleOf(t.a, t.b)
	u.Key = contact.Key{Pair: -1, Node: t.fa, Edge: t.fb, A: t.a, B: t.b, Reverse: t.image}
	u.X, u.N, u.T, u.Gap, u.Weight = t.p, n, [2]float64{-n[1], n[0]}, t.gap, 1
	u.Mu, u.MuDynamic = rule.Mu, contact.Dynamic(rule.Mu, rule.MuDynamic)
	start := len(*entries)
	mid := [2]float64{(t.p[0] + t.pb[0]) / 2, (t.p[1] + t.pb[1]) / 2}
	if t.a < t.b {
		s.addRows(u, entries, t.a, base, mid, t.ca, 1)
		s.addRows(u, entries, t.b, base, mid, t.cb, -1)
	} else {
		s.addRows(u, entries, t.b, base, mid, t.cb, -1)
		s.addRows(u, entries, t.a, base, mid, t.ca, 1)
	}
	e := *entries
	u.Entries = e[start:len(e):len(e)]
}

// addRows appends unit u's rows on body (sign 1 for its candidate, -1
// for its antagonist) at point x, c being the body's centre, to entries;
// a driven body's velocity is u's Rigid term.
func (s *System) addRows(u *contact.Unit, entries *[]contact.Entry, body, base int, x, c [2]float64, sign float64) {
	n, tg := u.N, u.T
	b := s.Bodies[body]
	if b.Driven() {
		u.ObsN, u.ObsT = n, tg
		u.Rigid = u.RigidAt([2]float64{b.V[0], b.V[1]})
		return
	}
	r := [2]float64{x[0] - c[0], x[1] - c[1]}
	e := base + body
	*entries = append(*entries,
		contact.Entry{Body: e, Eq: 0, N: sign * n[0], T: sign * tg[0]},
		contact.Entry{Body: e, Eq: 1, N: sign * n[1], T: sign * tg[1]},
		contact.Entry{Body: e, Eq: 2, N: sign * (r[0]*n[1] - r[1]*n[0]), T: sign * (r[0]*tg[1] - r[1]*tg[0])})
}

// rolls reports whether a contact of bodies i and j resists rolling: a
// disk touches (a polygon's own corners resist its rolling).
func (s *System) rolls(i, j int) bool {
	_, iDisk := s.Bodies[i].Shape.(Disk)
	_, jDisk := s.Bodies[j].Shape.(Disk)
	return iDisk || jDisk
}

// Size is the smaller radius of a unit's two bodies: the length to which
// the positional law relates the penetration it pushes out in a step.
func (s *System) Size(k contact.Key) float64 {
	return min(s.Bodies[k.A].Shape.Radius(), s.Bodies[k.B].Shape.Radius())
}
