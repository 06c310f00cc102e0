package informer

import (
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
