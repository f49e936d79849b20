package timestep

import (
	"github.com/fecontact/fecontact/internal/reuse"
	"github.com/fecontact/fecontact/kind"
)

// warmTable is what each unit's last solve left for the next step, by
// the unit's identity. A step's units mostly come in the last solve's
// order (a pile at rest: every step), so a lookup first tries the entry
// after the one found last and hashes only when that is another unit:
// the map a lookup hashed into cost 8 % of a granular step (issue 58).
// The index is built on the first lookup that needs it and kept while
// the table's identities stay those it was built on.
type warmTable struct {
	ids    []kind.ID
	vals   []warmStart
	index  map[kind.ID]int // ids' positions (the last of equal ones), once built
	built  bool            // index is ids'
	unique bool            // ids has no two equal: known once index is built
	next   int             // where the next lookup looks first
}

// get returns the last solve's warm start of unit id (the zero value for
// a new unit).
func (t *warmTable) get(id kind.ID) warmStart {
	if t.unique && t.next < len(t.ids) && t.ids[t.next] == id {
		t.next++
		return t.vals[t.next-1]
	}
	i, ok := t.indexed()[id]
	if !ok {
		return warmStart{}
	}
	t.next = i + 1
	return t.vals[i]
}

// indexed returns the index of ids, built when it is missing.
func (t *warmTable) indexed() map[kind.ID]int {
	if t.built {
		return t.index
	}
	if t.index == nil {
		t.index = make(map[kind.ID]int, len(t.ids))
	}
	clear(t.index) // its buckets kept: a step allocates nothing
	for i, id := range t.ids {
		t.index[id] = i
	}
	t.built, t.unique = true, len(t.index) == len(t.ids)
	return t.index
}

// reset makes the table the solve of units ids, whose values set fills:
// the index is kept when the identities are the same, in the same order.
func (t *warmTable) reset(ids []kind.ID) {
	same := len(ids) == len(t.ids)
	for i := 0; same && i < len(ids); i++ {
		same = ids[i] == t.ids[i]
	}
	if !same {
		t.ids = append(t.ids[:0], ids...)
		t.built, t.unique = false, false
	}
	t.vals = reuse.Zeroed(t.vals, len(ids))
	t.next = 0
}

// set stores unit a's warm start (a its position in reset's ids); of
// equal identities, the last one's is kept, as get finds it.
func (t *warmTable) set(a int, w warmStart) { t.vals[a] = w }

// setSlip sets whether unit a (its position in reset's ids) slid, and
// which way.
func (t *warmTable) setSlip(a int, slid, forward bool) {
	t.vals[a].slid, t.vals[a].forward = slid, forward
}

// setRoll sets the rolling impulse of unit a (its position in reset's
// ids), on the entry get finds for its identity: its own where the
// identities are known to differ, without hashing.
func (t *warmTable) setRoll(a int, roll float64) {
	if !t.built || !t.unique {
		a = t.indexed()[t.ids[a]]
	}
	t.vals[a].roll = roll
}

// entries calls f on each identity and its warm start once.
func (t *warmTable) entries(f func(kind.ID, warmStart)) {
	for id, i := range t.indexed() {
		f(id, t.vals[i])
	}
}
