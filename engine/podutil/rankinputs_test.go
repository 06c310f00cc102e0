package podutil

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// randomRankPod is a pod that exercises every ranking rule: nodes (some
// unscheduled), phases, readiness with and without a transition time, valid
// and invalid deletion costs, restarts, sidecar restarts, zero and equal
// creation times, repeated UIDs.
func randomRankPod(r *rand.Rand, i, n int, now time.Time) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: types.UID(strconv.Itoa(r.IntN(n)))}}
	switch r.IntN(8) {
	case 0:
	case 1:
		p.CreationTimestamp = metav1.NewTime(time.Date(1, 1, 1, 0, 0, r.IntN(2), 0, time.UTC))
	case 2:
		p.CreationTimestamp = metav1.NewTime(time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC))
	default:
		p.CreationTimestamp = metav1.NewTime(now.Add(-time.Duration(r.IntN(5)) * time.Minute))
	}
	if r.IntN(4) > 0 {
		p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(3))
	}
	p.Status.Phase = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodUnknown, ""}[r.IntN(4)]
	switch r.IntN(4) {
	case 0:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now.Add(-time.Duration(r.IntN(3)) * time.Hour))}}
	case 1:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	case 2:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	}
	switch r.IntN(5) {
	case 0:
		p.Annotations = map[string]string{DeletionCostAnnotation: []string{"-2147483648", "2147483647", "-1", "0", "3"}[r.IntN(5)]}
	case 1:
		p.Annotations = map[string]string{DeletionCostAnnotation: "+7"}
	}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{RestartCount: int32(r.IntN(3))}}
	if r.IntN(3) == 0 {
		always := corev1.ContainerRestartPolicyAlways
		p.Spec.InitContainers = []corev1.Container{{Name: "side", RestartPolicy: &always}}
		p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "side", RestartCount: int32(r.IntN(3))}}
	}
	return p
}

// A ranking fed the pods' nodes and RankInputsOf chooses the same victims in
// the same order and records the same DeletionRanking as one reading the
// pods, ties included.
func TestRankingWithKnownInputsEqualsReadingPods(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for round := 0; round < 40; round++ {
		n := 20 + r.IntN(150)
		pods := make([]*corev1.Pod, n)
		for i := range pods {
			pods[i] = randomRankPod(r, i, n, now)
		}
		known := &KnownRankInputs{}
		for _, p := range pods {
			known.Nodes = append(known.Nodes, p.Spec.NodeName)
			known.Inputs = append(known.Inputs, RankInputsOf(p))
		}
		var ages rankAges // shared by the round's pods, as a ranking shares it
		for i, p := range pods {
			if got, want := rankKeyFrom(known.Nodes[i], &known.Inputs[i], now, &ages), rankKeyOf(p, now); got != want {
				t.Fatalf("round %d pod %d: key from inputs %+v, from pod %+v", round, i, got, want)
			}
		}
		diff := 1 + r.IntN(n)
		perNode := func() map[string]int { return ActivePerNode(pods) }
		v1, rec1 := GetPodsToDeleteExplainedByNodeCounts("default/web", slices.Clone(pods), nil, perNode, diff, now, 5)
		v2, rec2 := GetPodsToDeleteExplainedByNodeCounts("default/web", slices.Clone(pods), known, perNode, diff, now, 5)
		j1, _ := json.Marshal(rec1)
		j2, _ := json.Marshal(rec2)
		if !slices.Equal(v1, v2) || string(j1) != string(j2) {
			t.Fatalf("round %d (diff %d): with inputs %s, reading pods %s", round, diff, j2, j1)
		}
	}
}

func TestPackTimeRoundTrip(t *testing.T) {
	for _, tm := range []time.Time{{}, time.Unix(0, 0), time.Date(2026, 1, 1, 12, 0, 0, 5, time.UTC), time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(1, 1, 2, 0, 0, 0, 0, time.FixedZone("x", 3600)), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)} {
		if got := unpackTime(packTime(tm)); !got.Equal(tm) || got.IsZero() != tm.IsZero() {
			t.Errorf("round trip of %v gives %v", tm, got)
		}
	}
}

// rankKeyOf reads each field from the pod: two pods whose every field
// differs give the keys written out here. rankKeyFrom, its copy for packed
// inputs, is held to it by TestRankingWithKnownInputsEqualsReadingPods;
// this test holds both to the pod.
func TestRankKeyReadsThePod(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	readyAt, created := now.Add(-90*time.Second), now.Add(-time.Hour+7)
	always := corev1.ContainerRestartPolicyAlways
	running := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{UID: "0123456789ab", CreationTimestamp: metav1.NewTime(created),
			Annotations: map[string]string{DeletionCostAnnotation: "-7"}},
		Spec: corev1.PodSpec{NodeName: "n1", InitContainers: []corev1.Container{{Name: "side", RestartPolicy: &always}}},
		Status: corev1.PodStatus{
			Phase:                 corev1.PodRunning,
			Conditions:            []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(readyAt)}},
			ContainerStatuses:     []corev1.ContainerStatus{{RestartCount: 3}},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "side", RestartCount: 5}},
		},
	}
	unknown := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{UID: "z"}, Status: corev1.PodStatus{Phase: corev1.PodUnknown}}
	for _, c := range []struct {
		pod  *corev1.Pod
		want rankKey
	}{
		{running, rankKey{ready: true, phase: 2, cost: -7, restarts: 3, sidecar: 5,
			readySince: ageOf(now, readyAt), created: ageOf(now, created), uidPrefix: 0x3031323334353637}},
		{unknown, rankKey{unscheduled: true, phase: 1, readySince: ageOf(now, time.Time{}), created: ageOf(now, time.Time{}), uidPrefix: 0x7a << 56}},
	} {
		if got := rankKeyOf(c.pod, now); got != c.want {
			t.Errorf("pod %s: key %+v, want %+v", c.pod.UID, got, c.want)
		}
	}
}
