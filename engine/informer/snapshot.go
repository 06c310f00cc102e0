package informer

import (
	"maps"
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is an informer's whole mutable state at one moment: its
// configuration (the lag can change), its position in the watch log, the
// events observed and not yet delivered, the delivery count and the cache
// with every index. Cached objects are the API server's immutable objects,
// shared; maps and ordered sets are copied. Handlers are wiring set once
// at construction and are not part of it; the fault stream belongs to the
// simulation, which checkpoints it.
type Checkpoint struct {
	cfg       Config
	cursor    int
	pending   []pendingEvent
	head      int
	delivered int
	store     storeCheckpoint
}

// storeCheckpoint is a Store's contents and indexes.
type storeCheckpoint struct {
	objects       map[string]apiserver.Object
	order         *orderedSet
	byNamespace   map[string]*orderedSet
	indices       map[string]map[string]*orderedSet
	byLabel       map[string]*orderedSet
	lastAppliedRV string
}

// Checkpoint saves the informer's state.
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
	i.store.restore(cp.store)
}

func (s *Store) checkpoint() storeCheckpoint {
	return storeCheckpoint{
		objects:       maps.Clone(s.objects),
		order:         s.order.clone(),
		byNamespace:   cloneSets(s.byNamespace),
		indices:       cloneIndices(s.indices),
		byLabel:       cloneSets(s.byLabel),
		lastAppliedRV: s.lastAppliedRV,
	}
}

// restore copies cp into s (indexers are configuration, kept), reusing
// the live maps and sets.
func (s *Store) restore(cp storeCheckpoint) {
	s.objects = inplace.Map(s.objects, cp.objects)
	s.order.restore(cp.order)
	s.byNamespace = restoreSets(s.byNamespace, cp.byNamespace)
	for name, sets := range cp.indices {
		s.indices[name] = restoreSets(s.indices[name], sets)
	}
	s.byLabel = restoreSets(s.byLabel, cp.byLabel)
	s.lastAppliedRV = cp.lastAppliedRV
}

// restore makes s equal to saved.
func (s *orderedSet) restore(saved *orderedSet) {
	s.pos = inplace.Map(s.pos, saved.pos)
	s.keys = inplace.Slice(s.keys, saved.keys)
}

// restoreSets makes live equal to saved: sets present in both are
// restored in place, the others copied or dropped.
func restoreSets(live, saved map[string]*orderedSet) map[string]*orderedSet {
	for k := range live {
		if _, ok := saved[k]; !ok {
			delete(live, k)
		}
	}
	for k, set := range saved {
		if cur := live[k]; cur != nil {
			cur.restore(set)
		} else {
			live[k] = set.clone()
		}
	}
	return live
}

func (s *orderedSet) clone() *orderedSet {
	return &orderedSet{pos: maps.Clone(s.pos), keys: slices.Clone(s.keys)}
}

func cloneSets(sets map[string]*orderedSet) map[string]*orderedSet {
	out := make(map[string]*orderedSet, len(sets))
	for k, set := range sets {
		out[k] = set.clone()
	}
	return out
}

func cloneIndices(indices map[string]map[string]*orderedSet) map[string]map[string]*orderedSet {
	out := make(map[string]map[string]*orderedSet, len(indices))
	for name, sets := range indices {
		out[name] = cloneSets(sets)
	}
	return out
}
