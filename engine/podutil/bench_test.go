package podutil

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// benchPods builds n varied pods deterministically (no randomness).
func benchPods(n int, now time.Time) []*corev1.Pod {
	phases := []corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodPending, corev1.PodUnknown}
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		age := time.Duration((i*7919)%86400) * time.Second
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("p-%05d", i), UID: types.UID(fmt.Sprintf("uid-%05d", (i*104729)%n)),
				Labels:            map[string]string{"app": "web"},
				CreationTimestamp: metav1.NewTime(now.Add(-age - time.Minute)),
			},
			Spec:   corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", i%37)},
			Status: corev1.PodStatus{Phase: phases[i%len(phases)]},
		}
		if i%5 != 0 {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-age))}}
		}
		if i%11 == 0 {
			p.Annotations = map[string]string{DeletionCostAnnotation: fmt.Sprint(i % 3)}
		}
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", RestartCount: int32(i % 4)}}
		pods[i] = p
	}
	return pods
}

func BenchmarkGetPodsToDelete10k(b *testing.B) {
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	pods := benchPods(10000, now)
	b.ReportAllocs()
	for b.Loop() {
		GetPodsToDelete(slices.Clone(pods), pods, 500, now)
	}
}

func BenchmarkCalculateReplicaSetStatus10k(b *testing.B) {
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	pods := benchPods(10000, now)
	rs := newRS(10000, map[string]string{"app": "web"})
	b.ReportAllocs()
	for b.Loop() {
		CalculateReplicaSetStatus(rs, pods, 0, nil, 30, now)
	}
}
