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
// so the graph is saved node by node as values, each node's dependents as
// their UIDs; the ownerReference and finalizer slices the nodes hold come
// from stored objects and are shared. A saved node is never changed, so a
// checkpoint taken after another shares the nodes that did not change in
// between (CheckpointAfter).
type Checkpoint struct {
	retryDelay time.Duration
	cursor     int
	nodes      map[types.UID]*savedNode
	// graph is the graph copied whole, set instead of nodes when a
	// dependent is not the graph's node of its UID (never expected; see
	// restoreGraph).
	graph  map[types.UID]*node
	queue  workQueue
	absent absentCache
}

// savedNode is a node's fields (dependents nil) and its dependents' UIDs;
// never changed once saved.
type savedNode struct {
	node
	deps []types.UID
}

// Checkpoint saves the collector's state.
func (g *Collector) Checkpoint() *Checkpoint { return g.CheckpointAfter(nil) }

// CheckpointAfter saves the collector's state, sharing with prev (an
// earlier checkpoint, or nil) the saved nodes equal to its own.
func (g *Collector) CheckpointAfter(prev *Checkpoint) *Checkpoint {
	cp := &Checkpoint{
		retryDelay: g.RetryDelay,
		cursor:     g.cursor,
		queue:      g.queue.clone(),
		absent:     g.absent.clone(),
	}
	var before map[types.UID]*savedNode
	if prev != nil {
		before = prev.nodes
	}
	cp.nodes = saveGraph(g.nodes, before)
	if cp.nodes == nil {
		cp.graph = cloneGraph(g.nodes)
	}
	return cp
}

// Restore puts the collector back in the saved state; the checkpoint can
// be restored again.
func (g *Collector) Restore(cp *Checkpoint) {
	g.RetryDelay = cp.retryDelay
	g.cursor = cp.cursor
	if cp.graph != nil {
		g.nodes = cloneGraph(cp.graph)
	} else {
		g.restoreGraph(cp.nodes)
	}
	q, a := cp.queue.clone(), cp.absent.clone()
	g.queue, g.absent = &q, &a
}

// saveGraph saves every node as a value with its dependents' UIDs, taking the saved node of before instead where it is equal; nil
// when a dependent is not the graph's node of its UID.
func saveGraph(nodes map[types.UID]*node, before map[types.UID]*savedNode) map[types.UID]*savedNode {
	out := make(map[types.UID]*savedNode, len(nodes))
	for uid, n := range nodes {
		for duid, d := range n.dependents {
			if nodes[duid] != d {
				return nil
			}
		}
		if old := before[uid]; old != nil && old.equals(n) {
			out[uid] = old
			continue
		}
		sn := &savedNode{node: *n}
		sn.dependents = nil
		if len(n.dependents) > 0 {
			sn.deps = make([]types.UID, 0, len(n.dependents))
			for duid := range n.dependents {
				sn.deps = append(sn.deps, duid)
			}
		}
		out[uid] = sn
	}
	return out
}

// equals reports whether sn saved n as it is: same fields, the same
// ownerReference and finalizer slices (they come from stored objects and
// are replaced, never changed), the same dependents. Every field of node
// is compared (TestSavedNodeEqualsComparesEveryField).
func (sn *savedNode) equals(n *node) bool {
	a := &sn.node
	if a.ref != n.ref || a.virtual != n.virtual || a.beingDeleted != n.beingDeleted || a.deletingDependents != n.deletingDependents || a.linked != n.linked ||
		!sameSlice(a.owners, n.owners) || !sameSlice(a.finalizers, n.finalizers) || len(sn.deps) != len(n.dependents) {
		return false
	}
	for _, duid := range sn.deps {
		if _, ok := n.dependents[duid]; !ok {
			return false
		}
	}
	return true
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
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

// restoreGraph makes the live graph equal to saved, overwriting live nodes
// in place: a node is only allocated for a UID the live graph lacks, and a
// dependents map is only written where it differs.
func (g *Collector) restoreGraph(saved map[types.UID]*savedNode) {
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
		*cur = sn.node
		if deps == nil && len(sn.deps) > 0 {
			deps = make(map[types.UID]*node, len(sn.deps))
		}
		for _, duid := range sn.deps {
			d := g.nodes[duid]
			if have, ok := deps[duid]; !ok || have != d {
				deps[duid] = d
			}
		}
		// Every saved dependent is in; any more are extras.
		if len(deps) != len(sn.deps) {
			keep := make(map[types.UID]struct{}, len(sn.deps))
			for _, duid := range sn.deps {
				keep[duid] = struct{}{}
			}
			for duid := range deps {
				if _, ok := keep[duid]; !ok {
					delete(deps, duid)
				}
			}
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
