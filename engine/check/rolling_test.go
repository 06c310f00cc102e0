package check

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// world is a cluster built by hand: no controllers, so the test decides
// exactly which pods exist.
type world struct {
	t   *testing.T
	c   *clock.Clock
	srv *apiserver.Server
	d   *appsv1.Deployment
}

func newWorld(t *testing.T, replicas int32) *world {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	w := &world{t: t, c: c, srv: apiserver.New(c, rng.New(1).Stream("api"), rec)}
	surge, unav := intstr.FromInt32(1), intstr.FromInt32(1)
	lbl := map[string]string{"app": "web"}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: lbl},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unav}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: lbl},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "v1"}}}}}}
	var err error
	if w.d, err = w.srv.CreateDeployment("test", d); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) replicaSet(name, image string) *appsv1.ReplicaSet {
	w.t.Helper()
	tr := true
	zero := int32(0)
	lbl := map[string]string{"app": "web", "v": name}
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: lbl,
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: w.d.UID, Controller: &tr}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &zero, Selector: &metav1.LabelSelector{MatchLabels: lbl},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: lbl},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}}}}}
	out, err := w.srv.CreateReplicaSet("test", rs)
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

// pod creates a pod of rs, ready (and so available) or not.
func (w *world) pod(rs *appsv1.ReplicaSet, name string, ready bool) {
	w.t.Helper()
	tr := true
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: rs.Spec.Template.Labels,
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &tr}}},
		Spec: rs.Spec.Template.Spec}
	created, err := w.srv.CreatePod("test", p)
	if err != nil {
		w.t.Fatal(err)
	}
	if ready {
		created = created.DeepCopy()
		created.Status.Phase = corev1.PodRunning
		created.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(w.c.Now())}}
		if _, err := w.srv.UpdatePodStatus("test", created); err != nil {
			w.t.Fatal(err)
		}
	}
}

func (w *world) setImage(image string) {
	w.t.Helper()
	d, _ := w.srv.GetDeployment("default", "web")
	d = d.DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = image
	if _, err := w.srv.UpdateDeployment("test", d); err != nil {
		w.t.Fatal(err)
	}
}

func TestSurgeAndAvailabilityViolations(t *testing.T) {
	w := newWorld(t, 3)
	old := w.replicaSet("old", "v1")
	for _, n := range []string{"a", "b", "c"} {
		w.pod(old, n, true)
	}
	c := NewRollingChecker()
	if v := c.AfterStep(w.srv, w.c.Now(), 1, nil); len(v) != 0 {
		t.Fatalf("steady state: %v", v)
	}
	w.setImage("v2")
	next := w.replicaSet("next", "v2")
	w.pod(next, "d", false) // 4 active = 3 + maxSurge 1: allowed
	if v := c.AfterStep(w.srv, w.c.Now(), 2, nil); len(v) != 0 {
		t.Fatalf("within surge: %v", v)
	}
	w.pod(next, "e", false) // 5 active > 4
	v := c.AfterStep(w.srv, w.c.Now(), 3, nil)
	if len(v) != 1 || v[0].Invariant != "surge" || !strings.Contains(v[0].Detail, "5 active pods > replicas 3 + maxSurge 1") {
		t.Fatalf("surge violation not reported: %v", v)
	}
	// Delete two old pods: 1 available < 3 - 1.
	zero := int64(0)
	for _, n := range []string{"a", "b"} {
		if err := w.srv.DeletePod("test", "default", n, apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
			t.Fatal(err)
		}
	}
	v = c.AfterStep(w.srv, w.c.Now(), 4, nil)
	if len(v) != 1 || v[0].Invariant != "availability" || v[0].Step != 4 {
		t.Fatalf("availability violation not reported: %v", v)
	}
	// A pod failing on its own excuses availability for the rest of the rollout.
	crash := []trace.Record{{Source: "kubelet", Data: kubelet.Transition{Actor: "kubelet", Pod: "default/d", Node: "node-1", What: "crashed"}}}
	if v := c.AfterStep(w.srv, w.c.Now(), 5, crash); len(v) != 0 {
		t.Fatalf("excused step still reported: %v", v)
	}
}

func TestNoWindowWithoutFullAvailability(t *testing.T) {
	w := newWorld(t, 3)
	old := w.replicaSet("old", "v1")
	w.pod(old, "a", true) // only 1 of 3: not fully available
	c := NewRollingChecker()
	c.AfterStep(w.srv, w.c.Now(), 1, nil)
	w.setImage("v2")
	next := w.replicaSet("next", "v2")
	for _, n := range []string{"b", "c", "d", "e", "f"} {
		w.pod(next, n, false)
	}
	if v := c.AfterStep(w.srv, w.c.Now(), 2, nil); len(v) != 0 {
		t.Fatalf("a rollout that did not start from full availability was checked: %v", v)
	}
}

func TestIncomplete(t *testing.T) {
	w := newWorld(t, 2)
	healthy := func(image string) bool { return image != "bad" }
	v := Incomplete(w.srv, 9, healthy)
	if len(v) != 1 || v[0].Invariant != "completion" {
		t.Fatalf("an unstarted deployment is not incomplete: %v", v)
	}
	w.setImage("bad")
	if v := Incomplete(w.srv, 9, healthy); len(v) != 0 {
		t.Fatalf("a deployment of an unhealthy image was required to complete: %v", v)
	}
}

// TestIncompleteExcusesTheScalingEventStall: a Deployment of 2 replicas
// whose only active ReplicaSet (an old template's) has 2 replicas and a
// desired-replicas annotation of 3 never rolls out upstream, and is not
// reported; with the annotation at 2, or when that ReplicaSet has the
// Deployment's template (nothing stalls it then), it is.
func TestIncompleteExcusesTheScalingEventStall(t *testing.T) {
	healthy := func(string) bool { return true }
	for _, tc := range []struct {
		name, image, desired string
		reported             bool
	}{
		{"old template, stale annotation", "v0", "3", false},
		{"old template, annotation current", "v0", "2", true},
		{"current template, stale annotation", "v1", "3", true},
	} {
		w := newWorld(t, 2)
		// The Deployment's selector and template, with tc's image: only
		// the image tells the templates apart.
		tr, two := true, int32(2)
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default",
			Annotations:     map[string]string{"deployment.kubernetes.io/desired-replicas": tc.desired},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: w.d.UID, Controller: &tr}}},
			Spec: appsv1.ReplicaSetSpec{Replicas: &two, Selector: w.d.Spec.Selector.DeepCopy(), Template: *w.d.Spec.Template.DeepCopy()}}
		rs.Spec.Template.Spec.Containers[0].Image = tc.image
		if _, err := w.srv.CreateReplicaSet("test", rs); err != nil {
			t.Fatal(err)
		}
		if v := Incomplete(w.srv, 9, healthy); (len(v) == 1) != tc.reported {
			t.Errorf("%s: violations %v, want reported %v", tc.name, v, tc.reported)
		}
	}
}

func TestForeignFailureReadsTypedRecords(t *testing.T) {
	for _, tc := range []struct {
		rec    trace.Payload
		excuse bool
	}{
		{kubelet.Transition{What: "crashed", Pod: "default/a"}, true},
		{kubelet.Transition{What: "evicted", Node: "node-1"}, true},
		{kubelet.Transition{What: "ready", Pod: "default/a"}, false},
		{apiserver.Request{Actor: "kubectl", Verb: "delete", Resource: "pods", Name: "a"}, true},
		{apiserver.Request{Actor: "replicaset-controller", Verb: "delete", Resource: "pods", Name: "a"}, false},
		{apiserver.Request{Actor: "kubectl", Verb: "update", Resource: "deployments", Name: "web"}, false},
	} {
		got := foreignFailure([]trace.Record{{Data: tc.rec}}) != ""
		if got != tc.excuse {
			t.Errorf("%s: excuse = %v, want %v", tc.rec.Text(), got, tc.excuse)
		}
	}
}
