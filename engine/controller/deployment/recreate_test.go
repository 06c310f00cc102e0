package deployment

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

func recreateDeployment(name string, replicas int32, image string) *appsv1.Deployment {
	d := newDeployment(name, replicas, "0", "0", image)
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	return d
}

// createPod creates an unscheduled pod controlled by rs (deleting it is
// immediate: an unscheduled pod has no grace period).
func (f *fixture) createPod(rs *appsv1.ReplicaSet, name string, phase corev1.PodPhase) {
	f.t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "default", Labels: rs.Spec.Template.Labels,
			OwnerReferences: []metav1.OwnerReference{*podutil.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))},
		},
		Spec: rs.Spec.Template.Spec,
	}
	created, err := f.server.CreatePod("test", p)
	if err != nil {
		f.t.Fatalf("create pod: %v", err)
	}
	if phase != "" {
		st := created.DeepCopy()
		st.Status.Phase = phase
		if _, err := f.server.UpdatePodStatus("test", st); err != nil {
			f.t.Fatalf("pod status: %v", err)
		}
	}
}

func TestRecreateScalesDownWaitsForPodsThenCreates(t *testing.T) {
	f := newFixture(t)
	f.create(recreateDeployment("web", 3, "nginx:1"))
	f.drain()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{3}) {
		t.Fatalf("first RS %v, want [3] (Recreate creates at full size)", got)
	}
	v1 := f.replicaSets()[0]
	f.settle()
	f.createPod(v1, "web-v1-a", corev1.PodRunning)
	f.drain()

	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.drain()
	// Old RS scaled to 0 and no new RS while old pods may run.
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{0}) {
		t.Fatalf("after template change %v, want [0]", got)
	}
	// The ReplicaSet reports no replicas, but a Running pod still exists.
	f.setAvailable(v1.Name, 0)
	f.drain()
	if n := len(f.replicaSets()); n != 1 {
		t.Fatalf("new RS created while an old pod runs (%d RSs)", n)
	}
	mustContain(t, f.records("Note"), `waiting, old pods running (pod web-v1-a is "Running")`)

	// Deleting the last old pod: the Recreate pod-delete handler LISTs the
	// ReplicaSets live, finds no pods left and enqueues.
	if err := f.server.DeletePod("test", "default", "web-v1-a", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.deliver()
	if f.dc.Queue().Len() != 1 {
		t.Fatalf("pod delete did not enqueue the Recreate deployment")
	}
	f.drain()
	rss := f.replicaSets()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{0, 3}) {
		t.Fatalf("after old pods gone %v, want [0 3]", got)
	}
	ev := f.events()
	for _, want := range []string{
		"Normal ScalingReplicaSet: Scaled down replica set " + v1.Name + " from 3 to 0",
		"Normal ScalingReplicaSet: Scaled up replica set " + rss[1].Name + " from 0 to 3",
	} {
		if !hasEvent(ev, want) {
			t.Errorf("missing event %q in %q", want, ev)
		}
	}
}

func TestOldPodsRunningRules(t *testing.T) {
	newRS := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "new", UID: "n"}}
	old := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "old", UID: "o"}}
	pod := func(phase corev1.PodPhase) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Status: corev1.PodStatus{Phase: phase}}
	}
	cases := []struct {
		name    string
		status  int32
		pods    []rsPods
		running bool
	}{
		{"old RS reports replicas", 1, nil, true},
		{"no pods", 0, nil, false},
		{"failed and succeeded pods do not count", 0, []rsPods{{uid: "o", pods: []*corev1.Pod{pod(corev1.PodFailed), pod(corev1.PodSucceeded)}}}, false},
		{"unknown phase counts", 0, []rsPods{{uid: "o", pods: []*corev1.Pod{pod(corev1.PodUnknown)}}}, true},
		{"empty phase counts", 0, []rsPods{{uid: "o", pods: []*corev1.Pod{pod("")}}}, true},
		{"pending counts", 0, []rsPods{{uid: "o", pods: []*corev1.Pod{pod(corev1.PodPending)}}}, true},
		{"pods of the new RS do not count", 0, []rsPods{{uid: "n", pods: []*corev1.Pod{pod(corev1.PodRunning)}}}, false},
	}
	for _, c := range cases {
		o := old.DeepCopy()
		o.Status.Replicas = c.status
		if got, _ := oldPodsRunning(newRS, []*appsv1.ReplicaSet{o}, c.pods); got != c.running {
			t.Errorf("%s: oldPodsRunning = %t, want %t", c.name, got, c.running)
		}
	}
}
