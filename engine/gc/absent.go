package gc

import "k8s.io/apimachinery/pkg/types"

// absentCacheSize bounds the absent-owner cache, as upstream (500 entries).
const absentCacheSize = 500

// absentCache remembers owners known not to exist, keyed by namespace and
// UID. When full, the oldest entry is evicted (deterministically, in
// insertion order).
type absentCache struct {
	set   map[absentKey]bool
	order []absentKey
}

type absentKey struct {
	namespace string
	uid       types.UID
}

func newAbsentCache() *absentCache { return &absentCache{set: map[absentKey]bool{}} }

func (c *absentCache) has(k absentKey) bool { return c.set[k] }

func (c *absentCache) add(k absentKey) {
	if c.set[k] {
		return
	}
	if len(c.order) >= absentCacheSize {
		delete(c.set, c.order[0])
		c.order = c.order[1:]
	}
	c.set[k] = true
	c.order = append(c.order, k)
}
