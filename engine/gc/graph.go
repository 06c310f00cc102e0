package gc

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// node is one object in the dependency graph.
type node struct {
	// ref identifies the object; for a virtual node it comes from the
	// ownerReference that named it (namespace of the dependent).
	ref apiserver.ObjectRef
	// owners are the object's ownerReferences as last observed; empty for a
	// virtual node.
	owners []metav1.OwnerReference
	// dependents are the nodes whose owners name this node's UID; nil
	// until the first one is linked.
	dependents map[types.UID]*node
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
}

// sortedDependents returns the dependents ordered by resource, namespace and
// name, so that the queue order never depends on map iteration.
func (n *node) sortedDependents() []*node {
	out := make([]*node, 0, len(n.dependents))
	for _, d := range n.dependents {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return lessRef(out[i].ref, out[j].ref) })
	return out
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
