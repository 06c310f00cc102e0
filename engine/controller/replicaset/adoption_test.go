package replicaset

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// The seed demo: pod "test" (env=prod, Running) exists before ReplicaSet
// "replicatest" (replicas 2, selector env=prod). The ReplicaSet adopts
// "test" and creates exactly one more pod.
func TestAdoptionSeedDemo(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createPod("test", prod, nil)
	e.run("test", "node-1", true)
	e.deliver()
	rs := e.createRS("replicatest", 2, 0)
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	expectLines(t, "adoption sync", got[:6], []string{
		"sync default/replicatest start (reasons: replicaset default/replicatest added)",
		"expectations default/replicatest: no record add=0 del=0 -> sync",
		"can-adopt ReplicaSet default/replicatest: live GET ok",
		"ReplicaSet default/replicatest adopt Pod default/test: done (orphan labels env=prod match selector env=prod)",
		"claim ReplicaSet default/replicatest (env=prod): 1 of 1 claimed; kept 0, adopted 1 [test], released 0, other owner 0, skipped 0, failed 0",
		"manage default/replicatest: active 1, desired 2, diff -1 -> create 1 (slow start batches 1)",
	})
	e.settle()
	live, err := e.srv.GetPod("default", "test")
	if err != nil {
		t.Fatal(err)
	}
	ref := metav1.GetControllerOf(live)
	if ref == nil || ref.Name != "replicatest" || ref.UID != rs.UID || !*ref.BlockOwnerDeletion {
		t.Errorf("test's controller ref = %+v", ref)
	}
	if pods := e.livePods(); len(pods) != 2 {
		t.Errorf("pods %v, want test plus exactly one created", pods)
	}
	if st := e.liveRS("replicatest").Status; st.Replicas != 2 || st.ReadyReplicas != 1 {
		t.Errorf("status %+v", st)
	}
	// Adoptions record no Event: only the one create.
	expectLines(t, "events", e.events(), []string{"Normal SuccessfulCreate Created pod: " + otherThan(e.livePods(), "test")})
}

func otherThan(names []string, not string) string {
	for _, n := range names {
		if n != not {
			return n
		}
	}
	return ""
}

// A pod controlled by another owner is never a candidate, even when the
// selector matches it: it is not adopted and the ReplicaSet creates its own.
func TestNoAdoptionOfPodsControlledByAnotherOwner(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	other := e.createRS("other", 1, 0)
	e.createPod("foreign", prod, other)
	e.deliver()
	e.createRS("web", 1, 0)
	e.deliver()
	e.settle()
	live, _ := e.srv.GetPod("default", "foreign")
	if !podutil.IsControlledBy(live, other.UID) {
		t.Error("foreign pod changed owner")
	}
	web := e.liveRS("web")
	owned := 0
	for _, p := range e.srv.ListPods("default", nil) {
		if podutil.IsControlledBy(p, web.UID) {
			owned++
		}
	}
	if owned != 1 {
		t.Errorf("web controls %d pods, want 1 of its own", owned)
	}
}

// A pod whose labels stop matching is released, and the ReplicaSet
// replaces it.
func TestReleaseOnLabelChangeAndReplacement(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 1, 0)
	e.settle()
	pods := e.srv.ListPods("default", nil)
	if len(pods) != 1 {
		t.Fatalf("pods %v", e.livePods())
	}
	moved := pods[0].DeepCopy()
	moved.Labels = map[string]string{"env": "debug"}
	if _, err := e.srv.UpdatePod("kubectl", moved); err != nil {
		t.Fatal(err)
	}
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	want := "ReplicaSet default/web release Pod default/" + moved.Name + ": done (labels env=debug no longer match selector env=prod)"
	if got[2] != want {
		t.Errorf("release record\n got %q\nwant %q", got[2], want)
	}
	if got[4] != "manage default/web: active 0, desired 1, diff -1 -> create 1 (slow start batches 1)" {
		t.Errorf("replacement decision %q", got[4])
	}
	e.settle()
	live, _ := e.srv.GetPod("default", moved.Name)
	if len(live.OwnerReferences) != 0 {
		t.Errorf("released pod still has refs %+v", live.OwnerReferences)
	}
	if n := len(e.livePods()); n != 2 {
		t.Errorf("%d pods, want the released one plus its replacement", n)
	}
}

// Two ReplicaSets selecting one orphan: a user error is reported and both
// are enqueued.
func TestOrphanMatchedByTwoReplicaSets(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("a", 0, 0)
	e.createRS("b", 0, 0)
	e.settle()
	e.resetMark()
	e.createPod("lonely", prod, nil)
	e.deliver()
	got := e.since(func(trace.Payload) bool { return true })
	if countPrefix(got, "default/lonely: user error! more than one ReplicaSet is selecting pods with labels: map[env:prod]") != 1 {
		t.Errorf("no user-error note in %v", got)
	}
	if n := e.rc.Queue().Len(); n != 2 {
		t.Errorf("queue length %d, want both ReplicaSets", n)
	}
}
