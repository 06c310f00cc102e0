package replicaset

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

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
	tallyScript(counted)
	tallyScript(walked)
	a, b := traceJSON(t, counted.rec), traceJSON(t, walked.rec)
	expectLines(t, "trace with counts vs walk", a, b)
	for _, want := range []string{"adopt Pod default/orphan-match: done", "release Pod default/owned-extra: done", "terminating 1", "skipped 1"} {
		if !strings.Contains(strings.Join(a, "\n"), want) {
			t.Errorf("the script never produced %q: the comparison misses a case", want)
		}
	}
	var fast int
	for _, l := range a {
		if strings.HasPrefix(l, "claim ReplicaSet") {
			fast++
		}
	}
	if fast == 0 {
		t.Error("no claim recorded")
	}
	for _, p := range counted.srv.ListPods("default", nil) {
		q, err := walked.srv.GetPod("default", p.Name)
		if err != nil || q.ResourceVersion != p.ResourceVersion {
			t.Errorf("pod %s differs: %v", p.Name, err)
		}
	}
}
