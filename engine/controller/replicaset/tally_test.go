package replicaset

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// tallyScript drives a ReplicaSet through everything the group counts must
// get right: matching and non-matching orphans (adoption, skips), an owned
// pod whose labels stop matching (release), extra labels (fully labeled),
// readiness, terminating pods, scale-up and scale-down, minReadySeconds and
// the ReplicaSet's deletion.
func tallyScript(e *env) {
	e.createPod("orphan-match", prod, nil)
	e.createPod("orphan-other", map[string]string{"env": "dev"}, nil)
	e.run("orphan-match", "node-1", true)
	e.deliver()
	web := e.createRS("web", 4, 0)
	e.createRS("slow", 2, 5)
	e.settle()
	e.createPod("owned-extra", map[string]string{"env": "prod", "tier": "x"}, web)
	e.settle()
	for _, p := range e.srv.ListPods("default", nil) {
		if p.Status.Phase == "" {
			e.run(p.Name, "node-"+p.Name[len(p.Name)-1:], len(p.Name)%2 == 0)
		}
	}
	e.settle()
	e.advance(3 * time.Second)
	e.settle()
	// An owned pod stops matching: released, then replaced.
	p, err := e.srv.GetPod("default", "owned-extra")
	if err != nil {
		e.t.Fatal(err)
	}
	c := p.DeepCopy()
	c.Labels = map[string]string{"env": "dev"}
	if _, err := e.srv.UpdatePod("kubectl", c); err != nil {
		e.t.Fatal(err)
	}
	e.settle()
	// A graceful delete leaves a terminating pod.
	for _, p := range e.srv.ListPods("default", nil) {
		if metav1.IsControlledBy(p, web) {
			if err := e.srv.DeletePod("kubectl", "default", p.Name, noOptions()); err != nil {
				e.t.Fatal(err)
			}
			break
		}
	}
	e.settle()
	e.scaleRS("web", 1)
	e.settle()
	e.advance(5 * time.Second)
	e.settle()
	e.scaleRS("web", 3)
	e.settle()
	if err := e.srv.DeleteReplicaSet("kubectl", "default", "slow", noOptions()); err != nil {
		e.t.Fatal(err)
	}
	e.settle()
}

// runAll starts every pod that has not started, spreading them over three
// nodes, every other one ready.
func runAll(e *env) {
	i := 0
	for _, p := range e.srv.ListPods("default", nil) {
		if p.Status.Phase == "" {
			e.run(p.Name, []string{"node-1", "node-2", "node-3"}[i%3], i%4 != 3)
			i++
		}
	}
	e.settle()
}

// relatedScript scales down ReplicaSets that share a controller, so that a
// ranking counts related pods: from owned groups when the label bucket
// proves they are all the selected pods (with pods an earlier ReplicaSet
// already selects skipped), by walking the matches when it does not.
func relatedScript(e *env) {
	yes := true
	dep := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "dep", UID: "dep-uid", Controller: &yes}
	mk := func(name string, replicas int32, sel, tmpl map[string]string) {
		_, err := e.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, OwnerReferences: []metav1.OwnerReference{dep}},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: &replicas,
				Selector: &metav1.LabelSelector{MatchLabels: sel},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: tmpl},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
				},
			},
		})
		if err != nil {
			e.t.Fatal(err)
		}
		e.settle()
	}
	mk("rs-a", 3, map[string]string{"app": "x", "hash": "1"}, map[string]string{"app": "x", "hash": "1"})
	mk("rs-b", 2, map[string]string{"app": "x", "hash": "2"}, map[string]string{"app": "x", "hash": "2"})
	mk("rs-c", 0, map[string]string{"app": "x", "c": "y"}, map[string]string{"app": "x", "c": "y", "hash": "1"})
	runAll(e)
	e.scaleRS("rs-a", 1)
	e.settle()
	e.scaleRS("rs-c", 2)
	e.settle()
	runAll(e)
	e.scaleRS("rs-b", 1)
	e.settle()
}

// traceJSON renders every record with its whole payload.
func traceJSON(t *testing.T, rec *trace.Recorder) []string {
	var out []string
	rec.Each(0, func(r trace.Record) bool {
		b, err := json.Marshal(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Data.Text()+" "+string(b))
		return true
	})
	return out
}

// Syncs that read the group counts record exactly what syncs that walk
// every pod record, payloads included, and leave the same objects.
func TestTallyEqualsWalk(t *testing.T) {
	counted, walked := newEnv(t, DefaultConfig()), newEnv(t, DefaultConfig())
	walked.rc.walkAlways = true
	paths := map[string]int{}
	counted.rc.onPath = func(p string) { paths[p]++ }
	for _, e := range []*env{counted, walked} {
		tallyScript(e)
		relatedScript(e)
	}
	a, b := traceJSON(t, counted.rec), traceJSON(t, walked.rec)
	expectLines(t, "trace with counts vs walk", a, b)
	for _, want := range []string{"adopt Pod default/orphan-match: done", "release Pod default/owned-extra: done", "terminating 1", "skipped 1",
		"default/rs-a delete 2 of 3 ranked", "default/rs-b delete 1 of 2 ranked"} {
		if !strings.Contains(strings.Join(a, "\n"), want) {
			t.Errorf("the script never produced %q: the comparison misses a case", want)
		}
	}
	// Both ways of each decision must have been taken, or the comparison
	// above proves nothing about one of them.
	for _, p := range []string{pathTallied, pathWalked, pathGroupsProved, pathGroupsWalked} {
		if paths[p] == 0 {
			t.Errorf("the script never took path %q (paths taken: %v)", p, paths)
		}
	}
	for _, p := range counted.srv.ListPods("default", nil) {
		q, err := walked.srv.GetPod("default", p.Name)
		if err != nil || q.ResourceVersion != p.ResourceVersion {
			t.Errorf("pod %s differs: %v", p.Name, err)
		}
	}
}
