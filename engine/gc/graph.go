package gc

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// node is one object in the dependency graph.
type node struct {
	// ref identifies the object; for a virtual node it comes from the
	// ownerReference that named it (namespace of the dependent).
	ref apiserver.ObjectRef
	// owners are the object's ownerReferences as last observed; empty for a
	// virtual node.
	owners []metav1.OwnerReference
	// dependents are the UIDs of the nodes whose owners name this node's
	// UID (each the graph's node of that UID); nil until the first one is
	// linked. A copy of the node (Collector.writable) forks it (cow.Map),
	// so it is written only by the node's epoch.
	dependents *cow.Map[types.UID, struct{}]
	// virtual is true until the object itself is observed.
	virtual bool
	// beingDeleted: the last observed object had a deletionTimestamp.
	beingDeleted bool
	// deletingDependents: the object began deletion carrying
	// foregroundDeletion; it stays set until the node is removed.
	deletingDependents bool
	// finalizers as last observed.
	finalizers []string
	// linked: the node has exactly one owner reference and is in the
	// dependents map of that owner's current node. Set when the link is
	// written, cleared when the owner's node is removed; it lets an
	// unchanged reference skip rewriting the (possibly large) map.
	linked bool
	// epoch is the collector epoch the node was made in; a node of an
	// earlier one may be shared with a checkpoint and is copied before it
	// is written (Collector.writable).
	epoch *cow.Token
}

// sortedDependents returns the dependents of n ordered by resource,
// namespace and name, so that the queue order never depends on map
// iteration. n may already be removed from the graph (removeNode): a
// dependent of its own UID is n itself.
func (g *Collector) sortedDependents(n *node) []*node {
	out := make([]*node, 0, n.dependents.Len())
	n.dependents.Range(func(uid types.UID, _ struct{}) bool {
		d := g.nodes.At(uid)
		if uid == n.ref.UID {
			d = n
		}
		out = append(out, d)
		return true
	})
	sort.Slice(out, func(i, j int) bool { return lessRef(out[i].ref, out[j].ref) })
	return out
}

// writable returns the node that may be written for n: n itself when it
// was made in the current epoch, otherwise a copy made in this one (its
// dependents forked), which replaces n in the graph (n may be shared with
// a checkpoint). n must be the graph's node of its UID.
func (g *Collector) writable(n *node) *node {
	if n.epoch == g.epoch {
		return n
	}
	c := *n
	c.epoch = g.epoch
	if n.dependents != nil {
		c.dependents = n.dependents.Fork()
	}
	g.nodes.Set(c.ref.UID, &c)
	return &c
}

func lessRef(a, b apiserver.ObjectRef) bool {
	if a.Resource != b.Resource {
		return a.Resource < b.Resource
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.UID < b.UID
}

// blocks reports whether dep's reference to owner has blockOwnerDeletion.
func blocks(dep *node, owner types.UID) bool {
	for _, r := range dep.owners {
		if r.UID == owner && r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
			return true
		}
	}
	return false
}

func hasFinalizer(fins []string, f string) bool {
	for _, x := range fins {
		if x == f {
			return true
		}
	}
	return false
}
