package scenariotest

import (
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// antiAffinityScenario is testdata/anti-affinity-rollout.yaml (3 replicas
// that must not share a node, on 3 nodes, rolled out once created) with
// the given maxUnavailable.
func antiAffinityScenario(t *testing.T, maxUnavailable string) string {
	t.Helper()
	src, err := os.ReadFile("testdata/anti-affinity-rollout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "maxUnavailable: 1}", "maxUnavailable: "+maxUnavailable+"}", 1)
	if !strings.Contains(text, "maxUnavailable: "+maxUnavailable+"}") {
		t.Fatalf("no maxUnavailable to set in the testdata")
	}
	return text
}

const (
	// antiAffinityMessage is the scheduler's PodScheduled message for a pod
	// every node excludes by its own rule (pods of equal priority are no
	// preemption victims).
	antiAffinityMessage = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
	antiAffinityBlocked = "unschedulable (" + antiAffinityMessage + ")"
)

// With as many replicas as nodes and maxUnavailable 0, the surge pod finds
// no node its anti-affinity allows: it stays Pending, no old pod may go,
// and the rollout times out, as on a real cluster. The scheduler's retries
// (each pod that leaves a node) write nothing more.
func TestRequiredAntiAffinityStallsASurgeOnlyRollout(t *testing.T) {
	r := load(t, "anti.yaml", antiAffinityScenario(t, "0"))
	r.RunToEnd()
	if got := r.texts(trace.KindKubelet, antiAffinityBlocked); len(got) != 1 {
		t.Errorf("%d unschedulable records, want 1: %v", len(got), got)
	}
	sm := r.Sess.Sim()
	d := deployment(t, sm, "api")
	c := deployutil.GetDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	if c == nil || c.Reason != deployutil.ReasonTimedOut {
		t.Errorf("Progressing condition %+v, want ProgressDeadlineExceeded", c)
	}
	var pending []*corev1.Pod
	for _, p := range sm.Server().ListPods("default", nil) {
		if p.Spec.NodeName == "" {
			pending = append(pending, p)
		}
	}
	if len(pending) != 1 {
		t.Fatalf("%d pending pods, want the one surge pod", len(pending))
	}
	var sched *corev1.PodCondition
	for i, c := range pending[0].Status.Conditions {
		if c.Type == corev1.PodScheduled {
			sched = &pending[0].Status.Conditions[i]
		}
	}
	if sched == nil || sched.Status != corev1.ConditionFalse || sched.Reason != "Unschedulable" ||
		sched.Message != antiAffinityMessage {
		t.Errorf("PodScheduled condition %+v", sched)
	}
	// The view says why the pod waits (the cluster panel shows it under its ReplicaSet).
	var why []string
	for _, p := range r.Sess.View(session.ViewOptions{}).Pods {
		if p.Unschedulable != "" {
			why = append(why, p.Name+": "+p.Unschedulable)
		}
	}
	if want := pending[0].Name + ": " + antiAffinityMessage; len(why) != 1 || why[0] != want {
		t.Errorf("view's unschedulable pods %q, want [%q]", why, want)
	}
	if d.Status.AvailableReplicas != 3 || d.Status.UpdatedReplicas != 1 {
		t.Errorf("available %d, updated %d; want the 3 old pods available and the 1 new one", d.Status.AvailableReplicas, d.Status.UpdatedReplicas)
	}
}

// With maxUnavailable 1 the rollout goes on: each new pod waits until an
// old one is gone from its node (a terminating pod still counts), and at
// no step do two of the Deployment's pods share a node.
func TestRequiredAntiAffinityRolloutWaitsForOldPodsToGo(t *testing.T) {
	r := load(t, "anti.yaml", antiAffinityScenario(t, "1"))
	sm := r.Sess.Sim()
	for {
		if _, ok := r.StepOnce(); !ok {
			break
		}
		seen := map[string]string{}
		for _, p := range sm.Server().ListPods("default", nil) {
			if n := p.Spec.NodeName; n != "" {
				if other, ok := seen[n]; ok {
					t.Fatalf("step %d: pods %s and %s share %s", sm.Steps(), other, p.Name, n)
				}
				seen[n] = p.Name
			}
		}
	}
	if vs := r.Incomplete(); len(vs) > 0 {
		t.Fatalf("rollout incomplete: %s", r.Failure(vs))
	}
	blocked := r.texts(trace.KindKubelet, antiAffinityBlocked)
	bound := r.texts(trace.KindKubelet, "bound on")
	if len(blocked) == 0 || len(bound) != 6 {
		t.Errorf("%d unschedulable and %d bound records, want some and 6 (3 old pods, 3 new)", len(blocked), len(bound))
	}
	for _, p := range sm.Server().ListPods("default", nil) {
		if !strings.Contains(p.Spec.Containers[0].Image, "api:2") {
			t.Errorf("pod %s runs %s at the end", p.Name, p.Spec.Containers[0].Image)
		}
	}
}
