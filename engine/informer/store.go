package informer

import (
	"sort"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// orderedSet is a set of keys that remembers insertion order.
type orderedSet struct {
	// pos maps a live key to its index in keys.
	pos map[string]int
	// keys holds live keys and "" tombstones; len(keys)-len(pos) tombstones.
	keys []string
}

func newOrderedSet() *orderedSet { return &orderedSet{pos: map[string]int{}} }

func (s *orderedSet) add(k string) {
	if _, ok := s.pos[k]; ok {
		return
	}
	s.pos[k] = len(s.keys)
	s.keys = append(s.keys, k)
}

func (s *orderedSet) remove(k string) {
	i, ok := s.pos[k]
	if !ok {
		return
	}
	delete(s.pos, k)
	s.keys[i] = ""
	// Compact when tombstones dominate, keeping order.
	if len(s.keys) > 32 && len(s.pos) < len(s.keys)/2 {
		live := s.keys[:0]
		for _, key := range s.keys {
			if key != "" {
				s.pos[key] = len(live)
				live = append(live, key)
			}
		}
		s.keys = live
	}
}

func (s *orderedSet) len() int { return len(s.pos) }

// each calls fn for every live key in insertion order.
func (s *orderedSet) each(fn func(k string)) {
	for _, k := range s.keys {
		if k != "" {
			fn(k)
		}
	}
}

// IndexFunc returns the index values of an object.
type IndexFunc func(obj apiserver.Object) []string

// Store is an informer's cache of one resource.
type Store struct {
	// objects maps "ns/name" to the latest delivered object.
	objects map[string]apiserver.Object
	// order holds exactly the keys of objects, in first-insertion order.
	order *orderedSet
	// byNamespace holds exactly the keys of objects, grouped by namespace.
	byNamespace map[string]*orderedSet
	// indexers are fixed at construction; indices[name][value] holds the
	// keys whose object currently yields value under indexers[name].
	indexers map[string]IndexFunc
	indices  map[string]map[string]*orderedSet
	// byLabel maps labelBucketKey(ns, k, v) to exactly the keys of the
	// cached objects of namespace ns whose label k has value v; empty
	// buckets are deleted. Bucket order carries no meaning: List sorts its
	// hits back into byNamespace order, so a selector List answered from a
	// bucket equals the namespace scan.
	byLabel map[string]*orderedSet
	// lastAppliedRV is the resourceVersion of the last event applied to the
	// store, whatever its namespace ("" before the first).
	lastAppliedRV string
}

func newStore(indexers map[string]IndexFunc) *Store {
	s := &Store{
		objects:     map[string]apiserver.Object{},
		order:       newOrderedSet(),
		byNamespace: map[string]*orderedSet{},
		indexers:    indexers,
		indices:     map[string]map[string]*orderedSet{},
		byLabel:     map[string]*orderedSet{},
	}
	for name := range indexers {
		s.indices[name] = map[string]*orderedSet{}
	}
	return s
}

// KeyOf returns the cache key "namespace/name" (or "name" when cluster-scoped).
func KeyOf(obj apiserver.Object) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}

func (s *Store) put(obj apiserver.Object) (old apiserver.Object) {
	key := KeyOf(obj)
	old = s.objects[key]
	var oldLabels map[string]string
	if old != nil {
		s.unindex(key, old)
		oldLabels = old.GetLabels()
	}
	s.relabel(key, obj.GetNamespace(), oldLabels, obj.GetLabels())
	s.objects[key] = obj
	s.order.add(key)
	ns := s.byNamespace[obj.GetNamespace()]
	if ns == nil {
		ns = newOrderedSet()
		s.byNamespace[obj.GetNamespace()] = ns
	}
	ns.add(key)
	s.index(key, obj)
	return old
}

func (s *Store) remove(key string) (old apiserver.Object) {
	old = s.objects[key]
	if old == nil {
		return nil
	}
	s.unindex(key, old)
	s.relabel(key, old.GetNamespace(), old.GetLabels(), nil)
	delete(s.objects, key)
	s.order.remove(key)
	if ns := s.byNamespace[old.GetNamespace()]; ns != nil {
		ns.remove(key)
	}
	return old
}

func (s *Store) index(key string, obj apiserver.Object) {
	for name, fn := range s.indexers {
		for _, v := range fn(obj) {
			set := s.indices[name][v]
			if set == nil {
				set = newOrderedSet()
				s.indices[name][v] = set
			}
			set.add(key)
		}
	}
}

func (s *Store) unindex(key string, obj apiserver.Object) {
	for name, fn := range s.indexers {
		for _, v := range fn(obj) {
			if set := s.indices[name][v]; set != nil {
				set.remove(key)
				if set.len() == 0 {
					delete(s.indices[name], v)
				}
			}
		}
	}
}

// Get returns the cached object for key, or nil.
func (s *Store) Get(key string) apiserver.Object { return s.objects[key] }

// Len returns the number of cached objects.
func (s *Store) Len() int { return len(s.objects) }

// List returns the cached objects in namespace ns ("" for all) matching sel
// (nil matches everything), in insertion order. Within a namespace, a
// selector with a single-valued equality requirement only visits the
// objects carrying that label.
func (s *Store) List(ns string, sel labels.Selector) []apiserver.Object {
	if ns != "" && sel != nil {
		if bucket, ok := s.narrowest(ns, sel); ok {
			return s.listFromBucket(ns, bucket, sel)
		}
	}
	var out []apiserver.Object
	visit := func(k string) {
		obj := s.objects[k]
		if sel == nil || sel.Matches(labels.Set(obj.GetLabels())) {
			out = append(out, obj)
		}
	}
	if ns == "" {
		s.order.each(visit)
	} else if set := s.byNamespace[ns]; set != nil {
		set.each(visit)
	}
	return out
}

// ByIndex returns the objects whose index name yields value, in insertion
// order.
func (s *Store) ByIndex(name, value string) []apiserver.Object {
	set := s.indices[name][value]
	if set == nil {
		return nil
	}
	out := make([]apiserver.Object, 0, set.len())
	set.each(func(k string) { out = append(out, s.objects[k]) })
	return out
}

// CountByIndex returns len(ByIndex(name, value)) without building it.
func (s *Store) CountByIndex(name, value string) int {
	if set := s.indices[name][value]; set != nil {
		return set.len()
	}
	return 0
}

// EachByIndex calls fn for every object ByIndex(name, value) would return,
// in the same order, without building the slice. fn must not modify the
// store.
func (s *Store) EachByIndex(name, value string, fn func(obj apiserver.Object)) {
	if set := s.indices[name][value]; set != nil {
		set.each(func(k string) { fn(s.objects[k]) })
	}
}

// Keys returns all cached keys, sorted (for views and tests).
func (s *Store) Keys() []string {
	keys := make([]string, 0, len(s.objects))
	for k := range s.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// LastAppliedRV is the resourceVersion of the last event applied to the
// store in any namespace, "" before the first. The stale-cache gate compares
// written versions against it.
func (s *Store) LastAppliedRV() string { return s.lastAppliedRV }
