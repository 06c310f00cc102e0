package podutil

import (
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestActiveAndTerminating(t *testing.T) {
	ts := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		phase       corev1.PodPhase
		deleting    bool
		active      bool
		terminating bool
	}{
		{corev1.PodPending, false, true, false},
		{corev1.PodRunning, false, true, false},
		{corev1.PodUnknown, false, true, false},
		{corev1.PodSucceeded, false, false, false},
		{corev1.PodFailed, false, false, false},
		{corev1.PodRunning, true, false, true},
		{corev1.PodPending, true, false, true},
		{corev1.PodFailed, true, false, false},
		{corev1.PodSucceeded, true, false, false},
	}
	var pods []*corev1.Pod
	var wantActive []string
	for i, c := range cases {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: string(rune('a' + i))}, Status: corev1.PodStatus{Phase: c.phase}}
		if c.deleting {
			p.DeletionTimestamp = &ts
		}
		if IsPodActive(p) != c.active || IsPodTerminating(p) != c.terminating {
			t.Errorf("%s deleting=%v: active=%v terminating=%v", c.phase, c.deleting, IsPodActive(p), IsPodTerminating(p))
		}
		pods = append(pods, p)
		if c.active {
			wantActive = append(wantActive, p.Name)
		}
	}
	if got := podNames(FilterActivePods(pods)); !slices.Equal(got, wantActive) {
		t.Errorf("FilterActivePods = %v, want %v", got, wantActive)
	}
}

// TestIsPodAvailableExample checks IsPodAvailable's doc example and edges.
func TestIsPodAvailableExample(t *testing.T) {
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := readyPodAt(noon)
	if IsPodAvailable(p, 60, noon.Add(59*time.Second)) {
		t.Error("available before minReadySeconds elapsed")
	}
	if !IsPodAvailable(p, 60, noon.Add(60*time.Second)) {
		t.Error("not available exactly at the bound (inclusive)")
	}
	if !IsPodAvailable(p, 0, noon) {
		t.Error("minReady 0: ready means available")
	}
	if IsPodAvailable(readyPodAt(time.Time{}), 1, noon.Add(time.Hour)) {
		t.Error("zero ready time must never be available with minReady > 0")
	}
	notReady := readyPodAt(noon)
	notReady.Status.Conditions[0].Status = corev1.ConditionFalse
	if IsPodAvailable(notReady, 0, noon) || IsPodReady(notReady) || !PodReadySince(notReady).IsZero() {
		t.Error("not-ready pod")
	}
	if !PodReadySince(p).Equal(noon) {
		t.Error("PodReadySince")
	}
}
