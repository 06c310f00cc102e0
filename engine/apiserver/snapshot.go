package apiserver

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is the API server's whole mutable state at one moment: the
// resourceVersion counter, every table (objects by key and the key order),
// the owner index, the per-node pod counts, the events and the watch log.
// Stored objects are never changed in place (a write stores a new object),
// so a checkpoint copies the maps and shares the objects. The events are
// append-only: a checkpoint keeps their chunk headers (eventLog.checkpoint);
// the index of their keys is not saved (eventIndex). The
// watch log's retained tail is only appended to and is replaced, not
// reused in place, when its head is forgotten after a checkpoint
// (Server.logEpoch), so a checkpoint shares its slice header (with
// logBase); a restore clips it, so the next entry appended goes to a new
// array and no slot a checkpoint shows is written again. The random
// stream used for names belongs to the simulation, which checkpoints it.
type Checkpoint struct {
	rv       uint64
	tables   map[Resource]tableCheckpoint
	events   eventLog
	patches  map[int]*storedEvent
	owners   map[types.UID]*dependentSet
	nodePods map[string]int
	log      []WatchEvent
	logBase  int
	podShare podShare
}

// tableCheckpoint is one table's objects and key order. keys replaces
// sorted and sortedSlots by new slices instead of writing into them, so
// both are shared; added is appended to in place, so it is copied.
type tableCheckpoint struct {
	objs        cow.MapSnapshot[string, Object]
	sorted      []string
	sortedSlots []int32
	added       []string
	removed     int
}

func (t *table) checkpoint() tableCheckpoint {
	return tableCheckpoint{objs: t.objs.Snapshot(), sorted: t.sorted, sortedSlots: t.sortedSlots, added: slices.Clone(t.added), removed: t.removed}
}

func (t *table) restore(cp tableCheckpoint) {
	t.objs.Restore(cp.objs)
	t.sorted, t.sortedSlots = cp.sorted, cp.sortedSlots
	t.added, t.removed = inplace.Slice(t.added, cp.added), cp.removed
}

// Checkpoint saves the server's state.
func (s *Server) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		rv:       s.rv,
		tables:   make(map[Resource]tableCheckpoint, len(s.tables)),
		events:   s.events.checkpoint(),
		patches:  maps.Clone(s.eventPatches),
		owners:   s.owners.share(),
		nodePods: maps.Clone(s.nodePods),
		log:      s.log,
		logBase:  s.logBase,
		podShare: s.podShare,
	}
	for r, t := range s.tables {
		cp.tables[r] = t.checkpoint()
	}
	s.logEpoch = cow.NewToken() // the log's array is now shared
	return cp
}

// Restore puts the server back in the saved state. The checkpoint stays
// usable: it can be restored again. The checkpoint must come from the same
// run as the server's state (the same scenario and the same user actions up
// to the later of the two), possibly of another server (a fork, or a
// rebuilt simulation): the event key index is kept as it is, which relies
// on the events held and the checkpoint's agreeing up to the shorter of
// the two (eventIndex). The watch log and the events are clipped (see
// eventLog.restore), so neither server ever writes into storage a
// checkpoint shows.
func (s *Server) Restore(cp *Checkpoint) {
	s.rv = cp.rv
	for r, t := range cp.tables {
		s.tables[r].restore(t)
	}
	s.restoreEvents(cp.events)
	s.eventPatches = inplace.Map(s.eventPatches, cp.patches)
	s.owners.restore(cp.owners)
	s.nodePods = inplace.Map(s.nodePods, cp.nodePods)
	s.log, s.logBase, s.logEpoch = slices.Clip(cp.log), cp.logBase, cow.NewToken()
	s.podShare = cp.podShare
}

// ObjectCount returns the number of objects stored (events excluded).
func (s *Server) ObjectCount() int {
	n := 0
	for _, t := range s.tables {
		n += t.objs.Len()
	}
	return n
}

// restoreEvents puts back the events of cp; the key index follows
// without work (eventIndex.restore).
func (s *Server) restoreEvents(cp eventLog) {
	s.eventKeys.restore(&s.events, &cp)
	s.events.restore(cp)
}

// ObjectsChangedSince counts the objects cp holds in another version than
// prev (an earlier checkpoint of the same run, or of a run sharing its
// checkpoints) does, or that prev does not hold: the object versions cp
// alone may keep alive once the run has moved on. Versions are compared
// by identity, not resourceVersion: a replay (a seek, or the idle
// refinement of the checkpoints) stores new copies of the versions an
// earlier pass stored, which a checkpoint taken during it keeps alive
// beside the earlier ones. The tables' chunks that cp and prev share are
// skipped (cow.ChangedSince).
func (cp *Checkpoint) ObjectsChangedSince(prev *Checkpoint) int {
	n := 0
	for r, t := range cp.tables {
		n += cow.ChangedSince(t.objs, prev.tables[r].objs)
	}
	return n
}
