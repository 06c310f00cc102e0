package events

import (
	"maps"
	"slices"
)

// lru is the key side of a least-recently-used cache of at most max
// entries, with the semantics of the caches client-go's event correlator
// keeps its state in (k8s.io/utils/lru over groupcache's): a lookup makes
// an entry the most recent; an insert past max drops the least recent
// entry. Which entries survive decides whether an Event is counted,
// combined or created anew, so the order is kept exactly.
//
// lru gives each key a slot; the values live in the caller's slice at that
// slot (cache). A slot freed by a drop is given to the next key inserted.
// The entries form a doubly linked list through slots, most recent first,
// so that a checkpoint is flat copies (clone).
type lru struct {
	// max is the capacity (client-go's maxLruCacheEntries: 4096).
	max int
	// index maps a key to its slot.
	index map[string]int32
	// nodes[slot] links the entry of that slot; a slot dropped is put on
	// the free list.
	nodes []lruNode
	// head is the most recent entry, tail the least; -1 when empty.
	head, tail int32
	// free is the first free slot, chained through next; -1 when none.
	free int32
}

type lruNode struct {
	key        string
	prev, next int32
}

func newLRU(max int) lru {
	return lru{max: max, index: map[string]int32{}, head: -1, tail: -1, free: -1}
}

// upsert makes key the most recent entry, inserting it when absent (which
// may drop the least recent entry), and returns its slot and whether it
// was there: client-go's Get followed by Add, in one lookup.
func (c *lru) upsert(key string) (slot int32, found bool) {
	if i, ok := c.index[key]; ok {
		c.toFront(i)
		return i, true
	}
	n := lruNode{key: key, prev: -1, next: c.head}
	var i int32
	if c.free >= 0 {
		i, c.free = c.free, c.nodes[c.free].next
		c.nodes[i] = n
	} else {
		i = int32(len(c.nodes))
		c.nodes = append(c.nodes, n)
	}
	if c.head >= 0 {
		c.nodes[c.head].prev = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
	c.index[key] = i
	if len(c.index) > c.max {
		c.removeOldest()
	}
	return i, false
}

// removeOldest drops the least recent entry.
func (c *lru) removeOldest() {
	i := c.tail
	c.unlink(i)
	delete(c.index, c.nodes[i].key)
	c.nodes[i] = lruNode{next: c.free}
	c.free = i
}

// toFront makes slot i the most recent.
func (c *lru) toFront(i int32) {
	if c.head == i {
		return
	}
	c.unlink(i)
	c.nodes[i].prev, c.nodes[i].next = -1, c.head
	c.nodes[c.head].prev = i
	c.head = i
}

// unlink takes slot i out of the list (its index entry stays).
func (c *lru) unlink(i int32) {
	n := &c.nodes[i]
	if n.prev >= 0 {
		c.nodes[n.prev].next = n.next
	} else {
		c.head = n.next
	}
	if n.next >= 0 {
		c.nodes[n.next].prev = n.prev
	} else {
		c.tail = n.prev
	}
}

// clone returns an independent copy.
func (c *lru) clone() lru {
	d := *c
	d.index = maps.Clone(c.index)
	d.nodes = slices.Clone(c.nodes)
	return d
}

// cache is an lru with its values.
type cache[V any] struct {
	keys lru
	// vals[slot] is the value of the key in that slot.
	vals []V
}

func newCache[V any](max int) cache[V] { return cache[V]{keys: newLRU(max)} }

// upsert is lru.upsert, returning the value to be read and changed in
// place (a key inserted starts from the zero value) until the next upsert
// on the cache.
func (c *cache[V]) upsert(key string) (*V, bool) {
	slot, found := c.keys.upsert(key)
	if int(slot) == len(c.vals) {
		var zero V
		c.vals = append(c.vals, zero)
	} else if !found {
		var zero V
		c.vals[slot] = zero
	}
	return &c.vals[slot], found
}

// clone returns an independent copy; copyVal copies a value (nil: values
// are copied as they are, holding nothing changed in place).
func (c *cache[V]) clone(copyVal func(V) V) cache[V] {
	d := cache[V]{keys: c.keys.clone(), vals: slices.Clone(c.vals)}
	if copyVal != nil {
		for _, slot := range c.keys.index {
			d.vals[slot] = copyVal(c.vals[slot])
		}
	}
	return d
}
