package gc

import (
	"maps"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// Checkpoint is the collector's whole mutable state at one moment: its
// position in the watch log, the dependency graph, both queues and the
// absent-owner cache. Graph nodes change in place and point at each other,
// so the graph is copied node by node with the links remapped; the
// ownerReference and finalizer slices they hold come from stored objects
// and are shared.
type Checkpoint struct {
	retryDelay time.Duration
	cursor     int
	nodes      map[types.UID]*node
	queue      workQueue
	absent     absentCache
}

// Checkpoint saves the collector's state.
func (g *Collector) Checkpoint() *Checkpoint {
	return &Checkpoint{
		retryDelay: g.RetryDelay,
		cursor:     g.cursor,
		nodes:      cloneGraph(g.nodes),
		queue:      g.queue.clone(),
		absent:     g.absent.clone(),
	}
}

// Restore puts the collector back in the saved state; the checkpoint can
// be restored again.
func (g *Collector) Restore(cp *Checkpoint) {
	g.RetryDelay = cp.retryDelay
	g.cursor = cp.cursor
	g.restoreGraph(cp.nodes)
	q, a := cp.queue.clone(), cp.absent.clone()
	g.queue, g.absent = &q, &a
}

// cloneGraph copies every node and rewires dependents to the copies.
func cloneGraph(nodes map[types.UID]*node) map[types.UID]*node {
	copies := make(map[*node]*node, len(nodes))
	copyOf := func(n *node) *node {
		if c, ok := copies[n]; ok {
			return c
		}
		c := *n
		copies[n] = &c
		return &c
	}
	out := make(map[types.UID]*node, len(nodes))
	for uid, n := range nodes {
		out[uid] = copyOf(n)
	}
	for orig, c := range copies {
		c.dependents = nil
		if len(orig.dependents) > 0 {
			c.dependents = make(map[types.UID]*node, len(orig.dependents))
		}
	}
	for orig, c := range copies {
		for uid, d := range orig.dependents {
			c.dependents[uid] = copyOf(d)
		}
	}
	return out
}

// restoreGraph makes the live graph equal to saved (a checkpoint's copy),
// overwriting live nodes in place: a node is only allocated for a UID the
// live graph lacks. Every dependent is expected to be in the graph's map
// (removing a node removes it from its owners' dependents); if one is not,
// the graph is copied whole instead.
func (g *Collector) restoreGraph(saved map[types.UID]*node) {
	for _, sn := range saved {
		for duid, d := range sn.dependents {
			if saved[duid] != d {
				g.nodes = cloneGraph(saved)
				return
			}
		}
	}
	for uid := range g.nodes {
		if _, ok := saved[uid]; !ok {
			delete(g.nodes, uid)
		}
	}
	for uid := range saved {
		if g.nodes[uid] == nil {
			g.nodes[uid] = &node{}
		}
	}
	for uid, sn := range saved {
		cur := g.nodes[uid]
		deps := cur.dependents
		*cur = *sn
		if deps == nil && len(sn.dependents) > 0 {
			deps = make(map[types.UID]*node, len(sn.dependents))
		}
		for duid := range deps {
			if _, ok := sn.dependents[duid]; !ok {
				delete(deps, duid)
			}
		}
		for duid := range sn.dependents {
			deps[duid] = g.nodes[duid]
		}
		cur.dependents = deps
	}
}

func (q *workQueue) clone() workQueue {
	return workQueue{fifo: slices.Clone(q.fifo), queued: maps.Clone(q.queued), waiting: slices.Clone(q.waiting), seq: q.seq}
}

func (c *absentCache) clone() absentCache {
	return absentCache{set: maps.Clone(c.set), order: slices.Clone(c.order)}
}
