package apiserver

import (
	"maps"
	"sort"

	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// ObjectRef names a stored object.
type ObjectRef struct {
	Resource  Resource  `json:"resource"`
	Namespace string    `json:"namespace,omitempty"`
	Name      string    `json:"name"`
	UID       types.UID `json:"uid"`
}

// String renders "pods default/web-1" (cluster-scoped: "nodes n1").
func (r ObjectRef) String() string {
	return string(r.Resource) + " " + objectKey(r.Namespace, r.Name)
}

func refOf(res Resource, obj Object) ObjectRef {
	return ObjectRef{Resource: res, Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID()}
}

// ownerIndex maps an owner UID to the objects whose ownerReferences name it.
// Invariant: *deps[u].refs[ref.UID] == ref iff the stored object ref has an
// ownerReference with UID u. A dependent is keyed by its UID alone (stored
// objects' UIDs are unique, assigned by the server): one string to hash
// rather than the whole reference. The sets are copy-on-write (see package
// cow): a checkpoint copies deps and shares the sets.
type ownerIndex struct {
	deps map[types.UID]*dependentSet
	// epoch is the current copy-on-write epoch, new at every checkpoint
	// and restore.
	epoch *cow.Token
}

// dependentSet is one owner's dependents, written only when its epoch is
// the index's (see writable). The references are held by pointer, never
// changed once made, in a cow.Map: a copy of a large set (one per
// checkpoint interval that changes it) shares the chunks it does not
// write.
type dependentSet struct {
	refs  *cow.Map[types.UID, *ObjectRef]
	epoch *cow.Token
}

// writable returns the set of owner u that may be written, copying it
// into the current epoch first when it was made in an earlier one (a
// checkpoint may share it); a new empty set when u has none.
func (x *ownerIndex) writable(u types.UID) *dependentSet {
	set := x.deps[u]
	switch {
	case set == nil:
		set = &dependentSet{refs: cow.NewMap[types.UID, *ObjectRef](), epoch: x.epoch}
	case set.epoch != x.epoch:
		set = &dependentSet{refs: set.refs.Fork(), epoch: x.epoch}
	default:
		return set
	}
	x.deps[u] = set
	return set
}

// share returns a copy of deps sharing the sets, for a checkpoint, and
// starts a new epoch: the sets are now shared.
func (x *ownerIndex) share() map[types.UID]*dependentSet {
	out := maps.Clone(x.deps)
	x.epoch = cow.NewToken()
	return out
}

// restore makes deps a copy of saved sharing its sets, in a new epoch.
func (x *ownerIndex) restore(saved map[types.UID]*dependentSet) {
	x.deps = maps.Clone(saved)
	x.epoch = cow.NewToken()
}

func (x *ownerIndex) update(res Resource, old, cur Object) {
	if old != nil && cur != nil && sameOwnerUIDs(old, cur) {
		return // an update that keeps the owners (and, always, the name and UID)
	}
	if old != nil {
		r := refOf(res, old)
		for _, o := range old.GetOwnerReferences() {
			if set := x.deps[o.UID]; set != nil {
				if !set.refs.Has(r.UID) {
					continue
				}
				if set.refs.Len() == 1 {
					delete(x.deps, o.UID)
					continue
				}
				x.writable(o.UID).refs.Delete(r.UID)
			}
		}
	}
	if cur != nil {
		if owners := cur.GetOwnerReferences(); len(owners) > 0 {
			r := refOf(res, cur)
			for _, o := range owners {
				x.writable(o.UID).refs.Set(r.UID, &r)
			}
		}
	}
}

// sameOwnerUIDs reports whether old and cur name the same owner UIDs in the
// same order.
func sameOwnerUIDs(old, cur Object) bool {
	a, b := old.GetOwnerReferences(), cur.GetOwnerReferences()
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].UID != b[i].UID {
			return false
		}
	}
	return true
}

// Dependents returns the stored objects that carry an ownerReference to
// ownerUID, sorted by resource, namespace and name.
func (s *Server) Dependents(ownerUID types.UID) []ObjectRef {
	var set *cow.Map[types.UID, *ObjectRef]
	if d := s.owners.deps[ownerUID]; d != nil {
		set = d.refs
	}
	out := make([]ObjectRef, 0, set.Len())
	set.Range(func(_ types.UID, r *ObjectRef) bool {
		out = append(out, *r)
		return true
	})
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Resource != b.Resource {
			return a.Resource < b.Resource
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}
