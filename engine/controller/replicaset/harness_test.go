package replicaset

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// env is a real API server, the two informers and the controller, in the
// spirit of sample-controller's fixture. Tests seed objects through the API
// server as "kubectl", deliver watch events explicitly and drive the
// controller one worker iteration at a time.
type env struct {
	t     testing.TB
	clock *clock.Clock
	rec   *trace.Recorder
	srv   *apiserver.Server
	pods  *informer.Informer
	rss   *informer.Informer
	rc    *Controller
	// mark is the trace position tests compare "since" against.
	mark uint64
}

func newEnv(t testing.TB, cfg Config) *env {
	t.Helper()
	return newEnvAt(t, cfg, clock.Epoch)
}

// newEnvAt is newEnv with the virtual clock starting at start.
func newEnvAt(t testing.TB, cfg Config, start time.Time) *env {
	t.Helper()
	c := clock.New(start)
	rec := trace.NewRecorder(c, 7)
	srv := apiserver.New(c, rng.New(7).Stream("apiserver"), rec)
	pods := informer.New(apiserver.Pods, srv, c, rec, nil, informer.Config{
		Indexers: map[string]informer.IndexFunc{informer.PodControllerIndex: informer.PodControllerIndexFunc},
	})
	rss := informer.New(apiserver.ReplicaSets, srv, c, rec, nil, informer.Config{
		Indexers: map[string]informer.IndexFunc{informer.ControllerUIDIndex: informer.ControllerUIDIndexFunc},
	})
	e := &env{t: t, clock: c, rec: rec, srv: srv, pods: pods, rss: rss}
	e.rc = New(srv, pods, rss, c, rec, cfg)
	return e
}

// deliver observes the watch log and applies every due event, pods first.
func (e *env) deliver() {
	e.pods.Observe()
	e.rss.Observe()
	for e.pods.DeliverNext() || e.rss.DeliverNext() {
	}
}

// sync runs one worker iteration and fails the test if no key was ready.
func (e *env) sync() string {
	e.t.Helper()
	key, ok := e.rc.ProcessNextWorkItem()
	if !ok {
		e.t.Fatal("no key ready")
	}
	return key
}

// settle alternates deliveries and worker iterations until both are idle,
// without moving the clock. It returns the number of syncs.
func (e *env) settle() int {
	e.t.Helper()
	n := 0
	for i := 0; i < 1000; i++ {
		e.deliver()
		if _, ok := e.rc.ProcessNextWorkItem(); !ok {
			return n
		}
		n++
	}
	e.t.Fatal("settle: no fixed point after 1000 syncs")
	return n
}

// advance moves the clock and promotes due delayed keys.
func (e *env) advance(d time.Duration) {
	e.clock.Advance(d)
	e.rc.Queue().PromoteDue()
	e.deliver()
}

// since returns the texts of the records emitted after the mark whose
// payload passes keep, and moves the mark.
func (e *env) since(keep func(trace.Payload) bool) []string {
	var out []string
	for _, r := range e.rec.Since(e.mark) {
		if keep(r.Data) {
			out = append(out, r.Data.Text())
		}
	}
	e.mark = uint64(e.rec.Len())
	return out
}

// controllerRequests keeps the API requests of the controller.
func controllerRequests(p trace.Payload) bool {
	r, ok := p.(apiserver.Request)
	return ok && r.Actor == ControllerName
}

// decisions keeps the controller's decision, sync and event records.
func decisions(p trace.Payload) bool {
	switch p.Kind() {
	case trace.KindDecision, trace.KindSync, trace.KindEvent:
		return true
	}
	return false
}

func (e *env) resetMark() { e.mark = uint64(e.rec.Len()) }

var prod = map[string]string{"env": "prod"}

func (e *env) createRS(name string, replicas int32, minReady int32) *appsv1.ReplicaSet {
	e.t.Helper()
	rs, err := e.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        &replicas,
			MinReadySeconds: minReady,
			Selector:        &metav1.LabelSelector{MatchLabels: prod},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: prod, Annotations: map[string]string{"note": "x"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	})
	if err != nil {
		e.t.Fatalf("create rs: %v", err)
	}
	return rs
}

func (e *env) scaleRS(name string, replicas int32) {
	e.t.Helper()
	rs, err := e.srv.GetReplicaSet("default", name)
	if err != nil {
		e.t.Fatal(err)
	}
	c := rs.DeepCopy()
	c.Spec.Replicas = &replicas
	if _, err := e.srv.UpdateReplicaSet("kubectl", c); err != nil {
		e.t.Fatal(err)
	}
}

// createPod creates a pod with labels, optionally controlled by owner.
func (e *env) createPod(name string, lbls map[string]string, owner *appsv1.ReplicaSet) *corev1.Pod {
	e.t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: lbls},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "podtest", Image: "nginx:1.27"}}},
	}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*podutil.NewControllerRef(owner, replicaSetGVK)}
	}
	out, err := e.srv.CreatePod("kubectl", p)
	if err != nil {
		e.t.Fatalf("create pod: %v", err)
	}
	return out
}

// run schedules pod name on node and makes it Running; ready sets the Ready
// condition True with the current time as its transition time.
func (e *env) run(name, node string, ready bool) {
	e.t.Helper()
	if node != "" {
		if _, err := e.srv.BindPod("scheduler", "default", name, node); err != nil {
			e.t.Fatal(err)
		}
	}
	p, err := e.srv.GetPod("default", name)
	if err != nil {
		e.t.Fatal(err)
	}
	c := p.DeepCopy()
	c.Status.Phase = corev1.PodRunning
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	c.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.NewTime(e.clock.Now())}}
	if _, err := e.srv.UpdatePodStatus("kubelet", c); err != nil {
		e.t.Fatal(err)
	}
}

// livePods returns the names of the stored pods, sorted.
func (e *env) livePods() []string {
	var out []string
	for _, p := range e.srv.ListPods("default", nil) {
		out = append(out, p.Name)
	}
	return out
}

func (e *env) liveRS(name string) *appsv1.ReplicaSet {
	e.t.Helper()
	rs, err := e.srv.GetReplicaSet("default", name)
	if err != nil {
		e.t.Fatal(err)
	}
	return rs
}

func (e *env) events() []string {
	var out []string
	for _, ev := range e.srv.ListEvents("default") {
		out = append(out, ev.Type+" "+ev.Reason+" "+ev.Message)
	}
	return out
}

// expectLines fails unless got equals want line by line.
func expectLines(t testing.TB, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// countPrefix counts lines starting with prefix.
func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func zeroGrace() apiserver.DeleteOptions {
	var zero int64
	return apiserver.DeleteOptions{GracePeriodSeconds: &zero}
}

func metaNS(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "default", Name: name}
}

func labelsOnly(l map[string]string) metav1.ObjectMeta { return metav1.ObjectMeta{Labels: l} }

func selectorOf(l map[string]string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: l}
}

func noOptions() apiserver.DeleteOptions { return apiserver.DeleteOptions{} }
