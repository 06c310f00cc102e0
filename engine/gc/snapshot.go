package gc

import (
	"maps"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Checkpoint is the collector's whole mutable state at one moment: its
// position in the watch log, the dependency graph, both queues and the
// absent-owner cache. Graph nodes are copy-on-write (see package cow) and
// name their dependents by UID, so the checkpoint shares the map of nodes
// (cow.Map) and the nodes, which the collector copies before writing; a node
// a checkpoint holds is never written again, so a checkpoint taken after
// another shares every node not written in between. The ownerReference
// and finalizer slices the nodes hold come from stored objects and are
// shared too.
type Checkpoint struct {
	retryDelay time.Duration
	cursor     int
	nodes      cow.MapSnapshot[types.UID, *node]
	queue      workQueue
	absent     absentCache
	unlinked   bool
}

// Checkpoint saves the collector's state. The nodes not written since an
// earlier checkpoint are shared with it.
func (g *Collector) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		retryDelay: g.RetryDelay,
		cursor:     g.cursor,
		nodes:      g.nodes.Snapshot(),
		queue:      g.queue.clone(),
		absent:     g.absent.clone(),
		unlinked:   g.unlinkedByRemoval,
	}
	g.epoch = cow.NewToken() // the nodes are now shared with cp
	return cp
}

// Restore puts the collector back in the saved state; the checkpoint can
// be restored again.
func (g *Collector) Restore(cp *Checkpoint) {
	g.RetryDelay = cp.retryDelay
	g.cursor = cp.cursor
	g.nodes.Restore(cp.nodes)
	g.epoch = cow.NewToken() // the nodes are shared with cp
	q, a := cp.queue.clone(), cp.absent.clone()
	g.queue, g.absent = &q, &a
	g.unlinkedByRemoval = cp.unlinked
}

func (q *workQueue) clone() workQueue {
	return workQueue{fifo: slices.Clone(q.fifo), queued: maps.Clone(q.queued), waiting: slices.Clone(q.waiting), seq: q.seq}
}

func (c *absentCache) clone() absentCache {
	return absentCache{set: maps.Clone(c.set), order: slices.Clone(c.order)}
}
