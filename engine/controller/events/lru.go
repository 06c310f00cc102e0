package events

import (
	"maps"
	"slices"
)

// lru is a least-recently-used cache of at most max entries, with the
// semantics of the caches client-go's event correlator keeps its state in
// (k8s.io/utils/lru over groupcache's): get makes an entry the most recent;
// add inserts or replaces one and makes it the most recent, and an insert
// past max drops the least recent entry. Which entries survive decides
// whether an Event is counted, combined or created anew, so the order is
// kept exactly.
//
// The entries form a doubly linked list through indices into nodes, most
// recent first, so that a checkpoint is two flat copies (clone).
type lru[V any] struct {
	// max is the capacity (client-go's maxLruCacheEntries: 4096).
	max int
	// index maps a key to its node.
	index map[string]int32
	// nodes holds the entries; a node removed is put on the free list.
	nodes []lruNode[V]
	// head is the most recent entry, tail the least; -1 when empty.
	head, tail int32
	// free is the first free node, chained through next; -1 when none.
	free int32
}

type lruNode[V any] struct {
	key        string
	val        V
	prev, next int32
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, index: map[string]int32{}, head: -1, tail: -1, free: -1}
}

// len returns the number of entries.
func (c *lru[V]) len() int { return len(c.index) }

// get returns the value of key and makes it the most recent entry.
func (c *lru[V]) get(key string) (V, bool) {
	i, ok := c.index[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.toFront(i)
	return c.nodes[i].val, true
}

// add sets key's value and makes it the most recent entry, dropping the
// least recent one when the cache grows past max.
func (c *lru[V]) add(key string, v V) {
	p, _ := c.upsert(key)
	*p = v
}

// upsert is get followed by add, in one lookup: it makes key the most
// recent entry, inserting it with the zero value when absent (which may
// drop the least recent entry), and returns its value, to be changed in
// place until the next upsert or add (which may move the entries), and
// whether it was there.
func (c *lru[V]) upsert(key string) (*V, bool) {
	if i, ok := c.index[key]; ok {
		c.toFront(i)
		return &c.nodes[i].val, true
	}
	n := lruNode[V]{key: key, prev: -1, next: c.head}
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
	return &c.nodes[i].val, false
}

// removeOldest drops the least recent entry.
func (c *lru[V]) removeOldest() {
	i := c.tail
	c.unlink(i)
	delete(c.index, c.nodes[i].key)
	c.nodes[i] = lruNode[V]{next: c.free}
	c.free = i
}

// toFront makes node i the most recent.
func (c *lru[V]) toFront(i int32) {
	if c.head == i {
		return
	}
	c.unlink(i)
	c.nodes[i].prev, c.nodes[i].next = -1, c.head
	c.nodes[c.head].prev = i
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
}

// unlink takes node i out of the list (its index entry stays).
func (c *lru[V]) unlink(i int32) {
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

// keys returns the keys, most recent first (for tests and statediff).
func (c *lru[V]) keys() []string {
	var out []string
	for i := c.head; i >= 0; i = c.nodes[i].next {
		out = append(out, c.nodes[i].key)
	}
	return out
}

// clone returns an independent copy; copyVal copies a value (nil: values
// are copied as they are, holding nothing changed in place).
func (c *lru[V]) clone(copyVal func(V) V) *lru[V] {
	d := *c
	d.index = maps.Clone(c.index)
	d.nodes = slices.Clone(c.nodes)
	if copyVal != nil {
		for i := c.head; i >= 0; i = c.nodes[i].next {
			d.nodes[i].val = copyVal(c.nodes[i].val)
		}
	}
	return &d
}
