package informer

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
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

// storeCheckpoint is a Store's contents and indexes: the store's own
// objects map, entry table, entries and sets (items and positions),
// shared with the store, which copies each part before it writes it
// (copy-on-write, see cow.go) and therefore never changes what a
// checkpoint holds. The parts the store does not write between two
// checkpoints are shared by both; taking or restoring one copies headers,
// not entries (BenchmarkStoreCheckpoint8k, BenchmarkStoreRestore8k).
type storeCheckpoint struct {
	// objects is the store's objects map as it was (cow.Map).
	objects       cow.MapSnapshot[string, *entry]
	entries       seqTable[*entry]
	order         orderedSet
	byNamespace   map[string]orderedSet
	indices       map[string]map[string]orderedSet
	byLabel       map[labelBucket]orderedSet
	lastAppliedRV uint64
	nextSeq       uint64
	// groups is the group summary's byValue (nil when the store kept none
	// at checkpoint time).
	groups map[string][]group
}

// A saved set is an orderedSet value as it was; its items and pos are
// never written again: both copy their chunks (and their lists of chunks)
// before a write under a token other than the one they were made under,
// and the store takes a new token at every checkpoint and restore.

// Checkpoint saves the informer's state. The store keeps working on the
// same entries and sets under a new write token, copying each before it
// next writes it.
// A checkpoint shares with every other the entries and sets that did not
// change in between, whatever the order they were taken in (copy-on-write,
// see cow.go).
func (i *Informer) Checkpoint() *Checkpoint {
	return &Checkpoint{
		cfg:       i.cfg,
		cursor:    i.cursor,
		pending:   slices.Clone(i.pending),
		head:      i.head,
		delivered: i.delivered,
		store:     i.store.checkpoint(),
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

// checkpoint saves the store by keeping its parts as they are (a copy of
// the set headers, not of their contents) and taking a new token, so that
// the store copies each part before its next write to it.
func (s *Store) checkpoint() storeCheckpoint {
	cp := storeCheckpoint{
		objects:       s.objects.Snapshot(),
		entries:       s.entries.save(),
		order:         s.order.save(),
		byNamespace:   saveSets(s.byNamespace),
		indices:       make(map[string]map[string]orderedSet, len(s.indices)),
		byLabel:       saveSets(s.byLabel),
		lastAppliedRV: s.lastAppliedRV,
		nextSeq:       s.nextSeq,
		groups:        s.groups.checkpoint(),
	}
	for name, sets := range s.indices {
		cp.indices[name] = saveSets(sets)
	}
	s.newToken()
	return cp
}

// restore makes s hold cp's parts (indexers are configuration, kept) under
// a new token: nothing of cp is copied until the store writes it, and cp
// stays as it was, ready to be restored again by this store or another
// built alike (a checkpoint taken by another simulation of the same run).
// The parts keep the tokens they carried when saved, all older than the
// new one (never nil: a token tells nothing but whether the store may
// write in place, so two stores holding equal contents compare equal
// field by field whatever their tokens).
func (s *Store) restore(cp *storeCheckpoint) {
	s.newToken()
	s.objects.Restore(cp.objects)
	s.entries = cp.entries
	s.order.restore(cp.order)
	s.byNamespace = restoreSets(s.byNamespace, cp.byNamespace)
	for name, sets := range cp.indices {
		s.indices[name] = restoreSets(s.indices[name], sets)
	}
	s.byLabel = restoreSets(s.byLabel, cp.byLabel)
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

func (s *orderedSet) save() orderedSet {
	return orderedSet{pos: s.pos.save(), items: s.items.save(), n: s.n, live: s.live}
}

// restore makes s hold saved's items and positions under the tokens they
// were saved with (older than the store's).
func (s *orderedSet) restore(saved orderedSet) { *s = saved }

// restoreSets makes live hold the saved sets: sets present in both are
// restored in place, the others created or dropped.
func restoreSets[K comparable](live map[K]*orderedSet, saved map[K]orderedSet) map[K]*orderedSet {
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
			cur = &orderedSet{}
			live[k] = cur
		}
		cur.restore(set)
	}
	return live
}

func saveSets[K comparable](sets map[K]*orderedSet) map[K]orderedSet {
	out := make(map[K]orderedSet, len(sets))
	for k, set := range sets {
		out[k] = set.save()
	}
	return out
}
