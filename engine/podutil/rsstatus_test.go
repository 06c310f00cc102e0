package podutil

import (
	"errors"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func newRS(replicas int32, tmplLabels map[string]string) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "rs", Generation: 1},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: tmplLabels}},
		},
	}
}

func TestCalculateReplicaSetStatusOracle(t *testing.T) {
	type in struct {
		ActivePods          []oraclePod `json:"activePods"`
		ManageReplicasError bool        `json:"manageReplicasError"`
		MinReadySeconds     int32       `json:"minReadySeconds"`
		Now                 string
		SpecReplicas        int32             `json:"specReplicas"`
		TemplateLabels      map[string]string `json:"templateLabels"`
		TerminatingPodCount int               `json:"terminatingPodCount"`
	}
	type cond struct{ Reason, Status, Type string }
	type want struct {
		AvailableReplicas    int32 `json:"availableReplicas"`
		Conditions           []cond
		FullyLabeledReplicas int32 `json:"fullyLabeledReplicas"`
		ReadyReplicas        int32 `json:"readyReplicas"`
		Replicas             int32
		TerminatingReplicas  *int32 `json:"terminatingReplicas"`
	}
	f := loadOracle[in, want](t, "replicaset_calculate_status.json")
	passed := 0
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			rs := newRS(c.Input.SpecReplicas, c.Input.TemplateLabels)
			var manageErr error
			if c.Input.ManageReplicasError {
				manageErr = errors.New("fake manageReplicasErr")
			}
			now := parseTime(t, c.Input.Now)
			got := CalculateReplicaSetStatus(rs, toPods(t, c.Input.ActivePods), c.Input.TerminatingPodCount, manageErr, c.Input.MinReadySeconds, now)
			w := c.Expected
			if got.Replicas != w.Replicas || got.FullyLabeledReplicas != w.FullyLabeledReplicas ||
				got.ReadyReplicas != w.ReadyReplicas || got.AvailableReplicas != w.AvailableReplicas ||
				!int32PtrEqual(got.TerminatingReplicas, w.TerminatingReplicas) {
				t.Fatalf("status %+v, want %+v", got, w)
			}
			if len(got.Conditions) != len(w.Conditions) {
				t.Fatalf("conditions %+v, want %+v", got.Conditions, w.Conditions)
			}
			for i, wc := range w.Conditions {
				gc := got.Conditions[i]
				if string(gc.Type) != wc.Type || string(gc.Status) != wc.Status || gc.Reason != wc.Reason {
					t.Fatalf("condition %d = %+v, want %+v", i, gc, wc)
				}
				if gc.Message != manageErr.Error() || !gc.LastTransitionTime.Time.Equal(now) {
					t.Fatalf("condition %d message/time = %q %v", i, gc.Message, gc.LastTransitionTime)
				}
			}
			passed++
		})
	}
	t.Logf("replicaset_calculate_status: %d/%d cases pass", passed, len(f.Cases))
}

func TestReplicaFailureConditionRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := func() *corev1.Pod { return &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning}} }
	boom := errors.New("boom")

	rs := newRS(1, nil)
	// Too many pods and an error: FailedDelete.
	st := CalculateReplicaSetStatus(rs, []*corev1.Pod{pod(), pod()}, 0, boom, 0, now)
	if len(st.Conditions) != 1 || st.Conditions[0].Reason != ReasonFailedDelete || st.Conditions[0].Message != "boom" {
		t.Fatalf("FailedDelete: %+v", st.Conditions)
	}
	// Equal counts and an error: empty reason.
	if st := CalculateReplicaSetStatus(rs, []*corev1.Pod{pod()}, 0, boom, 0, now); st.Conditions[0].Reason != "" {
		t.Fatalf("equal counts: %+v", st.Conditions)
	}
	// An existing condition is kept untouched on a new error.
	rs.Status.Conditions = []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: ReasonFailedCreate, Message: "old"}}
	st = CalculateReplicaSetStatus(rs, nil, 0, errors.New("new"), 0, now.Add(time.Hour))
	if len(st.Conditions) != 1 || st.Conditions[0].Message != "old" || !st.Conditions[0].LastTransitionTime.IsZero() {
		t.Fatalf("kept: %+v", st.Conditions)
	}
	// Success removes it; rs itself is untouched.
	st = CalculateReplicaSetStatus(rs, nil, 3, nil, 0, now)
	if st.Conditions != nil || len(rs.Status.Conditions) != 1 {
		t.Fatalf("removed: %+v, rs %+v", st.Conditions, rs.Status.Conditions)
	}
	if *st.TerminatingReplicas != 3 {
		t.Fatalf("terminating %v", *st.TerminatingReplicas)
	}
}

func TestStatusUnchanged(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rs := newRS(1, nil)
	rs.Status.ObservedGeneration = 1
	zero := int32(0)
	rs.Status.TerminatingReplicas = &zero
	st := CalculateReplicaSetStatus(rs, nil, 0, nil, 0, now)
	if !StatusUnchanged(rs, st) {
		t.Fatal("same status should be unchanged")
	}
	rs.Generation = 2
	if StatusUnchanged(rs, st) {
		t.Fatal("generation ahead of observedGeneration must write")
	}
	rs.Generation = 1
	st.TerminatingReplicas = nil
	if StatusUnchanged(rs, st) {
		t.Fatal("nil vs &0 terminating must write")
	}
	st.TerminatingReplicas = &zero
	st.ReadyReplicas = 1
	if StatusUnchanged(rs, st) {
		t.Fatal("ready change must write")
	}
	st.ReadyReplicas = 0
	st.Conditions = []appsv1.ReplicaSetCondition{}
	if StatusUnchanged(rs, st) {
		t.Fatal("nil vs empty conditions differ under deep equality")
	}
}

func readyPodAt(since time.Time) *corev1.Pod {
	return &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{
		Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(since),
	}}}}
}

func TestNextAvailabilityCheck(t *testing.T) {
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	now := noon.Add(30 * time.Second)
	// Doc example: ready since 12:00:00 and 12:00:20, minReady 60s, now 12:00:30.
	after, ok := NextAvailabilityCheck([]*corev1.Pod{readyPodAt(noon), readyPodAt(noon.Add(20 * time.Second))}, 60, now)
	if !ok || after != 30*time.Second {
		t.Fatalf("doc example: %v %v", after, ok)
	}
	// Already-available pods do not count; nothing pending means no requeue.
	if _, ok := NextAvailabilityCheck([]*corev1.Pod{readyPodAt(noon.Add(-time.Hour))}, 60, now); ok {
		t.Fatal("all available: no requeue")
	}
	// minReadySeconds 0: no requeue.
	if _, ok := NextAvailabilityCheck([]*corev1.Pod{readyPodAt(now)}, 0, now); ok {
		t.Fatal("minReady 0: no requeue")
	}
	// Only a ready pod without transition time: fall back to minReadySeconds.
	if after, ok := NextAvailabilityCheck([]*corev1.Pod{readyPodAt(time.Time{})}, 45, now); !ok || after != 45*time.Second {
		t.Fatalf("fallback: %v %v", after, ok)
	}
}
