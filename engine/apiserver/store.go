package apiserver

import (
	"sort"
	"strings"
)

// table holds the objects of one resource.
type table struct {
	// objs maps "namespace/name" ("name" for cluster-scoped resources) to
	// the stored object. Stored objects are never mutated in place.
	objs map[string]Object
	// sorted holds every key of objs in ascending order when !dirty.
	// Creations and deletions set dirty; updates keep the key set, so they
	// leave it valid.
	sorted []string
	dirty  bool
}

func newTable() *table { return &table{objs: map[string]Object{}} }

// objectKey is the storage key of ns/name.
func objectKey(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func (t *table) keys() []string {
	if t.dirty {
		t.sorted = t.sorted[:0]
		for k := range t.objs {
			t.sorted = append(t.sorted, k)
		}
		sort.Strings(t.sorted)
		t.dirty = false
	}
	return t.sorted
}

// each calls fn for every object in namespace ns ("" = all) in key order.
func (t *table) each(ns string, fn func(Object)) {
	keys := t.keys()
	if ns == "" {
		for _, k := range keys {
			fn(t.objs[k])
		}
		return
	}
	prefix := ns + "/"
	i := sort.SearchStrings(keys, prefix)
	for ; i < len(keys) && strings.HasPrefix(keys[i], prefix); i++ {
		fn(t.objs[keys[i]])
	}
}

func (t *table) put(key string, obj Object) {
	if _, ok := t.objs[key]; !ok {
		t.dirty = true
	}
	t.objs[key] = obj
}

func (t *table) remove(key string) {
	delete(t.objs, key)
	t.dirty = true
}
