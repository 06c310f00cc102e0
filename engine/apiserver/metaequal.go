package apiserver

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metaEqual is semanticEqual for object metadata, answered without
// reflection when a and b are identical: every scalar field equal and every
// map, slice and pointer field the same memory (or empty on both sides for
// maps and slices). Most writes carry metadata that shares everything with
// the stored object's (status writes, binds, deletion marks), and identical
// metadata is semantically equal because every value equals itself.
// Anything else is compared by semanticEqual, so the answer is always
// semanticEqual's.
func metaEqual(a, b *metav1.ObjectMeta) bool {
	return metaIdentical(a, b) || semanticEqual(a, b)
}

// metaIdentical reports whether a and b are identical as metaEqual
// describes. TestMetaIdenticalChecksEveryField lists the fields it checks.
func metaIdentical(a, b *metav1.ObjectMeta) bool {
	return a.Name == b.Name && a.GenerateName == b.GenerateName && a.Namespace == b.Namespace &&
		a.SelfLink == b.SelfLink && a.UID == b.UID && a.ResourceVersion == b.ResourceVersion &&
		a.Generation == b.Generation && a.CreationTimestamp == b.CreationTimestamp &&
		a.DeletionTimestamp == b.DeletionTimestamp && a.DeletionGracePeriodSeconds == b.DeletionGracePeriodSeconds &&
		sameStringMap(a.Labels, b.Labels) && sameStringMap(a.Annotations, b.Annotations) &&
		sameSlice(a.OwnerReferences, b.OwnerReferences) && sameSlice(a.Finalizers, b.Finalizers) &&
		sameSlice(a.ManagedFields, b.ManagedFields)
}

// sameStringMap reports whether a and b are both empty (nil or not) or the
// same map.
func sameStringMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
