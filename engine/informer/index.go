package informer

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// Index names used by the controllers.
const (
	// PodControllerIndex maps a pod to "ns/Kind/name/uid" of its controller,
	// or to "ns" when it is an orphan (upstream's podControllerUIDIndex).
	PodControllerIndex = "podController"
	// ControllerUIDIndex maps a ReplicaSet to its controller's UID.
	ControllerUIDIndex = "controllerUID"
)

// PodControllerIndexFunc implements PodControllerIndex.
func PodControllerIndexFunc(obj apiserver.Object) []string {
	ref := metav1.GetControllerOfNoCopy(obj)
	if ref == nil {
		return []string{obj.GetNamespace()}
	}
	return []string{PodControllerKey(obj.GetNamespace(), ref.Kind, ref.Name, string(ref.UID))}
}

// PodControllerKey is the PodControllerIndex value of pods controlled by the
// given owner.
func PodControllerKey(ns, kind, name, uid string) string {
	return ns + "/" + kind + "/" + name + "/" + uid
}

// ControllerUIDIndexFunc implements ControllerUIDIndex; objects without a
// controller are not indexed.
func ControllerUIDIndexFunc(obj apiserver.Object) []string {
	ref := metav1.GetControllerOfNoCopy(obj)
	if ref == nil {
		return nil
	}
	return []string{string(ref.UID)}
}

// refOnlyIndex reports whether fn is PodControllerIndexFunc or
// ControllerUIDIndexFunc, whose values are a function of an object's
// namespace and controller reference alone: an update that keeps both
// keeps the values, and the store does not recompute them.
func refOnlyIndex(fn IndexFunc) bool {
	p := reflect.ValueOf(fn).Pointer()
	return p == reflect.ValueOf(IndexFunc(PodControllerIndexFunc)).Pointer() ||
		p == reflect.ValueOf(IndexFunc(ControllerUIDIndexFunc)).Pointer()
}

// sameControllerInputs reports whether a and b have the same namespace and
// the same controller reference (kind, name and UID, the fields the
// controller indexes read), or both none.
func sameControllerInputs(a, b apiserver.Object) bool {
	if a.GetNamespace() != b.GetNamespace() {
		return false
	}
	ra, rb := metav1.GetControllerOfNoCopy(a), metav1.GetControllerOfNoCopy(b)
	if ra == nil || rb == nil {
		return ra == nil && rb == nil
	}
	return ra.Kind == rb.Kind && ra.Name == rb.Name && ra.UID == rb.UID
}
