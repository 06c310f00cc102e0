package apiserver

import (
	"sort"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// table holds the objects of one resource.
type table struct {
	// objs maps "namespace/name" ("name" for cluster-scoped resources) to
	// the stored object. Stored objects are never mutated in place.
	// Copy-on-write (cow.Map): a checkpoint shares it.
	objs *cow.Map[string, Object]
	// sorted holds, in ascending order, every key of objs as of the last
	// keys call, and possibly keys removed since. Snapshot: yes.
	sorted []string
	// sortedSlots[i] is sorted[i]'s slot in objs (cow.Map.SlotOf): keys
	// checks that a key is still there without looking it up (a merge at
	// 10,000 pods looked up 10,000 keys). Snapshot: yes, with sorted.
	// Slots are layout, not state: two servers holding the same objects
	// may number them differently. statediff skips them, for the reason
	// it compares cow.Maps by their entries.
	sortedSlots []int32 `statediff:"skip"`
	// added holds the keys created since the last keys call, unsorted (a
	// key may appear in it and in sorted when it was removed and created
	// again). Snapshot: yes (copied). put merges it into sorted once it
	// holds maxAdded keys plus an eighth of sorted's: the simulation
	// itself reads the informers' caches, not the tables, and a
	// checkpoint copied every pod key ever created (250 kB at 15,600).
	added []string
	// removed counts the removals since the last keys call. Snapshot: yes.
	removed int
}

// maxAdded is the fewest keys added that put merges into the order (see
// table.added).
const maxAdded = 64

// newTable returns an empty table on a slot table of its own: the pods'
// table is the one others share (Server.KeySlots).
func newTable() *table { return &table{objs: cow.NewMap[string, Object]()} }

// objectKey is the storage key of ns/name.
func objectKey(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// keys returns every key of objs in ascending order. After creations and
// removals it merges the sorted new keys into the previous order instead
// of sorting everything again: O(n + k log k) for k changes.
func (t *table) keys() []string {
	if len(t.added) == 0 && t.removed == 0 {
		return t.sorted
	}
	sort.Strings(t.added)
	n := t.objs.Len()
	out, outSlots := make([]string, 0, n), make([]int32, 0, n)
	i, j := 0, 0
	for i < len(t.sorted) || j < len(t.added) {
		var k string
		var slot int
		if j == len(t.added) || (i < len(t.sorted) && t.sorted[i] <= t.added[j]) {
			k, slot, i = t.sorted[i], int(t.sortedSlots[i]), i+1
		} else {
			k, j = t.added[j], j+1
			var ok bool
			if slot, ok = t.objs.SlotOf(k); !ok {
				panic("table key " + k + " was added without a slot")
			}
		}
		if !t.objs.HasSlot(slot) || (len(out) > 0 && out[len(out)-1] == k) {
			continue
		}
		out, outSlots = append(out, k), append(outSlots, int32(slot))
	}
	t.sorted, t.sortedSlots, t.added, t.removed = out, outSlots, t.added[:0], 0
	return t.sorted
}

// each calls fn for every object in namespace ns ("" = all) in key order
// until fn returns false.
func (t *table) each(ns string, fn func(Object) bool) {
	keys := t.keys()
	if ns == "" {
		for _, k := range keys {
			if !fn(t.objs.At(k)) {
				return
			}
		}
		return
	}
	prefix := ns + "/"
	i := sort.SearchStrings(keys, prefix)
	for ; i < len(keys) && strings.HasPrefix(keys[i], prefix); i++ {
		if !fn(t.objs.At(keys[i])) {
			return
		}
	}
}

func (t *table) put(key string, obj Object) {
	if t.objs.Set(key, obj) {
		t.added = append(t.added, key)
		if len(t.added) >= maxAdded+len(t.sorted)/8 {
			t.keys()
		}
	}
}

func (t *table) remove(key string) {
	t.objs.Delete(key)
	t.removed++
}
