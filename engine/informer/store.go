package informer

import (
	"slices"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// entry is one cached object. The sets of the store hold its seq, which
// the entry table maps to it, so an update (which replaces obj, or the
// whole entry by a copy) is seen by all of them without a lookup by key.
type entry struct {
	// owner is the store token the entry was created or copied under. The
	// store writes the entry in place only while owner is its current
	// token; otherwise a checkpoint may hold it and the store writes a copy
	// instead (Store.writable). Snapshot: no (checkpoints share entries).
	owner *cow.Token
	key   string
	// obj is the latest delivered object for key.
	obj apiserver.Object
	// seq orders entries by creation: the store-wide and per-namespace
	// insertion orders are both ascending seq.
	seq uint64
	// indexed[i] holds the values obj yields under the store's i-th
	// indexer (Store.indexNames), as last indexed. Snapshot: yes (with the
	// entry).
	indexed [][]string
	// labelSig and facts are the label signature and classifier answer
	// the entry was last counted under in the store's group summary (unset
	// when the store keeps none); facts are current with obj. Snapshot: yes
	// (with the entry).
	labelSig string
	facts    Facts
}

// orderedSet is a set of entries that remembers insertion order. It holds
// their seqs, and the store's entry table gives the entries (each). Its
// mutators take the store's current token: items and pos copy themselves
// by chunk before a write under a new one (a checkpoint shares them; see
// seqTable).
type orderedSet struct {
	// pos maps the seq of a live entry to 1 + its index in items (0 for
	// a seq not in the set): a lookup is two loads, and a checkpoint
	// shares the chunks.
	pos seqTable[uint32]
	// items maps the positions 0 to n-1 of the order to the seqs of live
	// entries, 0 for tombstones (no entry has seq 0): n-live tombstones.
	// A seqTable keyed by position: a run of tombstones as long as a chunk
	// holds no chunk.
	items seqTable[uint64]
	n     int
	// live is the number of entries in the set.
	live int
}

func newOrderedSet(tok *cow.Token) *orderedSet {
	return &orderedSet{pos: seqTable[uint32]{owner: tok}, items: seqTable[uint64]{owner: tok}}
}

// index returns the index of seq q in items, ok false when q is not in s.
func (s *orderedSet) index(q uint64) (i int, ok bool) {
	p := s.pos.get(q)
	return int(p) - 1, p != 0
}

func (s *orderedSet) add(tok *cow.Token, e *entry) {
	if _, ok := s.index(e.seq); ok {
		return
	}
	s.addAbsent(tok, e)
}

// addAbsent is add for an entry the caller knows is not in s (a new entry,
// or one entering the label bucket of a value its object did not have): it
// skips the membership lookup.
func (s *orderedSet) addAbsent(tok *cow.Token, e *entry) {
	s.push(tok, e.seq)
	s.live++
}

func (s *orderedSet) remove(tok *cow.Token, e *entry) {
	i, ok := s.index(e.seq)
	if !ok {
		return
	}
	s.pos.set(tok, e.seq, 0)
	s.items.set(tok, uint64(i), 0)
	s.live--
	s.compact(tok)
}

// moveToEnd moves e to the end of the order, as remove then add would (it
// is added when absent).
func (s *orderedSet) moveToEnd(tok *cow.Token, e *entry) {
	i, ok := s.index(e.seq)
	if !ok {
		s.addAbsent(tok, e)
		return
	}
	if i == s.n-1 {
		return
	}
	s.items.set(tok, uint64(i), 0)
	s.push(tok, e.seq)
	s.compact(tok)
}

// push puts seq q at the end of the order.
func (s *orderedSet) push(tok *cow.Token, q uint64) {
	s.items.set(tok, uint64(s.n), q)
	s.n++
	s.pos.set(tok, q, uint32(s.n))
}

// compact drops the tombstones when they dominate, keeping order: the
// items move to new chunks.
func (s *orderedSet) compact(tok *cow.Token) {
	if s.n > 32 && s.live < s.n/2 {
		old := s.items
		s.items, s.n = seqTable[uint64]{owner: tok}, 0
		old.each(func(q uint64) { s.push(tok, q) })
	}
}

func (s *orderedSet) len() int { return s.live }

// each calls fn for every live entry in insertion order, t being the
// store's entry table.
func (s *orderedSet) each(t *seqTable[*entry], fn func(e *entry)) {
	// Seqs close in a set are usually in one chunk: its lookup is kept.
	var c *seqChunk[*entry]
	ci := ^uint64(0)
	s.items.each(func(q uint64) {
		if i := q >> seqChunkBits; i != ci {
			c, ci = t.chunks[i-t.base], i
		}
		fn(c.vals[q&(seqChunkSize-1)])
	})
}

// IndexFunc returns the index values of an object.
type IndexFunc func(obj apiserver.Object) []string

// Store is an informer's cache of one resource.
type Store struct {
	// objects maps "ns/name" to the entry holding the latest delivered
	// object. A checkpoint shares it (cow.Map).
	objects *cow.Map[string, *entry]
	// entries maps the seq of every entry of objects to it; the sets below
	// hold seqs. Snapshot: yes (copied on write).
	entries seqTable[*entry]
	// order holds exactly the keys of objects, in first-insertion order.
	order *orderedSet
	// byNamespace holds exactly the keys of objects, grouped by namespace.
	byNamespace map[string]*orderedSet
	// indexers are fixed at construction; indices[name][value] holds the
	// keys whose object currently yields value under indexers[name].
	indexers map[string]IndexFunc
	// indexNames holds the names of indexers, sorted; entry.indexed
	// follows this order.
	indexNames []string
	// refOnly[i] is true when the i-th index (indexNames) is one of this
	// package's controller indexes, whose values depend on an object's
	// namespace and controller reference alone (see refOnlyIndex).
	refOnly []bool
	indices map[string]map[string]*orderedSet
	// byLabel maps labelBucket{ns, k, v} to exactly the keys of the
	// cached objects of namespace ns whose label k has value v; empty
	// buckets are deleted. Bucket order carries no meaning: List sorts its
	// hits back into byNamespace order, so a selector List answered from a
	// bucket equals the namespace scan.
	byLabel map[labelBucket]*orderedSet
	// lastAppliedRV is the resourceVersion of the last event applied to the
	// store, whatever its namespace (0 before the first).
	lastAppliedRV uint64
	// nextSeq is the seq of the next entry created; seqs start at 1.
	// Snapshot: yes.
	nextSeq uint64
	// groups is the per-value group summary of one index, nil unless
	// Summarize was called. Snapshot: yes (its counts; the summarized
	// index and classifier are wiring).
	groups *groupSummary
	// token is the store's current owner token, replaced by every
	// checkpoint and restore: entries and sets carrying it are the
	// store's alone and written in place;
	// anything else may be shared with a checkpoint and is copied before
	// it is written (copy-on-write; see cow.go). Never nil. Snapshot: no
	// (each store has its own).
	token *cow.Token
}

// newStore returns an empty store with the given indexes, whose map of
// objects is on the slot table keySlots (nil: a table of its own).
func newStore(indexers map[string]IndexFunc, keySlots *cow.SlotTable[string]) *Store {
	tok := cow.NewToken()
	s := &Store{
		objects:     cow.NewMapOn[string, *entry](keySlots),
		order:       newOrderedSet(tok),
		byNamespace: map[string]*orderedSet{},
		indexers:    indexers,
		indices:     map[string]map[string]*orderedSet{},
		byLabel:     map[labelBucket]*orderedSet{},
		nextSeq:     1,
		token:       tok,
		entries:     seqTable[*entry]{owner: tok},
	}
	for name := range indexers {
		s.indices[name] = map[string]*orderedSet{}
		s.indexNames = append(s.indexNames, name)
	}
	sort.Strings(s.indexNames)
	for _, name := range s.indexNames {
		s.refOnly = append(s.refOnly, refOnlyIndex(indexers[name]))
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
	return s.putKey(KeyOf(obj), obj)
}

// putKey is put with obj's key (KeyOf) already computed.
func (s *Store) putKey(key string, obj apiserver.Object) (old apiserver.Object) {
	e := s.objects.At(key)
	if e != nil {
		e = s.writable(e)
		old = e.obj
		was := e.counted()
		var prevVals []string
		if s.groups != nil {
			prevVals = e.indexed[s.groups.index]
		}
		e.obj = obj
		if s.relabel(e, obj.GetNamespace(), old.GetLabels(), obj.GetLabels()) && s.groups != nil {
			e.labelSig = labelSignature(obj.GetLabels())
		}
		s.reindex(e, old)
		s.regroup(e, prevVals, was)
		return old
	}
	e = &entry{owner: s.token, key: key, obj: obj, seq: s.nextSeq}
	s.nextSeq++
	s.relabel(e, obj.GetNamespace(), nil, obj.GetLabels())
	if s.groups != nil {
		e.labelSig = labelSignature(obj.GetLabels())
	}
	s.objects.Set(key, e)
	s.entries.set(s.token, e.seq, e)
	s.order.addAbsent(s.token, e)
	ns := s.byNamespace[obj.GetNamespace()]
	if ns == nil {
		ns = newOrderedSet(s.token)
		s.byNamespace[obj.GetNamespace()] = ns
	}
	ns.addAbsent(s.token, e)
	s.index(e)
	s.count(e)
	return nil
}

func (s *Store) remove(key string) (old apiserver.Object) {
	e := s.objects.At(key)
	if e == nil {
		return nil
	}
	old = e.obj
	s.uncount(e)
	s.unindex(e)
	s.relabel(e, old.GetNamespace(), old.GetLabels(), nil)
	s.objects.Delete(key)
	s.entries.set(s.token, e.seq, nil)
	s.order.remove(s.token, e)
	if ns := s.byNamespace[old.GetNamespace()]; ns != nil {
		ns.remove(s.token, e)
	}
	return old
}

// index adds e to the index sets of its object and remembers the values.
// An update re-adds an entry its unindex just removed, so it moves to the
// end of those sets.
func (s *Store) index(e *entry) {
	if e.indexed == nil && len(s.indexNames) > 0 {
		e.indexed = make([][]string, len(s.indexNames))
	}
	for i, name := range s.indexNames {
		vals := s.indexers[name](e.obj)
		e.indexed[i] = vals
		s.indexOne(name, vals, e)
	}
}

// indexOne adds e to the sets of index name for vals.
func (s *Store) indexOne(name string, vals []string, e *entry) {
	for _, v := range vals {
		set := s.indices[name][v]
		if set == nil {
			set = newOrderedSet(s.token)
			s.indices[name][v] = set
		}
		set.add(s.token, e)
	}
}

// reindex moves e, whose object old was replaced, to the index sets of its
// new object, with the result of unindex then index: at the end of every
// set it lands in, including the sets it was already in.
func (s *Store) reindex(e *entry, old apiserver.Object) {
	for i, name := range s.indexNames {
		var vals []string
		// A controller index keeps its values when the controller
		// reference stays: they are not recomputed.
		kept := s.refOnly[i] && sameControllerInputs(old, e.obj)
		if !kept {
			vals = s.indexers[name](e.obj)
		}
		if kept || slices.Equal(e.indexed[i], vals) {
			// The usual update: same sets, one map write each.
			for _, v := range e.indexed[i] {
				s.indices[name][v].moveToEnd(s.token, e)
			}
			continue
		}
		s.unindexOne(i, name, e)
		e.indexed[i] = vals
		s.indexOne(name, vals, e)
	}
}

// unindex removes e from the index sets its object was last indexed in.
func (s *Store) unindex(e *entry) {
	for i, name := range s.indexNames {
		s.unindexOne(i, name, e)
	}
}

// unindexOne removes e from the sets of the i-th index (name) it was last
// indexed in; emptied sets are dropped.
func (s *Store) unindexOne(i int, name string, e *entry) {
	for _, v := range e.indexed[i] {
		if set := s.indices[name][v]; set != nil {
			set.remove(s.token, e)
			if set.len() == 0 {
				delete(s.indices[name], v)
			}
		}
	}
}

// Get returns the cached object for key, or nil.
func (s *Store) Get(key string) apiserver.Object {
	if e := s.objects.At(key); e != nil {
		return e.obj
	}
	return nil
}

// Lookup returns the cached object named ns/name ("name" when ns is "")
// and the store's key string for it, ok false when none is cached. The
// key is built only for the lookup (on the stack when short), so a caller
// that keeps a key, as a queue does, keeps the store's string instead of a
// new copy.
func (s *Store) Lookup(ns, name string) (obj apiserver.Object, key string, ok bool) {
	var e *entry
	if ns == "" {
		e = s.objects.At(name)
	} else {
		e = s.objects.At(ns + "/" + name)
	}
	if e == nil {
		return nil, "", false
	}
	return e.obj, e.key, true
}

// Len returns the number of cached objects.
func (s *Store) Len() int { return s.objects.Len() }

// List returns the cached objects in namespace ns ("" for all) matching sel
// (nil matches everything), in insertion order. Within a namespace, a
// selector with a single-valued equality requirement only visits the
// objects carrying that label.
func (s *Store) List(ns string, sel labels.Selector) []apiserver.Object {
	if ns != "" && sel != nil {
		if bucket, ok := s.narrowest(ns, sel); ok {
			return s.listFromBucket(bucket, sel)
		}
	}
	var out []apiserver.Object
	visit := func(e *entry) {
		if sel == nil || sel.Matches(labels.Set(e.obj.GetLabels())) {
			out = append(out, e.obj)
		}
	}
	if ns == "" {
		s.order.each(&s.entries, visit)
	} else if set := s.byNamespace[ns]; set != nil {
		set.each(&s.entries, visit)
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
	set.each(&s.entries, func(e *entry) { out = append(out, e.obj) })
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
		set.each(&s.entries, func(e *entry) { fn(e.obj) })
	}
}

// Keys returns all cached keys, sorted (for views and tests).
func (s *Store) Keys() []string {
	keys := make([]string, 0, s.objects.Len())
	s.objects.Range(func(k string, _ *entry) bool {
		keys = append(keys, k)
		return true
	})
	sort.Strings(keys)
	return keys
}

// LastAppliedRV is the resourceVersion of the last event applied to the
// store in any namespace, "" before the first. The stale-cache gate compares
// written versions against it.
func (s *Store) LastAppliedRV() string {
	if s.lastAppliedRV == 0 {
		return ""
	}
	return strconv.FormatUint(s.lastAppliedRV, 10)
}
