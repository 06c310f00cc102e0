package informer

import (
	"slices"
)

// Checkpoint is an informer's whole mutable state at one moment: its
// configuration (the lag can change), its position in the watch log, the
// events observed and not yet delivered, the delivery count and the cache
// with every index. Handlers are wiring set once at construction and are
// not part of it; the fault stream belongs to the simulation, which
// checkpoints it.
type Checkpoint struct {
	cfg       Config
	cursor    int
	pending   []pendingEvent
	head      int
	delivered int
	store     storeCheckpoint
}

// storeCheckpoint is a Store's contents and indexes. The live cache
// entries change in place on every update, so it cannot share them: it
// keeps each entry's value (the cached objects themselves are the API
// server's immutable objects, shared) and each set as the keys of its
// items, which restore turns back into the live entries of those keys.
type storeCheckpoint struct {
	// entries holds a copy of every entry by key, never changed and never
	// handed to the live store (restore copies out of it), so a checkpoint
	// taken after another shares the copies of the entries that did not
	// change in between (CheckpointAfter).
	entries       map[string]*entry
	order         setCheckpoint
	byNamespace   map[string]setCheckpoint
	indices       map[string]map[string]setCheckpoint
	byLabel       map[labelBucket]setCheckpoint
	lastAppliedRV uint64
	nextSeq       uint64
	// groups is the group summary's byValue (nil when the store kept none
	// at checkpoint time).
	groups map[string][]group
}

// setCheckpoint is an orderedSet with its items named by key ("" for a
// tombstone). The positions are not saved: they follow from the order of
// keys, and restore writes them back.
type setCheckpoint struct {
	keys []string
}

// Checkpoint saves the informer's state.
func (i *Informer) Checkpoint() *Checkpoint { return i.CheckpointAfter(nil) }

// CheckpointAfter saves the informer's state, sharing with prev (an
// earlier checkpoint of this informer, or nil) the saved cache entries
// equal to its own.
func (i *Informer) CheckpointAfter(prev *Checkpoint) *Checkpoint {
	var before map[string]*entry
	if prev != nil {
		before = prev.store.entries
	}
	return &Checkpoint{
		cfg:       i.cfg,
		cursor:    i.cursor,
		pending:   slices.Clone(i.pending),
		head:      i.head,
		delivered: i.delivered,
		store:     i.store.checkpoint(before),
	}
}

// Restore puts the informer back in the saved state; the checkpoint can be
// restored again.
func (i *Informer) Restore(cp *Checkpoint) {
	i.cfg = cp.cfg
	i.cursor = cp.cursor
	i.pending, i.head = slices.Clone(cp.pending), cp.head
	i.delivered = cp.delivered
	i.store.restore(&cp.store)
}

func (s *Store) checkpoint(before map[string]*entry) storeCheckpoint {
	cp := storeCheckpoint{
		entries:       make(map[string]*entry, len(s.objects)),
		order:         s.order.checkpoint(),
		byNamespace:   checkpointSets(s.byNamespace),
		indices:       make(map[string]map[string]setCheckpoint, len(s.indices)),
		byLabel:       checkpointSets(s.byLabel),
		lastAppliedRV: s.lastAppliedRV,
		nextSeq:       s.nextSeq,
		groups:        s.groups.checkpoint(),
	}
	// Each copy is its own allocation (a later checkpoint may keep any of
	// them), its indexed slice copied too: an entry writes its own slice
	// in place when re-indexed.
	for k, e := range s.objects {
		if old := before[k]; old != nil && old.equals(e) {
			cp.entries[k] = old
			continue
		}
		saved := *e
		saved.indexed = slices.Clone(e.indexed)
		cp.entries[k] = &saved
	}
	for name, sets := range s.indices {
		cp.indices[name] = checkpointSets(sets)
	}
	return cp
}

// restore copies cp into s (indexers are configuration, kept), reusing the
// live entries, maps and sets: an entry whose key is cached in both is
// overwritten with the saved value, and every set is rebuilt to hold the
// live entries of its saved keys.
func (s *Store) restore(cp *storeCheckpoint) {
	for k := range s.objects {
		if _, ok := cp.entries[k]; !ok {
			delete(s.objects, k)
		}
	}
	for k, saved := range cp.entries {
		e := s.objects[k]
		if e == nil {
			e = &entry{}
			s.objects[k] = e
		}
		indexed := e.indexed
		*e = *saved
		if len(indexed) == len(saved.indexed) && saved.indexed != nil {
			copy(indexed, saved.indexed)
			e.indexed = indexed
		} else {
			e.indexed = slices.Clone(saved.indexed)
		}
	}
	s.order.restore(cp.order, s.objects)
	s.byNamespace = restoreSets(s.byNamespace, cp.byNamespace, s.objects)
	for name, sets := range cp.indices {
		s.indices[name] = restoreSets(s.indices[name], sets, s.objects)
	}
	s.byLabel = restoreSets(s.byLabel, cp.byLabel, s.objects)
	s.lastAppliedRV = cp.lastAppliedRV
	s.nextSeq = cp.nextSeq
	if s.groups != nil {
		if cp.groups == nil {
			// Saved before Summarize: the entries carry no counts.
			s.groups.byValue = s.recount()
		} else {
			s.groups.restore(cp.groups)
		}
	}
}

func (s *orderedSet) checkpoint() setCheckpoint {
	keys := make([]string, len(s.items))
	for i, e := range s.items {
		if e != nil {
			keys[i] = e.key
		}
	}
	return setCheckpoint{keys: keys}
}

// restore makes s equal to saved, its items the entries of objects: the
// positions of the saved entries are written where they differ, then,
// unless pos holds no more entries than that, every seq whose item is not
// its own (pos[q] is i exactly when items[i] is the entry of seq q) is
// dropped.
func (s *orderedSet) restore(saved setCheckpoint, objects map[string]*entry) {
	clear(s.items)
	s.items = s.items[:0]
	live := 0
	for i, k := range saved.keys {
		var e *entry
		if k != "" {
			e = objects[k]
			live++
			if p, ok := s.pos[e.seq]; !ok || p != i {
				s.pos[e.seq] = i
			}
		}
		s.items = append(s.items, e)
	}
	if len(s.pos) != live {
		for q, i := range s.pos {
			if i >= len(s.items) || s.items[i] == nil || s.items[i].seq != q {
				delete(s.pos, q)
			}
		}
	}
}

// restoreSets makes live equal to saved: sets present in both are
// restored in place, the others created or dropped.
func restoreSets[K comparable](live map[K]*orderedSet, saved map[K]setCheckpoint, objects map[string]*entry) map[K]*orderedSet {
	if live == nil {
		live = make(map[K]*orderedSet, len(saved))
	}
	for k := range live {
		if _, ok := saved[k]; !ok {
			delete(live, k)
		}
	}
	for k, set := range saved {
		cur := live[k]
		if cur == nil {
			cur = newOrderedSet()
			live[k] = cur
		}
		cur.restore(set, objects)
	}
	return live
}

func checkpointSets[K comparable](sets map[K]*orderedSet) map[K]setCheckpoint {
	out := make(map[K]setCheckpoint, len(sets))
	for k, set := range sets {
		out[k] = set.checkpoint()
	}
	return out
}

// equals reports whether saved holds e as it is: every field of entry is
// compared, the indexed values element by element
// (TestSavedEntryEqualsComparesEveryField).
func (saved *entry) equals(e *entry) bool {
	if saved.key != e.key || saved.obj != e.obj || saved.seq != e.seq || saved.labelSig != e.labelSig || saved.facts != e.facts || len(saved.indexed) != len(e.indexed) || (saved.indexed == nil) != (e.indexed == nil) {
		return false
	}
	for i, vals := range saved.indexed {
		if !slices.Equal(vals, e.indexed[i]) {
			return false
		}
	}
	return true
}
