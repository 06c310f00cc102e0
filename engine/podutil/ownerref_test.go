package podutil

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestOwnerRefs(t *testing.T) {
	rs := &metav1.ObjectMeta{Name: "web-abc", UID: "rs-uid"}
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}
	ref := NewControllerRef(rs, gvk)
	if ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" || ref.Name != "web-abc" || ref.UID != "rs-uid" ||
		ref.Controller == nil || !*ref.Controller || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Fatalf("NewControllerRef = %+v", ref)
	}
	no := false
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{OwnerReferences: []metav1.OwnerReference{
		{Kind: "Other", UID: "x", Controller: &no},
		*ref,
	}}}
	if !IsControlledBy(pod, "rs-uid") || IsControlledBy(pod, "x") {
		t.Fatal("IsControlledBy")
	}
	orphan := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{OwnerReferences: []metav1.OwnerReference{{UID: "x"}}}}
	if IsControlledBy(orphan, "x") {
		t.Fatal("non-controller ref must not count")
	}
}
