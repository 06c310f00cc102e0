package podutil

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

func TestGetPodsToDeleteOracle(t *testing.T) {
	type in struct {
		Diff        int
		Pods        []oraclePod
		RelatedPods []oraclePod `json:"relatedPods"`
		Now         string
	}
	type want struct {
		ToDelete []string `json:"toDelete"`
	}
	f := loadOracle[in, want](t, "get_pods_to_delete.json")
	passed := 0
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			pods := toPods(t, c.Input.Pods)
			related := pods
			if c.Input.RelatedPods != nil {
				related = toPods(t, c.Input.RelatedPods)
			}
			// Upstream cases take now from the wall clock; their pods have no
			// timestamps, so any instant works. Extras carry their now.
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			if c.Input.Now != "" {
				now = parseTime(t, c.Input.Now)
			}
			got := podNames(GetPodsToDelete(pods, related, c.Input.Diff, now))
			if !slices.Equal(got, c.Expected.ToDelete) {
				t.Fatalf("toDelete = %v, want %v", got, c.Expected.ToDelete)
			}
			passed++
		})
	}
	t.Logf("get_pods_to_delete: %d/%d cases pass", passed, len(f.Cases))
}

func TestGetPodsToDeleteDiffBounds(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "running"}, Spec: corev1.PodSpec{NodeName: "n"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		{ObjectMeta: metav1.ObjectMeta{Name: "pending"}, Spec: corev1.PodSpec{NodeName: "n"}, Status: corev1.PodStatus{Phase: corev1.PodPending}},
	}
	if got := podNames(GetPodsToDelete(slices.Clone(pods), pods, 5, now)); !slices.Equal(got, []string{"running", "pending"}) {
		t.Errorf("diff above len: %v (want all, input order)", got)
	}
	if got := GetPodsToDelete(slices.Clone(pods), pods, -1, now); len(got) != 0 {
		t.Errorf("negative diff: %v", podNames(got))
	}
	if got := podNames(GetPodsToDelete(slices.Clone(pods), pods, 1, now)); !slices.Equal(got, []string{"pending"}) {
		t.Errorf("diff 1: %v", got)
	}
}

func TestRankByRelatedPodsOnNodeExample(t *testing.T) {
	mk := func(name, node string, active bool) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PodSpec{NodeName: node}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
		if !active {
			p.Status.Phase = corev1.PodSucceeded
		}
		return p
	}
	related := []*corev1.Pod{mk("a", "n1", true), mk("b", "n1", true), mk("c", "n2", true), mk("done", "n2", false), mk("u", "", true)}
	toRank := []*corev1.Pod{mk("x", "n1", true), mk("y", "n2", true), mk("z", "n3", true), mk("w", "", true)}
	got := RankByRelatedPodsOnNode(toRank, related, time.Time{}).Rank
	if !slices.Equal(got, []int{2, 1, 0, 1}) {
		t.Fatalf("ranks = %v, want [2 1 0 1]", got)
	}
}

func TestGetPodsToDeleteExplained(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	mk := func(name, uid, node string, readyAgo time.Duration) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(uid), CreationTimestamp: metav1.NewTime(now.Add(-readyAgo - time.Second))},
			Spec:       corev1.PodSpec{NodeName: node},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{
				Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-readyAgo)),
			}}},
		}
	}
	pods := []*corev1.Pod{
		mk("old", "a", "n1", 10*time.Hour),
		mk("young", "c", "n3", time.Minute),
		mk("pending", "d", "", 0),
		mk("mid", "b", "n2", time.Hour),
	}
	pods[2].Status = corev1.PodStatus{Phase: corev1.PodPending}
	victims, rec := GetPodsToDeleteExplained("default/web", pods, pods, 2, now, 1)
	if got := podNames(victims); !slices.Equal(got, []string{"pending", "young"}) {
		t.Fatalf("victims %v", got)
	}
	if !rec.Sorted || rec.Candidates != 4 || rec.Diff != 2 || len(rec.Pods) != 3 {
		t.Fatalf("record %+v", rec)
	}
	if rec.Pods[0].DecidedBy != RuleUnscheduled || rec.Pods[1].DecidedBy != RuleReadyTime || rec.Pods[1].Before != "mid" {
		t.Errorf("decided by: %+v", rec.Pods)
	}
	if !rec.Pods[1].Victim || rec.Pods[2].Victim || rec.Pods[2].Name != "mid" {
		t.Errorf("victim flags: %+v", rec.Pods)
	}
	if rec.Pods[1].ReadyBucket == nil || *rec.Pods[1].ReadyBucket != LogBucket(now, now.Add(-time.Minute)) {
		t.Errorf("ready bucket of young: %v", rec.Pods[1].ReadyBucket)
	}
	if rec.Pods[0].ReadyBucket != nil || rec.Pods[0].Assigned || rec.Pods[0].Rank != 1 {
		t.Errorf("pending entry: %+v", rec.Pods[0])
	}
	wantText := "default/web delete 2 of 4 ranked: pending [unscheduled] young [ready-time] | keep mid"
	if got := rec.Text(); got != wantText {
		t.Errorf("Text()\n%s\nwant\n%s", got, wantText)
	}
	if rec.Kind() != trace.KindDecision {
		t.Errorf("kind %v", rec.Kind())
	}
	b, err := json.Marshal(rec)
	if err != nil || !strings.Contains(string(b), `"decidedBy":"ready-time"`) {
		t.Errorf("json %s, %v", b, err)
	}

	// diff >= candidates: no ranking, input order, all victims.
	all, rec2 := GetPodsToDeleteExplained("default/web", slices.Clone(pods), pods, 4, now, 3)
	if len(all) != 4 || rec2.Sorted || len(rec2.Pods) != 4 || rec2.Pods[0].Rank != -1 {
		t.Errorf("unsorted record %+v", rec2)
	}
	if got := rec2.Text(); !strings.HasPrefix(got, "default/web delete 4 of 4 unsorted (all): ") {
		t.Errorf("unsorted text %q", got)
	}
}
