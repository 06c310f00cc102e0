package apiserver

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is the API server's whole mutable state at one moment: the
// resourceVersion counter, every table (objects by key and the key order),
// the owner index, the per-node pod counts, the events and the watch log.
// Stored objects are never changed in place (a write stores a new object),
// so a checkpoint copies the maps and shares the objects. The events are
// append-only: a checkpoint keeps their chunk headers (eventLog.checkpoint). The
// watch log's retained tail is only appended to and is replaced, never
// reused, when its head is forgotten, so a checkpoint shares its slice
// header (with logBase); appending after a restore to an earlier header
// writes into slots later checkpoints may show, with the same entries a
// replay computes again (see trace.Checkpoint for why that is safe). The
// random stream used for names belongs to the simulation, which
// checkpoints it.
type Checkpoint struct {
	rv        uint64
	tables    map[Resource]tableCheckpoint
	events    eventLog
	eventKeys map[eventKey]int
	owners    map[types.UID]map[ObjectRef]struct{}
	nodePods  map[string]int
	log       []WatchEvent
	logBase   int
	podShare  podShare
}

// tableCheckpoint is one table's objects and key order. keys replaces
// sorted by a new slice instead of writing into it, so sorted is shared;
// added is appended to in place, so it is copied.
type tableCheckpoint struct {
	objs    map[string]Object
	sorted  []string
	added   []string
	removed int
}

func (t *table) checkpoint() tableCheckpoint {
	return tableCheckpoint{objs: maps.Clone(t.objs), sorted: t.sorted, added: slices.Clone(t.added), removed: t.removed}
}

func (t *table) restore(cp tableCheckpoint) {
	t.objs, t.sorted = inplace.Map(t.objs, cp.objs), cp.sorted
	t.added, t.removed = inplace.Slice(t.added, cp.added), cp.removed
}

// Checkpoint saves the server's state.
func (s *Server) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		rv:        s.rv,
		tables:    make(map[Resource]tableCheckpoint, len(s.tables)),
		events:    s.events.checkpoint(),
		eventKeys: maps.Clone(s.eventKeys),
		owners:    cloneOwners(s.owners.deps),
		nodePods:  maps.Clone(s.nodePods),
		log:       s.log,
		logBase:   s.logBase,
		podShare:  s.podShare,
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
	s.events.restore(cp.events)
	s.eventKeys = inplace.Map(s.eventKeys, cp.eventKeys)
	s.owners.deps = cloneOwners(cp.owners)
	s.nodePods = inplace.Map(s.nodePods, cp.nodePods)
	s.log, s.logBase = cp.log, cp.logBase
	s.podShare = cp.podShare
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
