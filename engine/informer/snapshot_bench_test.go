package informer

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// benchStore is a summarized store of n pods of two owners, labelled like
// a Deployment's (app and pod-template-hash), each updated once.
func benchStore(n int) *Store {
	s := newStore(map[string]IndexFunc{PodControllerIndex: PodControllerIndexFunc}, nil)
	s.Summarize(PodControllerIndex, podState)
	controller := true
	pod := func(i int, rv string) *corev1.Pod {
		owner := fmt.Sprint("rs", i%2)
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint("p", i), ResourceVersion: rv,
			Labels:          map[string]string{"app": "web", "pod-template-hash": owner},
			OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: types.UID("uid-" + owner), Controller: &controller}}}}
	}
	for i := 0; i < n; i++ {
		s.put(pod(i, "1"))
	}
	for i := 0; i < n; i++ {
		s.put(pod(i, "2"))
	}
	return s
}

// BenchmarkStoreCheckpoint8k times a checkpoint of a store of 8,000 pods.
func BenchmarkStoreCheckpoint8k(b *testing.B) {
	s := benchStore(8000)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.checkpoint()
	}
}

// BenchmarkStoreRestore8k times a restore of a store of 8,000 pods to a
// checkpoint taken before 1,000 updates.
func BenchmarkStoreRestore8k(b *testing.B) {
	s := benchStore(8000)
	cp := s.checkpoint()
	for i := 0; i < 1000; i++ {
		s.put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint("p", i*7), ResourceVersion: "3",
			Labels: map[string]string{"app": "web", "pod-template-hash": "rs9"}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		s.restore(&cp)
	}
}

// BenchmarkStoreRestoreThenUpdate8k times a restore of a store of 8,000
// pods followed by updates of 1,000 of them: with copy-on-write, the
// updates pay for the copies the restore did not make.
func BenchmarkStoreRestoreThenUpdate8k(b *testing.B) {
	s := benchStore(8000)
	cp := s.checkpoint()
	controller := true
	var updates []*corev1.Pod
	for i := 0; i < 1000; i++ {
		owner := fmt.Sprint("rs", (i*7)%2)
		updates = append(updates, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint("p", i*7), ResourceVersion: "3",
			Labels:          map[string]string{"app": "web", "pod-template-hash": owner},
			OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: types.UID("uid-" + owner), Controller: &controller}}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		s.restore(&cp)
		for _, p := range updates {
			s.put(p)
		}
	}
}
