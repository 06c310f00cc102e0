package apiserver

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/appendonly"
	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is the API server's whole mutable state at one moment: the
// resourceVersion counter, every table (objects by key and the sorted key
// list), the owner index, the events and the watch log. Stored objects are
// never changed in place (a write stores a new object), so a checkpoint
// copies the maps and shares the objects; the watch log and the events are
// append-only: a checkpoint keeps their lengths (package appendonly). The
// random stream used for names belongs to the simulation, which
// checkpoints it.
type Checkpoint struct {
	rv        uint64
	tables    map[Resource]tableCheckpoint
	events    int
	eventKeys map[string]int
	owners    map[types.UID]map[ObjectRef]struct{}
	log       int
}

// tableCheckpoint is one table's objects and sorted keys.
type tableCheckpoint struct {
	objs   map[string]Object
	sorted []string
	dirty  bool
}

func (t *table) checkpoint() tableCheckpoint {
	return tableCheckpoint{objs: maps.Clone(t.objs), sorted: slices.Clone(t.sorted), dirty: t.dirty}
}

func (t *table) restore(cp tableCheckpoint) {
	t.objs, t.sorted, t.dirty = inplace.Map(t.objs, cp.objs), inplace.Slice(t.sorted, cp.sorted), cp.dirty
}

// Checkpoint saves the server's state.
func (s *Server) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		rv:        s.rv,
		tables:    make(map[Resource]tableCheckpoint, len(s.tables)),
		events:    len(s.events),
		eventKeys: maps.Clone(s.eventKeys),
		owners:    cloneOwners(s.owners.deps),
		log:       len(s.log),
	}
	for r, t := range s.tables {
		cp.tables[r] = t.checkpoint()
	}
	return cp
}

// Restore puts the server back in the saved state. The checkpoint stays
// usable: it can be restored again.
func (s *Server) Restore(cp *Checkpoint) {
	s.rv = cp.rv
	for r, t := range cp.tables {
		s.tables[r].restore(t)
	}
	s.events = appendonly.Restore(s.events, cp.events)
	s.eventKeys = inplace.Map(s.eventKeys, cp.eventKeys)
	s.owners.deps = cloneOwners(cp.owners)
	s.log = appendonly.Restore(s.log, cp.log)
}

// ObjectCount returns the number of objects stored (events excluded).
func (s *Server) ObjectCount() int {
	n := 0
	for _, t := range s.tables {
		n += len(t.objs)
	}
	return n
}

func cloneOwners(deps map[types.UID]map[ObjectRef]struct{}) map[types.UID]map[ObjectRef]struct{} {
	out := make(map[types.UID]map[ObjectRef]struct{}, len(deps))
	for u, set := range deps {
		out[u] = maps.Clone(set)
	}
	return out
}
