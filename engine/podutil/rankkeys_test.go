package podutil

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TestRankKeysSortLikeThePods: sorting with rank keys computed once gives
// the same order, ties included, as comparing the pods at every step, and
// Compare answers the same for every pair.
func TestRankKeysSortLikeThePods(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for round := 0; round < 20; round++ {
		n := 50 + r.IntN(200)
		pods := make([]*corev1.Pod, n)
		ranks := make([]int, n)
		for i := range pods {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
				Name: "p" + strconv.Itoa(i), UID: types.UID(strconv.Itoa(r.IntN(n))),
				CreationTimestamp: metav1.NewTime(now.Add(-time.Duration(r.IntN(4)) * time.Minute)),
			}}
			if r.IntN(4) > 0 {
				p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(3))
			}
			p.Status.Phase = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodUnknown}[r.IntN(3)]
			if r.IntN(2) == 0 {
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
					LastTransitionTime: metav1.NewTime(now.Add(-time.Duration(r.IntN(3)) * time.Minute))}}
			}
			if r.IntN(5) == 0 {
				p.Annotations = map[string]string{DeletionCostAnnotation: strconv.Itoa(r.IntN(3))}
			}
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{RestartCount: int32(r.IntN(2))}}
			pods[i], ranks[i] = p, r.IntN(3)
		}
		plain := ActivePodsWithRanks{Pods: append([]*corev1.Pod(nil), pods...), Rank: append([]int(nil), ranks...), Now: now}
		keyed := ActivePodsWithRanks{Pods: append([]*corev1.Pod(nil), pods...), Rank: append([]int(nil), ranks...), Now: now}.withKeys()
		for i := 0; i < n; i++ {
			j := r.IntN(n)
			r1, f1 := plain.Compare(i, j)
			r2, f2 := keyed.Compare(i, j)
			if r1 != r2 || f1 != f2 {
				t.Fatalf("round %d: Compare(%d,%d) = %v %v with keys, %v %v without", round, i, j, r2, f2, r1, f1)
			}
		}
		sort.Sort(plain)
		sort.Sort(keyed)
		for i := range pods {
			if plain.Pods[i] != keyed.Pods[i] || plain.Rank[i] != keyed.Rank[i] || keyed.keys[i] != rankKeyOf(keyed.Pods[i], now) {
				t.Fatalf("round %d: position %d differs: %s vs %s", round, i, plain.Pods[i].Name, keyed.Pods[i].Name)
			}
		}
	}
}
