package cow

import (
	"math/bits"
	"slices"
)

// Map is a map whose snapshot costs a copy of a short header, not of its
// entries: what a component keeps per object (stored objects, pod states,
// cache entries, graph nodes) in a map that a checkpoint would otherwise
// clone whole.
//
// Every key gets a slot the first time it is set, and keeps it for good,
// in this map, in every map restored from its snapshots and in every map
// made on the same SlotTable (the table is shared by all of them and only
// grows). The values live in chunks of chunkSize slots. A snapshot shares
// the chunks and the map takes a new token, so it copies a chunk before
// its first write after the snapshot: a snapshot holds the chunk headers
// (8 bytes per chunkSize slots) plus the chunks written since the snapshot
// before it. A restore likewise shares the snapshot's chunks under a new
// token, so a snapshot can be restored any number of times, by any map.
//
// Slots follow the keys' first insertion, so objects made together share
// chunks and are usually changed together (a ReplicaSet's pods are
// created, become ready and are deleted in batches): a snapshot taken
// after a few hundred changes copies far fewer chunks than entries.
//
// Range visits the entries in slot order. Slots follow the order in which
// keys were first set in any run that shared the slot table (a rewind that
// then took another path included), so callers must not let that order
// show: use Range to aggregate, or sort.
//
// Maps may share one slot table (SlotTable, NewMapOn): maps over one key
// space that are looked up one after another with the same key (the
// server's table of pods, the pod informer's cache, the kubelet's pod
// states) then find the key's slot where the first lookup left it in the
// CPU's cache. In BenchmarkRollingUpdateRatio's 10,000-replica rollout,
// where a pod's key is looked up in three maps of up to 20,000 keys,
// sharing their table (and keeping the slots of a sorted key order, see
// apiserver's table) took the median from 409-447 ms to 394-403 ms in
// three runs alternating with the build before. A map on a shared table
// holds a chunk header for every chunkSize slots up to its highest one,
// whatever its own size, and every snapshot copies them: a small map (the
// ReplicaSets, one owner's dependents) belongs on a table of its own, or a
// table of 35,000 keys costs it 9 kB per snapshot.
//
// The zero Map is not usable: make one with NewMap or NewMapOn. A nil
// *Map reads as empty (Len, Get, At, Has, Range) and Delete does nothing
// on it.
//
// The slot table only grows: a key deleted keeps its slot (a table entry
// of about 40 bytes and its string) for as long as any map or snapshot
// sharing the table lives, keys of a future abandoned by a rewind
// included. The session's step limit bounds the keys a run can set. The
// table is written by every map that shares it, by lookups too (it
// remembers the key found last, see SlotTable), so maps and snapshots
// sharing one (a session and its forks, which share checkpoints) must be
// used from one goroutine, as the engine is, reads included.
type Map[K comparable, V any] struct {
	// slots is the key -> slot table shared with every snapshot, every
	// map restored from one and every map made on the same table.
	// Append-only.
	slots *SlotTable[K]
	// chunks[i] holds slots [i*chunkSize, (i+1)*chunkSize); nil when none
	// of them holds an entry. Chunks not owned by tok are shared with a
	// snapshot and are copied before they are written.
	chunks []*chunk[V]
	// n is the number of entries.
	n int
	// tok is the map's current epoch (see Token).
	tok *Token
}

// chunkSize is the number of slots per chunk: a write after a snapshot
// copies chunkSize values (512 bytes of interface values), and a snapshot
// holds one pointer per chunkSize slots.
const chunkSize = 32

type chunk[V any] struct {
	// owner is the token of the map that made or copied the chunk; any
	// other map copies it before writing it.
	owner *Token
	// live has bit i set when vals[i] holds an entry.
	live uint32
	vals [chunkSize]V
}

// NewMap returns an empty map with a slot table of its own.
func NewMap[K comparable, V any]() *Map[K, V] { return NewMapOn[K, V](NewSlotTable[K]()) }

// NewMapOn returns an empty map on the slot table t, which it shares with
// every other map made on it (nil: a table of its own).
func NewMapOn[K comparable, V any](t *SlotTable[K]) *Map[K, V] {
	if t == nil {
		t = NewSlotTable[K]()
	}
	return &Map[K, V]{slots: t, tok: NewToken()}
}

// SlotTable returns the slot table the map is on now: the one it was made
// on, or the one of the snapshot it last restored.
func (m *Map[K, V]) SlotTable() *SlotTable[K] { return m.slots }

// Len returns the number of entries.
func (m *Map[K, V]) Len() int {
	if m == nil {
		return 0
	}
	return m.n
}

// Get returns the value stored under k, if any.
func (m *Map[K, V]) Get(k K) (V, bool) {
	var zero V
	if m == nil {
		return zero, false
	}
	slot, ok := m.slots.find(k)
	if !ok {
		return zero, false
	}
	return m.valueIn(slot)
}

// chunkOf returns the chunk holding slot's entry, nil when the slot holds
// none.
func (m *Map[K, V]) chunkOf(slot int) *chunk[V] {
	ci := slot / chunkSize
	if ci >= len(m.chunks) {
		return nil
	}
	c := m.chunks[ci]
	if c == nil || c.live&(1<<(slot%chunkSize)) == 0 {
		return nil
	}
	return c
}

// SlotOf returns k's slot in the map's slot table, if k has one: k was
// set in this map, or in another on the same table, at some time.
func (m *Map[K, V]) SlotOf(k K) (int, bool) {
	if m == nil {
		return 0, false
	}
	return m.slots.find(k)
}

// HasSlot reports whether the map holds an entry in slot (SlotOf): Has
// without looking the key up, for a caller that keeps many keys' slots.
// The slot must come from the table the map is on now: restoring a
// snapshot made on another table (as a fork does when it restores the
// original's checkpoint) changes the map's table, and the slots kept must
// be restored with it.
func (m *Map[K, V]) HasSlot(slot int) bool { return m != nil && m.chunkOf(slot) != nil }

// GetSlot returns the value stored in slot (SlotOf), if any: Get without
// looking the key up. The slot must come from the table the map is on now
// (see HasSlot). When the slot holds an entry it becomes the table's
// last one found (see SlotTable), so the next lookup of its key, in any
// map on the table, costs a comparison.
func (m *Map[K, V]) GetSlot(slot int) (V, bool) {
	if m == nil {
		var zero V
		return zero, false
	}
	v, ok := m.valueIn(slot)
	if ok {
		m.slots.last = slot
	}
	return v, ok
}

// valueIn returns the value stored in slot, if any.
func (m *Map[K, V]) valueIn(slot int) (V, bool) {
	c := m.chunkOf(slot)
	if c == nil {
		var zero V
		return zero, false
	}
	return c.vals[slot%chunkSize], true
}

// At returns the value stored under k, or the zero value.
func (m *Map[K, V]) At(k K) V {
	v, _ := m.Get(k)
	return v
}

// Has reports whether k has an entry.
func (m *Map[K, V]) Has(k K) bool {
	_, ok := m.Get(k)
	return ok
}

// Set stores v under k and reports whether k had no entry.
func (m *Map[K, V]) Set(k K, v V) (added bool) {
	slot := m.slots.slotFor(k)
	c := m.writable(slot/chunkSize, true)
	bit := uint32(1) << (slot % chunkSize)
	if c.live&bit == 0 {
		c.live |= bit
		m.n++
		added = true
	}
	c.vals[slot%chunkSize] = v
	return added
}

// Delete removes k's entry, if any (nothing, on a nil map).
func (m *Map[K, V]) Delete(k K) {
	if m == nil {
		return
	}
	slot, ok := m.slots.find(k)
	if !ok {
		return
	}
	c := m.chunkOf(slot)
	if c == nil {
		return
	}
	m.n--
	ci, bit := slot/chunkSize, uint32(1)<<(slot%chunkSize)
	if c.live == bit {
		// Its last entry: the chunk goes, shared or not.
		m.chunks[ci] = nil
		return
	}
	c = m.writable(ci, false)
	c.live &^= bit
	var zero V
	c.vals[slot%chunkSize] = zero
}

// writable returns chunk ci owned by the map, copying it if a snapshot
// may share it, or making it (create) when there is none.
func (m *Map[K, V]) writable(ci int, create bool) *chunk[V] {
	if ci >= len(m.chunks) {
		m.chunks = append(m.chunks, make([]*chunk[V], ci+1-len(m.chunks))...)
	}
	c := m.chunks[ci]
	switch {
	case c == nil && create:
		c = &chunk[V]{owner: m.tok}
		m.chunks[ci] = c
	case c != nil && c.owner != m.tok:
		cp := *c
		cp.owner = m.tok
		c = &cp
		m.chunks[ci] = c
	}
	return c
}

// Range calls fn for every entry in slot order (see Map) until fn returns
// false. fn must not change the map.
func (m *Map[K, V]) Range(fn func(K, V) bool) {
	if m == nil {
		return
	}
	for ci, c := range m.chunks {
		if c == nil {
			continue
		}
		for live := c.live; live != 0; live &= live - 1 {
			i := bits.TrailingZeros32(live)
			if !fn(m.slots.keys[ci*chunkSize+i], c.vals[i]) {
				return
			}
		}
	}
}

// MapSnapshot is a Map as it was: see Map.Snapshot.
type MapSnapshot[K comparable, V any] struct {
	slots  *SlotTable[K]
	chunks []*chunk[V]
	n      int
}

// Len returns the number of entries the map had.
func (s MapSnapshot[K, V]) Len() int { return s.n }

// Snapshot saves the map: a copy of its chunk headers. The map copies each
// chunk before it next writes it.
func (m *Map[K, V]) Snapshot() MapSnapshot[K, V] {
	m.tok = NewToken()
	return MapSnapshot[K, V]{slots: m.slots, chunks: slices.Clone(m.chunks), n: m.n}
}

// Restore makes the map hold the snapshot's entries. The snapshot stays
// usable.
func (m *Map[K, V]) Restore(s MapSnapshot[K, V]) {
	m.slots, m.n, m.tok = s.slots, s.n, NewToken()
	clear(m.chunks[min(len(s.chunks), len(m.chunks)):])
	m.chunks = append(m.chunks[:0], s.chunks...)
}

// Fork returns a map holding the same entries that shares the chunks with
// m until either writes them (a record that holds a Map is copied with its
// map forked). m takes a new token (m may be a map a checkpoint holds;
// its entries do not change).
func (m *Map[K, V]) Fork() *Map[K, V] {
	m.tok = NewToken()
	return &Map[K, V]{slots: m.slots, chunks: slices.Clone(m.chunks), n: m.n, tok: NewToken()}
}

// Get returns the value the map held under k, if any.
func (s MapSnapshot[K, V]) Get(k K) (V, bool) { return s.view().Get(k) }

// Range calls fn for every entry the map held, as Map.Range does.
func (s MapSnapshot[K, V]) Range(fn func(K, V) bool) { s.view().Range(fn) }

// view is a Map over the snapshot's chunks, for reading (which still
// writes the slot table's last key found).
func (s MapSnapshot[K, V]) view() *Map[K, V] {
	return &Map[K, V]{slots: s.slots, chunks: s.chunks, n: s.n}
}

// At returns the value the map held under k, or the zero value.
func (s MapSnapshot[K, V]) At(k K) V { return s.view().At(k) }

// Contents returns the entries as a Go map[K]V (nil when m is nil), for
// tests that compare states by what they hold: two maps with the same
// entries may lay them out in different slots.
func (m *Map[K, V]) Contents() any {
	if m == nil {
		return map[K]V(nil)
	}
	out := make(map[K]V, m.n)
	m.Range(func(k K, v V) bool {
		out[k] = v
		return true
	})
	return out
}

// ChangedSince counts the entries of s that prev does not hold with the
// same value (==): a new key, or another value under the key. The chunks
// the two share are skipped, so it costs the chunks written between them.
func ChangedSince[K comparable, V comparable](s, prev MapSnapshot[K, V]) int {
	if s.slots != prev.slots {
		// Unrelated layouts: look every key up.
		n := 0
		s.Range(func(k K, v V) bool {
			if old, ok := prev.Get(k); !ok || old != v {
				n++
			}
			return true
		})
		return n
	}
	n := 0
	for ci, c := range s.chunks {
		if c == nil {
			continue
		}
		var p *chunk[V]
		if ci < len(prev.chunks) {
			p = prev.chunks[ci]
		}
		if p == c {
			continue
		}
		for live := c.live; live != 0; live &= live - 1 {
			i := bits.TrailingZeros32(live)
			if p == nil || p.live&(1<<i) == 0 || p.vals[i] != c.vals[i] {
				n++
			}
		}
	}
	return n
}
