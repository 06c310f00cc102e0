package apiserver

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// AdoptObject applies the controllers' adopt patch (BEHAVIOR §5.3): a
// strategic merge patch whose metadata carries the dependent's uid and one
// ownerReference, merged by uid (other references are kept). There is no
// resourceVersion precondition. The server answers 422 when the dependent's
// UID differs (it was re-created) or when the result would have two
// controller references, and 404 when the dependent is gone.
func (s *Server) AdoptObject(actor string, res Resource, ns, name string, dependentUID types.UID, owner metav1.OwnerReference) (Object, error) {
	return s.patch(actor, res, ns, name, func(obj Object) error {
		obj.SetUID(dependentUID)
		refs := append([]metav1.OwnerReference(nil), obj.GetOwnerReferences()...)
		merged := false
		for i := range refs {
			if refs[i].UID == owner.UID {
				refs[i] = *owner.DeepCopy()
				merged = true
			}
		}
		if !merged {
			refs = append(refs, *owner.DeepCopy())
		}
		obj.SetOwnerReferences(refs)
		return nil
	})
}

// ReleaseObject applies the release patch (BEHAVIOR §5.3): the dependent's
// uid plus a "$patch: delete" of the ownerReference with ownerUID. Releasing
// a reference that is not there is a no-op that stores nothing.
func (s *Server) ReleaseObject(actor string, res Resource, ns, name string, dependentUID, ownerUID types.UID) (Object, error) {
	return s.patch(actor, res, ns, name, func(obj Object) error {
		obj.SetUID(dependentUID)
		var refs []metav1.OwnerReference
		for _, r := range obj.GetOwnerReferences() {
			if r.UID != ownerUID {
				refs = append(refs, r)
			}
		}
		obj.SetOwnerReferences(refs)
		return nil
	})
}

// RemoveFinalizer removes finalizer from the object (a metadata patch). If
// the object is being deleted, that was its last finalizer and its grace
// period is over, the object is deleted by this request. Removing an absent
// finalizer stores nothing.
func (s *Server) RemoveFinalizer(actor string, res Resource, ns, name, finalizer string) (Object, error) {
	return s.patch(actor, res, ns, name, func(obj Object) error {
		var fins []string
		for _, f := range obj.GetFinalizers() {
			if f != finalizer {
				fins = append(fins, f)
			}
		}
		obj.SetFinalizers(fins)
		return nil
	})
}
