package timestep

import (
	"fmt"
	"slices"

	"github.com/fecontact/fecontact/contact"
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
	"github.com/fecontact/fecontact/signorini"
	"gonum.org/v1/gonum/floats"
)

// Compliance is a body's compliance on some of its equations
// (kind.Compliance: every kind's).
type Compliance = kind.Compliance

// Delassus builds the operator W of a step's contact problem, W_ab = sum
// over bodies of H~_a' C H~_b, from the bodies' compliances (indexed like
// contact.Entry.Body) and the units' rows H~. It is what a Simulation
// uses every step, and what a caller with a static problem (compliance
// from a stiffness factor) uses the same way.
type Delassus struct {
	comps []Compliance
	pos   [][]int // per body: equation -> index in Eqs, or -1

	touching [][]int   // per body: the units with an entry on it
	cols     []float64 // the columns C h_a of one body's units
	mark     []int     // per unit: the last unit that counted it as a neighbour
	// rows are, body by body, W's blocks at the pairs of the units
	// touching it (fill's rows); at is the next body's first.
	rows   []*[4]float64
	at     int
	small  []smallRow // fillSmall's rows and columns, one per unit
	dense  signorini.Dense
	sparse signorini.BlockSparse

	// bodies lists, unit by unit, the bodies of the units of the last
	// Build (each unit's ended by -1), next those of this one; patterned
	// says the last Build's W was sparse, its pattern in sparse.
	bodies, next []int
	patterned    bool
}

// NewDelassus prepares a builder for the bodies' compliances. It holds
// them, not copies: a compliance changed in place (a finite-element
// body's, with its tangent) is the one the next Build uses.
func NewDelassus(comps ...Compliance) (*Delassus, error) {
	d := &Delassus{comps: comps, touching: make([][]int, len(comps))}
	for i, c := range comps {
		if len(c.C) != len(c.Eqs)*len(c.Eqs) {
			return nil, fmt.Errorf("timestep: compliance of body %d: %d values for %d equations", i, len(c.C), len(c.Eqs))
		}
		n := 0
		for _, e := range c.Eqs {
			if e < 0 {
				return nil, fmt.Errorf("timestep: compliance of body %d: equation %d", i, e)
			}
			n = max(n, e+1)
		}
		pos := make([]int, n)
		for e := range pos {
			pos[e] = -1
		}
		for k, e := range c.Eqs {
			pos[e] = k
		}
		d.pos = append(d.pos, pos)
	}
	return d, nil
}

// isDiagonal reports whether the n x n matrix c has only zeros off its
// diagonal (a rigid body's or a point mass's compliance). It is asked
// at every Build: a finite-element body's compliance changes in place
// with its tangent.
func isDiagonal(c []float64, n int) bool {
	for k := range n {
		for i := range n {
			if i != k && c[k*n+i] != 0 {
				return false
			}
		}
	}
	return true
}

// known reports whether the entry's equation has a compliance: its body
// is one of the builder's, the equation on its contact boundary.
func (d *Delassus) known(e contact.Entry) bool {
	return e.Body >= 0 && e.Body < len(d.pos) && e.Eq >= 0 && e.Eq < len(d.pos[e.Body]) && d.pos[e.Body][e.Eq] >= 0
}

// Build returns W for the units: dense when most pairs of units share a
// body (an elastic body's compliance couples all the units on it),
// block-sparse otherwise (units of bodies apart are not coupled), so that
// NLGS sweeps over the nonzero blocks only. W is valid until the next
// Build, which reuses its storage.
func (d *Delassus) Build(units []contact.Unit) (signorini.Delassus, error) {
	n := len(units)
	if err := d.index(units); err != nil {
		return nil, err
	}
	// Units on the same bodies as the last Build's have its pattern (a
	// pile at rest, most steps of a deposit): W's blocks are only zeroed.
	same := d.sameBodies() && d.patterned
	d.patterned = false
	if !same && d.mostlyCoupled(units) {
		d.dense = signorini.Dense{N: n, Data: reuse.Zeroed(d.dense.Data, 4*n*n)}
		d.fill(units, &d.dense, nil, false)
		return &d.dense, nil
	}
	if same {
		d.sparse.Zero()
	} else { // built into the storage of the last one
		ptr, col := reuse.Zeroed(d.sparse.Ptr, n+1), d.sparse.Col[:0]
		_, col = d.neighbours(units, ptr, col)
		if err := d.sparse.SetPattern(ptr, col); err != nil {
			return nil, fmt.Errorf("timestep: %w", err)
		}
	}
	d.fill(units, nil, &d.sparse, same)
	d.patterned = true
	return &d.sparse, nil
}

// index lists the units touching each body, and in next the units'
// bodies, unit by unit in the order of their entries, in one pass over
// the entries; it reports an entry without a compliance.
func (d *Delassus) index(units []contact.Unit) error {
	for b := range d.touching {
		d.touching[b] = d.touching[b][:0]
	}
	d.next = d.next[:0]
	for a := range units {
		last := -1
		for _, e := range units[a].Entries {
			if !d.known(e) {
				return fmt.Errorf("timestep: contact unit %d (pair %d, node %d): equation %d of body %d has no compliance", a, units[a].Key.Pair, units[a].Key.Node, e.Eq, e.Body)
			}
			if e.Body == last { // a body's entries follow each other
				continue
			}
			last = e.Body
			d.next = append(d.next, last)
			if t := d.touching[last]; len(t) == 0 || t[len(t)-1] != a {
				d.touching[last] = append(t, a)
			}
		}
		d.next = append(d.next, -1)
	}
	return nil
}

// sameBodies reports whether the units indexed have the bodies, unit by
// unit and in the order of their entries, that the last Build's had:
// their touching lists, neighbours and W's pattern are then the same.
func (d *Delassus) sameBodies() bool {
	same := slices.Equal(d.next, d.bodies)
	d.bodies, d.next = d.next, d.bodies
	return same
}

// mostlyCoupled reports whether at least about half the pairs of units
// share a body: W is then stored dense. The units' neighbours are counted
// only when the bodies' counts of units do not settle it (a unit on a body
// of t units has at most t-1 neighbours through it).
func (d *Delassus) mostlyCoupled(units []contact.Unit) bool {
	n := len(units)
	bound := 0
	for _, t := range d.touching {
		bound += len(t) * (len(t) - 1)
	}
	if 2*(n+bound) < n*n {
		return false
	}
	total, _ := d.neighbours(units, nil, nil)
	return 2*(n+total) >= n*n
}

// neighbours counts, per unit, the other units that share a body with it
// and returns the total; with ptr (len(units)+1) it also lists them,
// sorted, in the compressed rows ptr and col, appended to col.
func (d *Delassus) neighbours(units []contact.Unit, ptr, col []int) (int, []int) {
	d.mark = reuse.Zeroed(d.mark, len(units))
	for a := range d.mark {
		d.mark[a] = -1
	}
	list := ptr != nil
	total := 0
	for a := range units {
		start, last := len(col), -1
		for _, e := range units[a].Entries {
			if e.Body == last { // a body's entries follow each other
				continue
			}
			last = e.Body
			for _, b := range d.touching[e.Body] {
				if b != a && d.mark[b] != a {
					d.mark[b] = a
					total++
					if list {
						col = append(col, b)
					}
				}
			}
		}
		if list {
			slices.Sort(col[start:])
			ptr[a+1] = len(col)
		}
	}
	return total, col
}

// addScaled adds n row to cn and t row to ct: gonum's kernels for an
// elastic body's long rows, a loop for a rigid body's three, where their
// calls cost more than the products (2 % of a 1 000-disk deposit's step).
func addScaled(cn, ct []float64, n, t float64, row []float64) {
	if len(row) > 8 {
		floats.AddScaled(cn, n, row)
		floats.AddScaled(ct, t, row)
		return
	}
	cn, ct = cn[:len(row)], ct[:len(row)]
	for i, v := range row {
		cn[i] += n * v
		ct[i] += t * v
	}
}

// fill adds every body's H~_b' C H~_a into W, dense or sparse (the other
// is nil); kept says the sparse W has the last one's pattern.
func (d *Delassus) fill(units []contact.Unit, dense *signorini.Dense, sparse *signorini.BlockSparse, kept bool) {
	m := 2 * len(units)
	d.at = 0
	if !kept {
		d.rows = d.rows[:0]
	}
	for body, touching := range d.touching {
		c := d.comps[body]
		nb := len(c.Eqs)
		if sparse != nil && nb <= 3 && d.fillSmall(units, body, touching, sparse, kept) {
			continue
		}
		if need := 2 * nb * len(touching); cap(d.cols) < need {
			d.cols = make([]float64, need)
		}
		col := func(i int) ([]float64, []float64) {
			buf := d.cols[2*nb*i : 2*nb*(i+1)]
			return buf[:nb], buf[nb:]
		}
		for i, a := range touching {
			cn, ct := col(i)
			clear(cn)
			clear(ct)
			for _, e := range units[a].Entries {
				if e.Body != body {
					continue
				}
				// Column k of C is its row k (C is symmetric): read in
				// memory order, not one cache line per value.
				k := d.pos[body][e.Eq]
				addScaled(cn, ct, e.N, e.T, c.C[k*nb:(k+1)*nb])
			}
		}
		var rows []*[4]float64
		if sparse != nil {
			rows = d.rowsOf(sparse, touching, kept)
		}
		for j, b := range touching {
			for _, e := range units[b].Entries {
				if e.Body != body {
					continue
				}
				k := d.pos[body][e.Eq]
				for i, a := range touching {
					// col(i)'s entries k, indexed in place: a closure call
					// per unit pair cost a quarter of the fill.
					cn, ct := d.cols[2*nb*i+k], d.cols[2*nb*i+nb+k]
					w := [4]float64{e.N * cn, e.N * ct, e.T * cn, e.T * ct}
					if dense != nil {
						r0, r1 := (2*b)*m+2*a, (2*b+1)*m+2*a
						dense.Data[r0] += w[0]
						dense.Data[r0+1] += w[1]
						dense.Data[r1] += w[2]
						dense.Data[r1+1] += w[3]
						continue
					}
					blk := rows[j*len(touching)+i]
					blk[0], blk[1], blk[2], blk[3] = blk[0]+w[0], blk[1]+w[1], blk[2]+w[2], blk[3]+w[3]
				}
			}
		}
	}
}

// rowsOf returns the next body's blocks of W, W_ba for b and a in its
// units touching, row b after row b: looked up in w where its pattern is
// new, else those the Build that set the pattern looked up, which a body
// takes in the same order (the look-ups were a sixth of a pile's W).
func (d *Delassus) rowsOf(w *signorini.BlockSparse, touching []int, kept bool) []*[4]float64 {
	k := len(touching)
	start := d.at
	d.at += k * k
	if !kept {
		d.rows = slices.Grow(d.rows, k*k)[:d.at]
		for j, b := range touching {
			w.RowBlocks(b, touching, d.rows[start+j*k:start+(j+1)*k])
		}
	}
	return d.rows[start:d.at]
}

// smallRow is a unit's row on a body of at most three equations, dense
// over them (zero where the unit has no entry), and its columns C h.
type smallRow struct {
	hn, ht, cn, ct [3]float64
}

// columns sets the row's columns C h on a body of nb equations (C its
// compliance, row-major), each summed from zero in the general loop's
// order. On a diagonal C that sum is zero plus the one product that is
// not zero: x + 0 is x whatever the zero's sign, and +0 + -0 is +0, so
// the product alone, added to zero, is the same bits.
func (s *smallRow) columns(C []float64, nb int, diagonal bool) {
	if diagonal {
		for k := range nb {
			v := C[k*nb+k]
			s.cn[k], s.ct[k] = 0+s.hn[k]*v, 0+s.ht[k]*v
		}
		return
	}
	for k := range nb {
		for i, v := range C[k*nb : (k+1)*nb] {
			s.cn[i] += s.hn[k] * v
			s.ct[i] += s.ht[k] * v
		}
	}
}

// fillSmall is fill's work on a body of at most three equations (a rigid
// body, a point mass) into a sparse W, in fixed-size arrays: the general
// loop's index lookups and bounds checks were most of a pile's fill. A
// missing entry adds a zero term, which leaves every sum's bits as the
// general loop's (a sum of nonzero terms is never -0). It reports false,
// having written nothing, where a unit's entries on the body do not come
// in the order of its equations, whose sums the general loop adds in
// another order.
func (d *Delassus) fillSmall(units []contact.Unit, body int, touching []int, w *signorini.BlockSparse, kept bool) bool {
	c, pos := d.comps[body], d.pos[body]
	diagonal := isDiagonal(c.C, len(c.Eqs))
	// Made in place: a row built on the stack and appended was copied,
	// and its product with a diagonal C summed six zeros, together 3 % of
	// a pile's step.
	d.small = reuse.Zeroed(d.small, len(touching))
	for j, a := range touching {
		s := &d.small[j]
		last := -1
		for _, e := range units[a].Entries {
			if e.Body != body {
				continue
			}
			if pos[e.Eq] <= last {
				return false
			}
			last = pos[e.Eq]
			s.hn[last], s.ht[last] = e.N, e.T
		}
		s.columns(c.C, len(c.Eqs), diagonal)
	}
	rows := d.rowsOf(w, touching, kept)
	for j := range touching {
		hn, ht := d.small[j].hn, d.small[j].ht
		for i, blk := range rows[j*len(touching) : (j+1)*len(touching)] {
			cn, ct := &d.small[i].cn, &d.small[i].ct
			w0, w1, w2, w3 := blk[0], blk[1], blk[2], blk[3]
			for k := range 3 {
				w0, w1, w2, w3 = w0+hn[k]*cn[k], w1+hn[k]*ct[k], w2+ht[k]*cn[k], w3+ht[k]*ct[k]
			}
			blk[0], blk[1], blk[2], blk[3] = w0, w1, w2, w3
		}
	}
	return true
}
