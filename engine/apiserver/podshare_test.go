package apiserver

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestOwnerRefFieldsAreAllCompared fails when metav1.OwnerReference gains a
// field that podutil.SameOwnerRef does not compare.
func TestOwnerRefFieldsAreAllCompared(t *testing.T) {
	want := []string{"APIVersion", "Kind", "Name", "UID", "Controller", "BlockOwnerDeletion"}
	if got := fieldNames(reflect.TypeOf(metav1.OwnerReference{})); !reflect.DeepEqual(got, want) {
		t.Errorf("OwnerReference has fields %v; podutil.SameOwnerRef compares %v", got, want)
	}
}

func TestPodShareSharesOnlyExactlyEqualParts(t *testing.T) {
	yes, no := true, false
	pod := func(image string, cpu string, block *bool) *corev1.Pod {
		c := corev1.Container{Name: "web", Image: image}
		if cpu != "" {
			c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
		}
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"},
				OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: "u", Controller: &yes, BlockOwnerDeletion: block}}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{c}},
		}
	}
	var ps podShare
	first := pod("nginx:1.25", "1", &yes)
	ps.share(first)
	same := pod("nginx:1.25", "1", &yes)
	ps.share(same)
	if &same.Spec.Containers[0] != &first.Spec.Containers[0] || reflect.ValueOf(same.Labels).Pointer() != reflect.ValueOf(first.Labels).Pointer() ||
		&same.OwnerReferences[0] != &first.OwnerReferences[0] {
		t.Error("a pod equal to the last one must share its containers, labels and owner references")
	}
	// Equal by value, not by representation: not shared.
	milli := pod("nginx:1.25", "1000m", &no)
	ps.share(milli)
	if &milli.Spec.Containers[0] == &first.Spec.Containers[0] {
		t.Error("cpu 1000m must not share containers holding cpu 1")
	}
	if &milli.OwnerReferences[0] == &first.OwnerReferences[0] {
		t.Error("owner references differing in blockOwnerDeletion must not be shared")
	}
	other := pod("nginx:1.26", "", &no)
	ps.share(other)
	if other.Spec.Containers[0].Image != "nginx:1.26" {
		t.Error("a different image must be kept")
	}
}

func TestPodShareCopyForCreateNeverAliasesTheRequest(t *testing.T) {
	yes := true
	pod := func() *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"},
				OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: "u", Controller: &yes}}},
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning},
		}
	}
	var ps podShare
	in := pod()
	first := ps.copyForCreate(in)
	if &first.Spec.Containers[0] == &in.Spec.Containers[0] || &first.OwnerReferences[0] == &in.OwnerReferences[0] ||
		reflect.ValueOf(first.Labels).Pointer() == reflect.ValueOf(in.Labels).Pointer() {
		t.Fatal("the first copy must own its containers, labels and owner references")
	}
	if first.Status.Phase != "" {
		t.Error("the copy's status must be left empty for prepareCreate")
	}
	ps.share(first)
	in2 := pod()
	second := ps.copyForCreate(in2)
	if &second.Spec.Containers[0] != &first.Spec.Containers[0] || &second.OwnerReferences[0] != &first.OwnerReferences[0] ||
		reflect.ValueOf(second.Labels).Pointer() != reflect.ValueOf(first.Labels).Pointer() {
		t.Error("a request equal to the last created pod must get its containers, labels and owner references")
	}
	in3 := pod()
	in3.Spec.Containers[0].Image = "nginx:2"
	if third := ps.copyForCreate(in3); &third.Spec.Containers[0] == &in3.Spec.Containers[0] || third.Spec.Containers[0].Image != "nginx:2" {
		t.Error("different containers must be deep-copied")
	}
}
