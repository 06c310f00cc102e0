package scenariotest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
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

// relabelScenario is a web pod that must not share a node with a pod
// labelled role=noisy, on the default cluster's 3 nodes, each of which
// runs one such pod (bare pods noisy-1 to noisy-3, placed one a node: the
// fewest pods first; a deleted one takes up to 300 s to stop); spec adds
// fields to the Scenario's spec.
func relabelScenario(spec string) string {
	var b strings.Builder
	b.WriteString("apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: relabel}\nspec: {seed: 1" + spec + "}\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: noisy-%d, labels: {role: noisy}}\nspec: {terminationGracePeriodSeconds: 300, containers: [{name: c, image: batch:1}]}\n", i)
	}
	b.WriteString(`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {role: noisy}}, topologyKey: kubernetes.io/hostname}
      containers: [{name: web, image: web:1}]
`)
	return b.String()
}

// untilWebUnschedulable steps r until the scheduler found the web pod of
// relabelScenario no node.
func untilWebUnschedulable(t *testing.T, r *Runner) {
	t.Helper()
	r.stepUntil(t, "the web pod unschedulable", func(*sim.Sim) bool {
		return len(r.texts(trace.KindKubelet, "unschedulable (0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.")) == 1
	}, 1_000)
}

// webPod returns the one pod of relabelScenario's web Deployment.
func webPod(t *testing.T, sm *sim.Sim) *corev1.Pod {
	t.Helper()
	var out []*corev1.Pod
	for _, p := range sm.Server().ListPods("default", nil) {
		if p.Labels["app"] == "web" {
			out = append(out, p)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d web pods, want 1", len(out))
	}
	return out[0]
}

// relabel sets label key of pod name to value, as kubectl label does.
func relabel(t *testing.T, sm *sim.Sim, name, key, value string) {
	t.Helper()
	err := sm.Do(&sim.Action{Name: "kubectl label pod " + name + " " + key + "=" + value + " --overwrite", Do: func(sm *sim.Sim) (string, error) {
		p, err := sm.Server().GetPod("default", name)
		if err != nil {
			return "", err
		}
		p = p.DeepCopy()
		p.Labels[key] = value
		_, err = sm.Server().UpdatePod("kubectl", p)
		return "pod/" + name + " labeled", err
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// A pending pod that anti-affinity keeps off every node tries again when a
// bound pod's labels change so that its rule no longer selects it (the
// scheduler's queueing hint for a pod label update), and binds to that
// pod's node; a label change its rule still selects leaves it pending.
func TestAntiAffinityRetriesWhenABoundPodIsRelabeled(t *testing.T) {
	r := load(t, "relabel.yaml", relabelScenario(""))
	sm := r.Sess.Sim()
	untilWebUnschedulable(t, r)
	nodes := map[string]bool{}
	for _, n := range []string{"noisy-1", "noisy-2", "noisy-3"} {
		p, err := sm.Server().GetPod("default", n)
		if err != nil {
			t.Fatal(err)
		}
		if p.Spec.NodeName == "" {
			t.Fatalf("%s is not bound", n)
		}
		nodes[p.Spec.NodeName] = true
	}
	if len(nodes) != 3 {
		t.Fatalf("the noisy pods share nodes: %v", nodes)
	}

	// tries counts the kubelet's steps among steps: with every other pod
	// running and no probes, each is a try of the scheduler's for the web
	// pod (a try that finds what the last one did writes no record).
	tries := func(steps []sim.StepInfo) int {
		n := 0
		for _, st := range steps {
			if st.Component == "kubelet" {
				n++
			}
		}
		return n
	}
	r.Settle() // the noisy pods start and turn ready: no kubelet step is due after this
	// Still selected: no try, and the pod stays pending.
	relabel(t, sm, "noisy-2", "tier", "batch")
	if n := tries(r.Sess.Advance(session.BySettle, 1)); n != 0 {
		t.Errorf("%d scheduler tries after a relabel the rule still selects, want none", n)
	}
	if p := webPod(t, sm); p.Spec.NodeName != "" {
		t.Fatalf("web pod on %q after a relabel its rule still selects, want it pending", p.Spec.NodeName)
	}

	relabel(t, sm, "noisy-2", "role", "quiet")
	if n := tries(r.Sess.Advance(session.BySettle, 1)); n == 0 {
		t.Error("no scheduler try after the relabel")
	}
	noisy2, err := sm.Server().GetPod("default", "noisy-2")
	if err != nil {
		t.Fatal(err)
	}
	p := webPod(t, sm)
	if p.Spec.NodeName != noisy2.Spec.NodeName {
		t.Fatalf("web pod on %q, want it bound to noisy-2's node %s", p.Spec.NodeName, noisy2.Spec.NodeName)
	}
	if got := r.texts(trace.KindKubelet, "bound on "+noisy2.Spec.NodeName, p.Name); len(got) != 1 {
		t.Errorf("bound records %v, want one", got)
	}
}

// A pod being deleted keeps its node until it is gone, with the labels it
// has: relabeled meanwhile so that the rule no longer selects it, it lets
// the waiting pod in at once.
func TestAntiAffinityRetriesWhenAPodBeingDeletedIsRelabeled(t *testing.T) {
	// The kubelet takes 300 s to stop a deleted pod's containers.
	r := load(t, "relabel.yaml", relabelScenario(", cluster: {shutdownDelay: 300s}"))
	sm := r.Sess.Sim()
	untilWebUnschedulable(t, r)
	r.Settle()
	r.apply(t, `{"type":"deletePod","name":"noisy-3"}`) // its grace period: 300 s
	r.StepOnce()                                        // the deletion is seen; the next step due is noisy-3's stop, 300 s on
	noisy3, err := sm.Server().GetPod("default", "noisy-3")
	if err != nil || noisy3.DeletionTimestamp == nil {
		t.Fatalf("noisy-3: %v, want it terminating", err)
	}
	start := sm.Now()
	relabel(t, sm, "noisy-3", "role", "quiet")
	r.stepUntil(t, "the web pod bound", func(sm *sim.Sim) bool { return webPod(t, sm).Spec.NodeName != "" }, 1_000)
	if node := webPod(t, sm).Spec.NodeName; node != noisy3.Spec.NodeName {
		t.Errorf("web pod bound to %s, want noisy-3's node %s", node, noisy3.Spec.NodeName)
	}
	if waited := sm.Now().Sub(start); waited >= 300*time.Second {
		t.Errorf("bound %v after the relabel: it waited for noisy-3 to go", waited)
	}
	if _, err := sm.Server().GetPod("default", "noisy-3"); err != nil {
		t.Errorf("noisy-3 gone already (%v): the test did not catch it terminating", err)
	}
}
