package informer

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// TestEachByIndexMatchesByIndex checks that EachByIndex visits, and
// CountByIndex counts, exactly what ByIndex returns, in the same order,
// after updates move keys within their buckets.
func TestEachByIndexMatchesByIndex(t *testing.T) {
	s := newStore(map[string]IndexFunc{PodControllerIndex: PodControllerIndexFunc}, nil)
	ctrl := true
	owned := func(name, owner string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
		if owner != "" {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: types.UID("u-" + owner), Controller: &ctrl}}
		}
		return p
	}
	for i := 0; i < 6; i++ {
		s.put(owned(fmt.Sprintf("p%d", i), []string{"a", "b", ""}[i%3]))
	}
	s.put(owned("p0", "a")) // an update moves p0 to the end of its bucket
	s.remove("default/p3")
	for _, v := range []string{PodControllerKey("default", "ReplicaSet", "a", "u-a"), PodControllerKey("default", "ReplicaSet", "b", "u-b"), "default", "missing"} {
		var each []string
		s.EachByIndex(PodControllerIndex, v, func(o apiserver.Object) { each = append(each, o.GetName()) })
		var by []string
		for _, o := range s.ByIndex(PodControllerIndex, v) {
			by = append(by, o.GetName())
		}
		if fmt.Sprint(each) != fmt.Sprint(by) || s.CountByIndex(PodControllerIndex, v) != len(by) {
			t.Errorf("%s: EachByIndex %v, CountByIndex %d, ByIndex %v", v, each, s.CountByIndex(PodControllerIndex, v), by)
		}
	}
	if n := s.CountByIndex(PodControllerIndex, PodControllerKey("default", "ReplicaSet", "a", "u-a")); n != 1 {
		t.Errorf("owner a has %d pods, want 1 (p0; p3 was removed)", n)
	}
}
