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
}

// NewSlotTable returns an empty slot table.
func NewSlotTable[K comparable]() *SlotTable[K] { return &SlotTable[K]{of: map[K]int{}} }
