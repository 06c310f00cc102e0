package cow

// SlotTable gives every key set in a map on it a slot, the next free one,
// and keeps it for good. Maps made on one table (NewMapOn) share it: a key
// has one slot in all of them, and each map holds its own entries; see
// Map.
type SlotTable[K comparable] struct {
	// of maps a key to its slot.
	of map[K]int
	// keys[slot] is the slot's key: of's inverse. Append-only.
	keys []K
	// last is the slot of the key found or given last (-1, or past keys
	// in a zero SlotTable: none). A key is usually looked up several
	// times in a row (a write finds the stored object, then stores the
	// new one; a cache reads an entry, then replaces it), and comparing
	// it with keys[last] costs less than hashing it and reading the map's
	// memory again. Slots never change, so last never goes stale. It is
	// written by lookups: a table is used from one goroutine (see Map).
	last int
}

// NewSlotTable returns an empty slot table.
func NewSlotTable[K comparable]() *SlotTable[K] { return &SlotTable[K]{of: map[K]int{}, last: -1} }

// find returns k's slot, if k has one.
func (t *SlotTable[K]) find(k K) (int, bool) {
	if uint(t.last) < uint(len(t.keys)) && t.keys[t.last] == k {
		return t.last, true
	}
	slot, ok := t.of[k]
	if ok {
		t.last = slot
	}
	return slot, ok
}

// slotFor returns k's slot, giving k the next free one if it has none.
func (t *SlotTable[K]) slotFor(k K) int {
	if slot, ok := t.find(k); ok {
		return slot
	}
	slot := len(t.keys)
	t.of[k] = slot
	t.keys = append(t.keys, k)
	t.last = slot
	return slot
}
