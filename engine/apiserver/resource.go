package apiserver

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Resource names a stored collection, spelled as in the REST path.
type Resource string

const (
	// Pods are core/v1 Pods (namespaced).
	Pods Resource = "pods"
	// ReplicaSets are apps/v1 ReplicaSets (namespaced).
	ReplicaSets Resource = "replicasets"
	// Deployments are apps/v1 Deployments (namespaced).
	Deployments Resource = "deployments"
	// Nodes are core/v1 Nodes (cluster-scoped).
	Nodes Resource = "nodes"
	// Events are core/v1 Events (namespaced); stored and counted but never
	// put in the watch log.
	Events Resource = "events"
)

// String returns the REST name, e.g. "replicasets".
func (r Resource) String() string { return string(r) }

// GroupResource returns the group-qualified resource used in error messages,
// e.g. replicasets.apps.
func (r Resource) GroupResource() schema.GroupResource {
	switch r {
	case ReplicaSets, Deployments:
		return schema.GroupResource{Group: "apps", Resource: string(r)}
	default:
		return schema.GroupResource{Resource: string(r)}
	}
}

// Kind returns the object kind stored under r ("Pod", "ReplicaSet", ...).
func (r Resource) Kind() string {
	switch r {
	case Pods:
		return "Pod"
	case ReplicaSets:
		return "ReplicaSet"
	case Deployments:
		return "Deployment"
	case Nodes:
		return "Node"
	case Events:
		return "Event"
	}
	return ""
}

// GroupKind returns the group-qualified kind used in Invalid messages
// (`Deployment.apps "web" is invalid: ...`).
func (r Resource) GroupKind() schema.GroupKind {
	return schema.GroupKind{Group: r.GroupResource().Group, Kind: r.Kind()}
}

// Namespaced reports whether objects of r live in a namespace.
func (r Resource) Namespaced() bool { return r != Nodes }

// ResourceForKind maps an ownerReference kind to the resource storing it.
// ok is false for kinds this server does not store.
func ResourceForKind(kind string) (res Resource, ok bool) {
	switch kind {
	case "Pod":
		return Pods, true
	case "ReplicaSet":
		return ReplicaSets, true
	case "Deployment":
		return Deployments, true
	case "Node":
		return Nodes, true
	case "Event":
		return Events, true
	}
	return "", false
}

// Object is any stored API object: *corev1.Pod, *appsv1.ReplicaSet,
// *appsv1.Deployment, *corev1.Node or *corev1.Event.
type Object interface {
	metav1.Object
	runtime.Object
}

// EventType is the type of a watch event.
type EventType string

const (
	// Added: the object was created.
	Added EventType = "ADDED"
	// Modified: the stored object changed (including being marked for
	// deletion).
	Modified EventType = "MODIFIED"
	// Deleted: the object was removed from storage.
	Deleted EventType = "DELETED"
)

// String returns the wire name, e.g. "ADDED".
func (t EventType) String() string { return string(t) }

// WatchEvent is one entry of the watch log.
type WatchEvent struct {
	// Type says what happened.
	Type EventType
	// Resource is the collection the object belongs to.
	Resource Resource
	// Key is the object's storage key, "namespace/name" ("name" when
	// cluster-scoped): the string the server's table holds, handed on so
	// that readers which keep or look up by key do not build it again.
	Key string
	// Object is immutable: it is the stored snapshot at this RV. For Deleted
	// it is the last stored state with its resourceVersion set to the
	// deletion RV.
	Object Object
	// Prev is the version Object replaced, for Modified (nil otherwise),
	// also immutable: a reader that follows every event in order and
	// depends on a few fields only can see, without a lookup of its own,
	// that a write left them as they were (the garbage collector, see
	// gc.Collector.Observe).
	Prev Object
	// RV is the resourceVersion of this change; strictly increasing along
	// the log.
	RV uint64
}

// DeleteOptions are the parts of metav1.DeleteOptions the server honours.
// The zero value is a DELETE with no options at all.
type DeleteOptions struct {
	// PropagationPolicy: nil keeps existing propagation finalizers and
	// otherwise uses the type default (Background). A value other than
	// Orphan, Foreground and Background is refused with 422.
	PropagationPolicy *metav1.DeletionPropagation
	// OrphanDependents is the deprecated legacy form: true means Orphan,
	// false Background. It wins over everything else, but the server
	// refuses it (422) together with PropagationPolicy.
	OrphanDependents *bool
	// GracePeriodSeconds overrides a pod's terminationGracePeriodSeconds;
	// ignored by types without graceful deletion. Negative means 1.
	GracePeriodSeconds *int64
	// Preconditions on UID and resourceVersion; a mismatch is a Conflict.
	Preconditions *metav1.Preconditions
}
