package replicaset

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

func (e *env) deliverPodsOnly() {
	e.pods.Observe()
	for e.pods.DeliverNext() {
	}
}

func (e *env) deliverRSOnly() {
	e.rss.Observe()
	for e.rss.DeliverNext() {
	}
}

// A pod becoming ready under minReadySeconds 10 is available exactly 10s
// later (inclusive), and the ReplicaSet is requeued for that very moment.
func TestMinReadySecondsAvailabilityRequeue(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 1, 10)
	e.settle()
	pod := e.livePods()[0]
	e.run(pod, "node-1", true)
	e.resetMark()
	e.deliver()
	queued := e.since(func(p trace.Payload) bool { return p.Kind() == trace.KindQueue })
	want := "replicaset add-after default/web (pod " + pod + " became ready: availability check after minReadySeconds 10) delay 10s -> waiting until +10.000s"
	if countPrefix(queued, want) != 1 {
		t.Errorf("no %q in\n%s", want, strings.Join(queued, "\n"))
	}
	e.settle()
	got := e.since(decisions)
	if last := got[len(got)-1]; last != "sync default/web done: ok, availability check in 10s" {
		t.Errorf("last record %q", last)
	}
	if st := e.liveRS("web").Status; st.ReadyReplicas != 1 || st.AvailableReplicas != 0 {
		t.Errorf("status before minReadySeconds %+v", st)
	}
	at, ok := e.rc.Queue().NextReadyAt()
	if !ok || !at.Equal(e.clock.Now().Add(10*time.Second)) {
		t.Fatalf("next ready at %v %v", at, ok)
	}
	e.advance(10*time.Second - time.Nanosecond)
	if e.rc.Queue().Len() != 0 {
		t.Fatal("requeued before the pod is available")
	}
	e.advance(time.Nanosecond)
	e.settle()
	if st := e.liveRS("web").Status; st.AvailableReplicas != 1 {
		t.Errorf("status at exactly LTT+10s %+v", st)
	}
	if _, ok := e.rc.Queue().NextReadyAt(); ok {
		t.Error("no further availability check should be pending")
	}
}

// A terminating pod is not counted: it is replaced at once and reported in
// terminatingReplicas while it terminates.
func TestTerminatingPodsAreReplacedImmediately(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 2, 0)
	e.settle()
	names := e.livePods()
	for _, n := range names {
		e.run(n, "node-1", true)
	}
	e.settle()
	if err := e.srv.DeletePod("kubectl", "default", names[0], apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	if got[0] != "sync default/web start (reasons: pod "+names[0]+" terminating (deletion observed))" {
		t.Errorf("start record %q", got[0])
	}
	if got[3] != "manage default/web: active 1, desired 2, diff -1 -> create 1 (slow start batches 1)" {
		t.Errorf("decision %q", got[3])
	}
	e.settle()
	st := e.liveRS("web").Status
	if st.Replicas != 2 || st.TerminatingReplicas == nil || *st.TerminatingReplicas != 1 {
		t.Errorf("status %+v", st)
	}
	if n := len(e.livePods()); n != 3 {
		t.Errorf("%d pods, want 2 active + 1 terminating", n)
	}
}

// An unchanged status is not written: a resync makes no API request.
func TestStatusWriteSkippedWhenUnchanged(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 2, 0)
	e.settle()
	e.rc.Queue().Add("default/web", "resync")
	e.resetMark()
	e.sync()
	mark := e.mark
	got := e.since(decisions)
	want := "status default/web: replicas 2, ready 0, available 0, terminating 0 -> unchanged, write skipped"
	if countPrefix(got, want) != 1 {
		t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
	}
	e.mark = mark
	if reqs := e.since(controllerRequests); len(reqs) != 0 {
		t.Errorf("requests %v", reqs)
	}
}

// A status write against a stale cached ReplicaSet gets a 409, and is
// retried once after a GET.
func TestStatusWriteRetriesOnceAfterGet(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 1, 0)
	e.settle()
	// Someone else updates the ReplicaSet; the cache does not see it yet.
	rs := e.liveRS("web").DeepCopy()
	rs.Annotations = map[string]string{"touched": "yes"}
	if _, err := e.srv.UpdateReplicaSet("kubectl", rs); err != nil {
		t.Fatal(err)
	}
	e.run(e.livePods()[0], "node-1", true)
	e.deliverPodsOnly()
	e.resetMark()
	e.sync()
	mark := e.mark
	reqs := e.since(controllerRequests)
	if len(reqs) != 2 || !strings.Contains(reqs[0], "update replicasets/status default/web -> 409") ||
		!strings.Contains(reqs[1], "update replicasets/status default/web -> 200") {
		t.Errorf("requests %v", reqs)
	}
	e.mark = mark
	got := e.since(decisions)
	if countPrefix(got, "status default/web: replicas 1, ready 1, available 1, terminating 0 -> written rv=") != 1 ||
		!strings.Contains(strings.Join(got, "\n"), "(after a GET and retry)") {
		t.Errorf("records\n%s", strings.Join(got, "\n"))
	}
	if st := e.liveRS("web").Status; st.ReadyReplicas != 1 {
		t.Errorf("status %+v", st)
	}
}

// Pod creates the API server refuses (here 503s; a quota or an admission
// webhook refuses the same way): the first slow-start batch fails, the
// remaining creations are un-expected, a FailedCreate Event and the
// ReplicaFailure condition are written, and the key is retried.
func TestFailedCreateEventAndCondition(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.rc.podControl = &flakyPods{srv: e.srv}
	three := int32(3)
	_, err := e.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
		ObjectMeta: metaNS("web"),
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &three,
			Selector: selectorOf(prod),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: labelsOnly(prod),
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	text := strings.Join(got, "\n")
	if countPrefix(got, "Warning FailedCreate ReplicaSet default/web: Error creating: ") != 1 {
		t.Errorf("want one FailedCreate event:\n%s", text)
	}
	if countPrefix(got, "manage default/web: create 0 of 3 succeeded, 2 never attempted, expectations lowered by 3: ") != 1 {
		t.Errorf("manage result:\n%s", text)
	}
	if countPrefix(got, "status default/web: replicas 0, ready 0, available 0, terminating 0, ReplicaFailure FailedCreate -> written") != 1 {
		t.Errorf("status:\n%s", text)
	}
	if countPrefix(got, "sync default/web done: error ") != 1 || !strings.Contains(got[len(got)-1], "-> rate-limited retry #1") {
		t.Errorf("sync end %q", got[len(got)-1])
	}
	if add, _, _ := e.rc.Expectations().Get("default/web"); add != 0 {
		t.Errorf("add=%d, want every failed or skipped create un-expected", add)
	}
	conds := e.liveRS("web").Status.Conditions
	if len(conds) != 1 || conds[0].Type != appsv1.ReplicaSetReplicaFailure || conds[0].Reason != "FailedCreate" ||
		!strings.Contains(conds[0].Message, "injected create failure") {
		t.Errorf("conditions %+v", conds)
	}
	evs := e.events()
	if len(evs) != 1 || !strings.HasPrefix(evs[0], "Warning FailedCreate Error creating: injected create failure") {
		t.Errorf("events %v", evs)
	}
	ev := e.srv.ListEvents("default")[0]
	if ev.Source.Component != ControllerName || ev.InvolvedObject.Kind != "ReplicaSet" || ev.InvolvedObject.Name != "web" {
		t.Errorf("event %+v", ev)
	}
}

// Deleting a pod that is already gone is not an error and records no Event;
// its expectation is lowered at once.
func TestDeleteNotFoundIsQuiet(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 2, 0)
	e.settle()
	names := e.livePods()
	if err := e.srv.DeletePod("kubectl", "default", names[0], apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.scaleRS("web", 0)
	e.deliverRSOnly()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	text := strings.Join(got, "\n")
	if countPrefix(got, "Normal SuccessfulDelete") != 1 || countPrefix(got, "Warning") != 0 {
		t.Errorf("events:\n%s", text)
	}
	if countPrefix(got, "manage default/web: delete 1 of 2 succeeded, expectations lowered by 1") != 1 {
		t.Errorf("result:\n%s", text)
	}
	if got[len(got)-1] != "sync default/web done: ok" {
		t.Errorf("end %q", got[len(got)-1])
	}
	if _, del, _ := e.rc.Expectations().Get("default/web"); del != 1 {
		t.Errorf("del=%d, want 1 (only the pod really deleted)", del)
	}
}
