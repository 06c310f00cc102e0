package scenariotest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// rsScenario is a scenario with one ReplicaSet; extra is appended to spec
// (timeline, cluster) and rsExtra to the ReplicaSet's spec.
func rsScenario(name string, replicas int, spec, rsExtra string) string {
	return fmt.Sprintf(`apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: %s}
spec:
  seed: 7
%s---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: %s}
spec:
  replicas: %d
%s  selector:
    matchLabels: {app: %s}
  template:
    metadata:
      labels: {app: %s}
    spec:
      containers:
      - {name: c, image: nginx}
`, name, spec, name, replicas, rsExtra, name, name)
}

// TestAdoptionSeedDemo is the walkthrough's demo: the bare pod "test" is
// adopted by replicatest, one more pod is created, get rs shows 2/2/2, and
// deleting the ReplicaSet terminates both pods.
func TestAdoptionSeedDemo(t *testing.T) {
	r := loadLibrary(t, "adoption")
	r.stepUntil(t, "replicatest has 2 available", rsAvailable("replicatest", 2), 10_000)
	sm := r.Sess.Sim()
	rs := rsNamed(sm, "replicatest")
	test, err := sm.Server().GetPod("default", "test")
	if err != nil {
		t.Fatal(err)
	}
	ref := metav1.GetControllerOfNoCopy(test)
	if ref == nil || ref.Kind != "ReplicaSet" || ref.Name != "replicatest" || ref.UID != rs.UID {
		t.Fatalf("pod test controller ref = %+v, want ReplicaSet replicatest", ref)
	}
	if ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Errorf("pod test ownerRef blockOwnerDeletion = %v, want true", ref.BlockOwnerDeletion)
	}
	if n := len(r.texts(trace.KindAPI, "replicaset-controller patch pods default/test -> 200")); n != 1 {
		t.Errorf("adoption patches of pod test = %d, want 1", n)
	}
	if got := r.texts(trace.KindAPI, "replicaset-controller create pods"); len(got) != 1 {
		t.Errorf("pods created by the controller = %d, want exactly 1: %v", len(got), got)
	}
	if pods := podsOf(sm, "replicatest"); len(pods) != 2 {
		t.Errorf("pods of replicatest = %d, want 2", len(pods))
	}
	out, _ := r.Sess.Kubectl("get rs")
	if row := rowOf(t, out, "replicatest"); !slices.Equal(row[1:4], []string{"2", "2", "2"}) {
		t.Errorf("get rs row %v, want DESIRED 2 CURRENT 2 READY 2", row)
	}
	r.finish(t, true)
	if pods := sm.Server().ListPods("default", nil); len(pods) != 0 {
		t.Errorf("%d pods left after deleting the ReplicaSet, want 0", len(pods))
	}
	for _, pod := range []string{"test", podNameCreated(t, r)} {
		if n := len(r.texts(trace.KindAPI, "garbage-collector delete pods default/"+pod+" -> 200")); n != 1 {
			t.Errorf("GC deletes of pod %s = %d, want 1", pod, n)
		}
	}
}

// podNameCreated returns the name of the single pod the controller created.
func podNameCreated(t testing.TB, r *Runner) string {
	got := r.texts(trace.KindAPI, "replicaset-controller create pods default/")
	if len(got) == 0 {
		t.Fatal("no pod created")
	}
	_, rest, _ := strings.Cut(got[0], "create pods default/")
	name, _, _ := strings.Cut(rest, " ")
	return name
}

// TestManualPodDeletionIsReplaced: kubectl delete pod on a pod of a
// ReplicaSet; the ReplicaSet creates a replacement.
func TestManualPodDeletionIsReplaced(t *testing.T) {
	r := load(t, "rs.yaml", rsScenario("frontend", 3, "", ""))
	r.stepUntil(t, "3 available", rsAvailable("frontend", 3), 10_000)
	victim := podsOf(r.Sess.Sim(), "frontend")[0].Name
	r.apply(t, `{"type":"deletePod","name":"`+victim+`"}`)
	r.finish(t, true)
	sm := r.Sess.Sim()
	pods := podsOf(sm, "frontend")
	if len(pods) != 3 {
		t.Fatalf("pods = %d, want 3", len(pods))
	}
	for _, p := range pods {
		if p.Name == victim {
			t.Fatalf("deleted pod %s still exists", victim)
		}
	}
	if n := len(r.texts(trace.KindAPI, "replicaset-controller create pods")); n != 4 {
		t.Errorf("pods created = %d, want 3 + 1 replacement", n)
	}
	if rs := rsNamed(sm, "frontend"); rs.Status.AvailableReplicas != 3 {
		t.Errorf("available = %d, want 3", rs.Status.AvailableReplicas)
	}
}

// TestPodsOfAnotherOwnerAreNotAdopted: a second ReplicaSet with the same
// selector ignores pods controlled by the first and creates its own.
func TestPodsOfAnotherOwnerAreNotAdopted(t *testing.T) {
	second := `  timeline:
  - when: {available: {target: rs/first, atLeast: 2}}
    action: apply
    manifest: |
      apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: second}
      spec:
        replicas: 2
        selector:
          matchLabels: {app: first}
        template:
          metadata:
            labels: {app: first}
          spec:
            containers:
            - {name: c, image: nginx}
`
	r := load(t, "rs.yaml", rsScenario("first", 2, second, ""))
	r.finish(t, true)
	sm := r.Sess.Sim()
	if a, b := len(podsOf(sm, "first")), len(podsOf(sm, "second")); a != 2 || b != 2 {
		t.Fatalf("pods: first %d, second %d; want 2 and 2", a, b)
	}
	if got := r.texts(trace.KindDecision, "adopt Pod"); len(got) != 0 {
		t.Errorf("unexpected adoptions: %v", got)
	}
	// v1.36 lists only the pods indexed under the ReplicaSet's own UID plus
	// orphans, so pods of another owner are not even candidates.
	if got := r.texts(trace.KindDecision, "claim ReplicaSet default/second", "adopted 0"); len(got) == 0 {
		t.Error("no claim of second recorded")
	}
	if got := r.texts(trace.KindDecision, "claim ReplicaSet default/second", "adopted 1"); len(got) != 0 {
		t.Errorf("second adopted: %v", got)
	}
}

// TestRelabeledPodIsReleasedAndReplaced: a pod whose labels stop matching is
// released (ownerReference removed) and replaced.
func TestRelabeledPodIsReleasedAndReplaced(t *testing.T) {
	r := load(t, "rs.yaml", rsScenario("frontend", 2, "", ""))
	r.stepUntil(t, "2 available", rsAvailable("frontend", 2), 10_000)
	sm := r.Sess.Sim()
	victim := podsOf(sm, "frontend")[0].Name
	relabel(t, sm, victim, "app", "debug")
	r.finish(t, true)
	p, err := sm.Server().GetPod("default", victim)
	if err != nil {
		t.Fatalf("relabeled pod is gone: %v", err)
	}
	if len(p.OwnerReferences) != 0 {
		t.Errorf("relabeled pod still has owner refs %+v", p.OwnerReferences)
	}
	if got := r.texts(trace.KindDecision, "release Pod default/"+victim); len(got) != 1 {
		t.Errorf("release decisions = %v, want one", got)
	}
	if n := len(podsOf(sm, "frontend")); n != 2 {
		t.Errorf("pods of frontend = %d, want 2 (one replacement)", n)
	}
	if n := len(r.texts(trace.KindAPI, "replicaset-controller create pods")); n != 3 {
		t.Errorf("pods created = %d, want 3", n)
	}
}

// TestMinReadySecondsDelaysAvailability: with minReadySeconds 5, the n-th
// pod counts as available in the ReplicaSet status exactly at the n-th
// readySince + 5s (inclusive), never earlier, and the status is written at
// that very instant (AddAfter for the exact moment).
func TestMinReadySecondsDelaysAvailability(t *testing.T) {
	const minReady = 5 * time.Second
	r := load(t, "rs.yaml", rsScenario("web", 3, "  cluster: {defaultImage: {startDelay: 2s, readyDelay: 1s, jitter: 2s}}\n", "  minReadySeconds: 5\n"))
	sm := r.Sess.Sim()
	readySince := map[string]time.Time{}
	// firstSeen[n] is when the status first reported n available.
	firstSeen := map[int32]time.Time{}
	for i := 0; i < 10_000; i++ {
		if _, ok := r.StepOnce(); !ok {
			break
		}
		now := sm.Now()
		for _, p := range podsOf(sm, "web") {
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					readySince[p.Name] = c.LastTransitionTime.Time
					// Inclusive boundary, checked on the pod predicate itself.
					if podutil.IsPodAvailable(p, 5, c.LastTransitionTime.Add(minReady-time.Nanosecond)) {
						t.Errorf("pod %s available before readySince+minReady", p.Name)
					}
					if !podutil.IsPodAvailable(p, 5, c.LastTransitionTime.Add(minReady)) {
						t.Errorf("pod %s not available at readySince+minReady", p.Name)
					}
				}
			}
		}
		if rs := rsNamed(sm, "web"); rs != nil {
			if _, seen := firstSeen[rs.Status.AvailableReplicas]; !seen {
				firstSeen[rs.Status.AvailableReplicas] = now
			}
		}
	}
	if len(readySince) != 3 {
		t.Fatalf("ready pods = %d, want 3", len(readySince))
	}
	var times []time.Time
	for _, at := range readySince {
		times = append(times, at.Add(minReady))
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for n := int32(1); n <= 3; n++ {
		want := times[n-1]
		got, ok := firstSeen[n]
		if !ok {
			// Skipped only when the n-th and a later pod share an instant.
			if n < 3 && times[n].Equal(want) {
				continue
			}
			t.Fatalf("status never reported %d available", n)
		}
		if !got.Equal(want) {
			t.Errorf("%d available first reported at %s, want readySince+5s = %s", n, got.Sub(sm.Clock().Start()), want.Sub(sm.Clock().Start()))
		}
	}
	if got := r.texts(trace.KindSync, "sync default/web done: ok, availability check in"); len(got) == 0 {
		t.Error("no availability requeue (AddAfter) recorded")
	}
}

// informerLagScenario is the library's informer-lag scenario plus a scale
// at 0.5s, whose watch event (due at 2.5s) lands between the controller's
// creates (2s) and the pod informer seeing them (4s).
const informerLagScenario = `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: lag}
spec:
  seed: 1
  cluster: {informerLag: 2s}
  timeline:
  - {at: 500ms, action: scale, target: rs/cache, replicas: 6}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: cache}
spec:
  replicas: 5
  selector:
    matchLabels: {app: cache}
  template:
    metadata:
      labels: {app: cache}
    spec:
      containers:
      - {name: redis, image: redis:7}
`

// TestInformerLagStaleCacheGate: with the default stale-cache gate, the
// sync at 2.5s is refused (no API call) until the informer caught up, and
// exactly the desired number of pods is created.
func TestInformerLagStaleCacheGate(t *testing.T) {
	r := load(t, "lag.yaml", informerLagScenario)
	r.finish(t, true)
	if n := len(r.texts(trace.KindAPI, "replicaset-controller create pods")); n != 6 {
		t.Errorf("pods created = %d, want exactly 6", n)
	}
	if got := r.texts(trace.KindDecision, "stale cache: sync of default/cache refused"); len(got) == 0 {
		t.Error("trace shows no stale-cache refusal")
	}
	if got := r.texts(trace.KindDecision, "manage default/cache: active 5, desired 6, diff -1 -> create 1"); len(got) != 1 {
		t.Errorf("second create decision = %v, want one create 1", got)
	}
}

// TestInformerLagExpectations: with the gate off, the sync between the
// creates and their watch events finds expectations unsatisfied and skips
// manageReplicas: no double creation.
func TestInformerLagExpectations(t *testing.T) {
	sc, err := scenario.Parse("lag.yaml", []byte(informerLagScenario))
	if err != nil {
		t.Fatal(err)
	}
	opts := sim.DefaultOptions(1)
	opts.InformerLag = 2 * time.Second
	opts.ReplicaSet.StaleCacheGate = false
	sm, err := sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range sc.Objects {
		obj := obj
		if err := sm.Do(&sim.Action{Name: "apply", Do: func(sm *sim.Sim) (string, error) { return kubectl.New(sm.Server(), sm.Clock()).Apply(obj.Obj) }}); err != nil {
			t.Fatal(err)
		}
	}
	sm.Schedule(&sim.Action{Name: "scale rs/cache to 6", At: sm.Clock().Start().Add(500 * time.Millisecond), Do: func(sm *sim.Sim) (string, error) {
		return kubectl.New(sm.Server(), sm.Clock()).Scale(apiserver.ReplicaSets, "default", "cache", 6)
	}})
	if _, idle := sm.Settle(100_000); !idle {
		t.Fatal("did not settle")
	}
	var creates, waits int
	for _, rec := range sm.Recorder().Records() {
		txt := rec.Data.Text()
		switch {
		case rec.Kind() == trace.KindAPI && strings.HasPrefix(txt, "replicaset-controller create pods"):
			creates++
		case rec.Kind() == trace.KindDecision && strings.HasPrefix(txt, "expectations default/cache") && strings.Contains(txt, "add=5"):
			waits++
		}
	}
	if creates != 6 {
		t.Errorf("pods created = %d, want exactly 6", creates)
	}
	if waits == 0 {
		t.Errorf("no sync waited on expectations add=5:\n%s", strings.Join(grep(sm.Recorder(), "expectations default/cache"), "\n"))
	}
	if n := len(grep(sm.Recorder(), "manage default/cache: skipped")); n == 0 {
		t.Error("manageReplicas was never skipped while expectations were pending")
	}
	rs, _ := sm.Server().GetReplicaSet("default", "cache")
	if rs.Status.AvailableReplicas != 6 {
		t.Errorf("available = %d, want 6", rs.Status.AvailableReplicas)
	}
}

func grep(rec *trace.Recorder, sub string) []string {
	var out []string
	for _, r := range rec.Records() {
		if txt := r.Data.Text(); strings.Contains(txt, sub) {
			out = append(out, txt)
		}
	}
	return out
}

// TestReplicaSetDeleteCascades checks BEHAVIOR §7.6 for a ReplicaSet of 3
// pods deleted with each propagation policy, through the library scenarios.
func TestReplicaSetDeleteCascades(t *testing.T) {
	deleted := func(sm *sim.Sim) bool {
		rs := rsNamed(sm, "frontend")
		return rs == nil || rs.DeletionTimestamp != nil
	}
	t.Run("background", func(t *testing.T) {
		r := loadLibrary(t, "rs-delete-background")
		r.stepUntil(t, "delete", deleted, 10_000)
		sm := r.Sess.Sim()
		if rsNamed(sm, "frontend") != nil {
			t.Fatal("ReplicaSet still exists right after a background delete")
		}
		r.finish(t, true)
		if n := len(r.texts(trace.KindAPI, "garbage-collector delete pods")); n != 3 {
			t.Errorf("GC pod deletes = %d, want 3", n)
		}
		if n := len(sm.Server().ListPods("default", nil)); n != 0 {
			t.Errorf("%d pods left", n)
		}
		if n := len(r.texts(trace.KindAPI, "replicaset-controller create pods")); n != 3 {
			t.Errorf("pods created = %d, want 3 (none recreated)", n)
		}
	})
	t.Run("foreground", func(t *testing.T) {
		r := loadLibrary(t, "rs-delete-foreground")
		r.stepUntil(t, "delete", deleted, 10_000)
		sm := r.Sess.Sim()
		rs := rsNamed(sm, "frontend")
		if rs == nil || !slices.Contains(rs.Finalizers, metav1.FinalizerDeleteDependents) {
			t.Fatalf("ReplicaSet right after a foreground delete = %v, want it waiting with foregroundDeletion", rs)
		}
		sawTerminating := false
		for {
			if _, ok := r.StepOnce(); !ok {
				break
			}
			pods := sm.Server().ListPods("default", nil)
			rs := rsNamed(sm, "frontend")
			if rs == nil {
				if len(pods) != 0 {
					t.Fatalf("ReplicaSet vanished with %d pods still present", len(pods))
				}
				continue
			}
			if rs.Status.TerminatingReplicas != nil && *rs.Status.TerminatingReplicas > 0 {
				sawTerminating = true
			}
		}
		r.finish(t, true)
		if rsNamed(sm, "frontend") != nil {
			t.Error("ReplicaSet never vanished")
		}
		if !sawTerminating {
			t.Error("status never showed terminating replicas while waiting")
		}
		if got := r.texts(trace.KindDecision, "manage default/frontend", "-> create"); len(got) != 1 {
			t.Errorf("manage create decisions = %v, want only the initial one", got)
		}
	})
	t.Run("orphan", func(t *testing.T) {
		r := loadLibrary(t, "rs-delete-orphan")
		r.finish(t, true)
		sm := r.Sess.Sim()
		if rsNamed(sm, "frontend") != nil {
			t.Fatal("ReplicaSet still exists")
		}
		pods := sm.Server().ListPods("default", nil)
		if len(pods) != 3 {
			t.Fatalf("pods = %d, want 3 orphans", len(pods))
		}
		for _, p := range pods {
			if len(p.OwnerReferences) != 0 || p.DeletionTimestamp != nil || !podutil.IsPodReady(p) {
				t.Errorf("pod %s: refs %v deleting %v ready %v; want a running orphan", p.Name, p.OwnerReferences, p.DeletionTimestamp, podutil.IsPodReady(p))
			}
		}
	})
}
