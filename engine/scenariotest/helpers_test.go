package scenariotest

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// load parses a scenario text into a runner.
func load(t testing.TB, name, text string) *Runner {
	t.Helper()
	sess, err := session.Load(name, []byte(text), nil)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return NewRunner(sess)
}

// loadLibrary loads a library scenario into a runner.
func loadLibrary(t testing.TB, id string) *Runner {
	t.Helper()
	src, ok := scenarios.Source(id)
	if !ok {
		t.Fatalf("no scenario %q", id)
	}
	return load(t, id+".yaml", string(src))
}

// stepUntil steps (checking invariants) until done holds; it fails the test
// after maxSteps steps or when nothing is due.
func (r *Runner) stepUntil(t testing.TB, what string, done func(*sim.Sim) bool, maxSteps int) {
	t.Helper()
	for i := 0; i < maxSteps; i++ {
		if done(r.Sess.Sim()) {
			return
		}
		if _, ok := r.StepOnce(); !ok {
			break
		}
	}
	if !done(r.Sess.Sim()) {
		t.Fatalf("seed=%d: %s never happened (step %d, +%s)", r.Sess.Seed(), what, r.Sess.Step(), r.Sess.Sim().Clock().Elapsed())
	}
}

// finish runs to the end and fails on invariant violations; complete also
// requires every healthy rollout to have completed.
func (r *Runner) finish(t testing.TB, complete bool) {
	t.Helper()
	r.RunToEnd()
	if err := r.Sess.Sim().Err(); err != nil {
		t.Fatalf("seed=%d: run stopped: %v", r.Sess.Seed(), err)
	}
	if msg := r.Failure(r.Violations); msg != "" {
		t.Fatal(msg)
	}
	if complete {
		if msg := r.Failure(r.Incomplete()); msg != "" {
			t.Fatal(msg)
		}
	}
}

// apply performs a user action given as JSON, like the UI does.
func (r *Runner) apply(t testing.TB, action string) string {
	t.Helper()
	a, err := r.Sess.ParseUserAction([]byte(action))
	if err != nil {
		t.Fatalf("parse %s: %v", action, err)
	}
	msg, err := r.Sess.Apply(a)
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	return msg
}

// texts returns the text of every record of kind k whose text contains
// every one of subs.
func (r *Runner) texts(k trace.Kind, subs ...string) []string {
	var out []string
	for _, rec := range r.Sess.Sim().Recorder().Records() {
		if rec.Kind() != k {
			continue
		}
		txt := rec.Data.Text()
		ok := true
		for _, s := range subs {
			if !strings.Contains(txt, s) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, txt)
		}
	}
	return out
}

// scalingEvents returns the ScalingReplicaSet event messages in order,
// shortened to "up RS from X to Y" / "down RS from X to Y".
func (r *Runner) scalingEvents() []string {
	var out []string
	for _, txt := range r.texts(trace.KindEvent, "ScalingReplicaSet") {
		_, msg, _ := strings.Cut(txt, ": Scaled ")
		out = append(out, strings.Replace(msg, " replica set ", " ", 1))
	}
	return out
}

// rs returns a ReplicaSet or nil.
func rsNamed(sm *sim.Sim, name string) *appsv1.ReplicaSet {
	rs, err := sm.Server().GetReplicaSet("default", name)
	if err != nil {
		return nil
	}
	return rs
}

// deployment returns a Deployment or fails.
func deployment(t testing.TB, sm *sim.Sim, name string) *appsv1.Deployment {
	t.Helper()
	d, err := sm.Server().GetDeployment("default", name)
	if err != nil {
		t.Fatalf("get deployment %s: %v", name, err)
	}
	return d
}

// podsOf returns the pods whose controller is the named owner ("" for
// orphans).
func podsOf(sm *sim.Sim, owner string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range sm.Server().ListPods("default", nil) {
		ref := metav1.GetControllerOfNoCopy(p)
		if (ref == nil && owner == "") || (ref != nil && ref.Name == owner) {
			out = append(out, p)
		}
	}
	return out
}

// ownedRS returns the ReplicaSets controlled by Deployment d, by name.
func ownedRS(sm *sim.Sim, d string) map[string]*appsv1.ReplicaSet {
	out := map[string]*appsv1.ReplicaSet{}
	for _, rs := range sm.Server().ListReplicaSets("default", nil) {
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && ref.Name == d {
			out[rs.Name] = rs
		}
	}
	return out
}

// available reports whether rs/name has at least n available replicas.
func rsAvailable(name string, n int32) func(*sim.Sim) bool {
	return func(sm *sim.Sim) bool {
		rs := rsNamed(sm, name)
		return rs != nil && rs.Status.AvailableReplicas >= n
	}
}

// rowOf returns the fields of the row of a kubectl table whose first
// column is name.
func rowOf(t testing.TB, table, name string) []string {
	t.Helper()
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == name {
			return f
		}
	}
	t.Fatalf("no row %q in:\n%s", name, table)
	return nil
}

func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}
