package apiserver

import (
	"sort"

	"k8s.io/apimachinery/pkg/types"
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
// Invariant: deps[u][ref.UID] == ref iff the stored object ref has an
// ownerReference with UID u. A dependent is keyed by its UID alone (stored
// objects' UIDs are unique, assigned by the server): one string to hash
// rather than the whole reference.
type ownerIndex struct {
	deps map[types.UID]map[types.UID]ObjectRef
}

func (x *ownerIndex) update(res Resource, old, cur Object) {
	if old != nil && cur != nil && sameOwnerUIDs(old, cur) {
		return // an update that keeps the owners (and, always, the name and UID)
	}
	if old != nil {
		r := refOf(res, old)
		for _, o := range old.GetOwnerReferences() {
			if set := x.deps[o.UID]; set != nil {
				delete(set, r.UID)
				if len(set) == 0 {
					delete(x.deps, o.UID)
				}
			}
		}
	}
	if cur != nil {
		r := refOf(res, cur)
		for _, o := range cur.GetOwnerReferences() {
			set := x.deps[o.UID]
			if set == nil {
				set = map[types.UID]ObjectRef{}
				x.deps[o.UID] = set
			}
			set[r.UID] = r
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
	set := s.owners.deps[ownerUID]
	out := make([]ObjectRef, 0, len(set))
	for _, r := range set {
		out = append(out, r)
	}
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
