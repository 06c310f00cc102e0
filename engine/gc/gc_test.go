package gc

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// env is a cluster with an API server and a collector; the test plays
// kubectl and the kubelet.
type env struct {
	clock    *clock.Clock
	rec      *trace.Recorder
	srv      *apiserver.Server
	gc       *Collector
	tracePos int
	// afterStep, when set, runs after every collector step of settle.
	afterStep func()
}

func newEnv() *env {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	srv := apiserver.New(c, rng.New(1).Stream("names"), rec)
	return &env{clock: c, rec: rec, srv: srv, gc: New(srv, c, rec)}
}

// TestScenarios runs testdata/*. Commands:
//
//	create [owner=R/N] [block=false]   <YAML>   create, optionally owned by R/N (controller ref)
//	delete res=R name=N [policy=P] [grace=S]    kubectl delete
//	settle                                      run the GC, the kubelet and the clock to a fixed point
//	step                                        one Collector.Step
//	pending                                     the GC queue
//	state                                       every stored deployment, replica set and pod
//	trace                                       records since the last print
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		e := newEnv()
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return e.run(t, d)
		})
	})
}

func (e *env) run(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "create":
		return e.create(t, d)
	case "delete":
		res, _ := d.Arg("res")
		name, _ := d.Arg("name")
		var opts apiserver.DeleteOptions
		if p, ok := d.Arg("policy"); ok {
			pol := metav1.DeletionPropagation(p)
			opts.PropagationPolicy = &pol
		}
		if g, ok := d.Arg("grace"); ok {
			v, _ := strconv.ParseInt(g, 10, 64)
			opts.GracePeriodSeconds = &v
		}
		if err := e.srv.Delete("kubectl", apiserver.Resource(res), "default", name, opts); err != nil {
			return "error: " + err.Error()
		}
		return e.newTrace()
	case "step":
		if !e.gc.Step() {
			return "idle"
		}
		return e.newTrace()
	case "settle":
		return e.settle(t, d)
	case "pending":
		e.gc.Observe()
		if p := e.gc.Pending(); len(p) > 0 {
			return strings.Join(p, "\n")
		}
		return "(empty)"
	case "state":
		return e.state()
	case "trace":
		return e.newTrace()
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}

func (e *env) create(t *testing.T, d *datadriven.TestData) string {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal([]byte(d.Input), &tm); err != nil {
		d.Fatalf(t, "%v", err)
	}
	var obj apiserver.Object
	switch tm.Kind {
	case "Pod":
		obj = &corev1.Pod{}
	case "ReplicaSet":
		obj = &appsv1.ReplicaSet{}
	case "Deployment":
		obj = &appsv1.Deployment{}
	default:
		d.Fatalf(t, "kind %q", tm.Kind)
	}
	if err := yaml.Unmarshal([]byte(d.Input), obj); err != nil {
		d.Fatalf(t, "%v", err)
	}
	if o, ok := d.Arg("owner"); ok {
		res, name, _ := strings.Cut(o, "/")
		owner, err := e.srv.Get(apiserver.Resource(res), "default", name)
		if err != nil {
			d.Fatalf(t, "owner: %v", err)
		}
		yes, block := true, !d.HasArg("noblock")
		obj.SetOwnerReferences(append(obj.GetOwnerReferences(), metav1.OwnerReference{
			APIVersion: "apps/v1", Kind: apiserver.Resource(res).Kind(), Name: name, UID: owner.GetUID(),
			Controller: &yes, BlockOwnerDeletion: &block,
		}))
	}
	var err error
	switch o := obj.(type) {
	case *corev1.Pod:
		_, err = e.srv.CreatePod("kubectl", o)
	case *appsv1.ReplicaSet:
		_, err = e.srv.CreateReplicaSet("kubectl", o)
	case *appsv1.Deployment:
		_, err = e.srv.CreateDeployment("kubectl", o)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	e.newTrace() // creations are set-up, not the story
	return "ok"
}

// kubelet deletes, with grace 0, every terminating pod whose
// deletionTimestamp has passed. It reports whether it deleted anything.
func (e *env) kubelet() bool {
	did := false
	for _, p := range e.srv.ListPods("", nil) {
		if ts := p.DeletionTimestamp; ts != nil && !ts.Time.After(e.clock.Now()) && (p.DeletionGracePeriodSeconds == nil || *p.DeletionGracePeriodSeconds > 0) {
			zero := int64(0)
			uid := p.UID
			_ = e.srv.DeletePod("kubelet", p.Namespace, p.Name, apiserver.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
			did = true
		}
	}
	return did
}

// settle alternates GC steps, kubelet deletions and clock jumps to the next
// deadline until nothing is left to do (bounded).
func (e *env) settle(t *testing.T, d *datadriven.TestData) string {
	const maxRounds = 1000
	for round := 0; ; round++ {
		if round == maxRounds {
			d.Fatalf(t, "no fixed point after %d rounds", maxRounds)
		}
		if e.gc.Step() {
			if e.afterStep != nil {
				e.afterStep()
			}
			continue
		}
		if e.kubelet() {
			continue
		}
		next, ok := e.gc.NextDue()
		for _, p := range e.srv.ListPods("", nil) {
			if ts := p.DeletionTimestamp; ts != nil && ts.Time.After(e.clock.Now()) && (!ok || ts.Time.Before(next)) {
				next, ok = ts.Time, true
			}
		}
		if !ok {
			break
		}
		e.clock.AdvanceTo(next)
	}
	return e.newTrace() + "now=" + e.clock.Elapsed().String() + "\n" + e.state()
}

func (e *env) newTrace() string {
	var b strings.Builder
	for _, r := range e.rec.Records()[e.tracePos:] {
		b.WriteString(r.Text() + "\n")
	}
	e.tracePos = e.rec.Len()
	return b.String()
}

func (e *env) state() string {
	var lines []string
	add := func(res apiserver.Resource, o apiserver.Object) {
		s := fmt.Sprintf("%s %s", res, o.GetName())
		if o.GetDeletionTimestamp() != nil {
			s += " deleting"
		}
		if f := o.GetFinalizers(); len(f) > 0 {
			s += " finalizers=" + strings.Join(f, ",")
		}
		var owners []string
		for _, r := range o.GetOwnerReferences() {
			owners = append(owners, r.Kind+"/"+r.Name)
		}
		if len(owners) > 0 {
			s += " owners=" + strings.Join(owners, ",")
		} else {
			s += " orphan"
		}
		lines = append(lines, s)
	}
	for _, o := range e.srv.ListDeployments("", nil) {
		add(apiserver.Deployments, o)
	}
	for _, o := range e.srv.ListReplicaSets("", nil) {
		add(apiserver.ReplicaSets, o)
	}
	for _, o := range e.srv.ListPods("", nil) {
		add(apiserver.Pods, o)
	}
	if len(lines) == 0 {
		return "(nothing stored)\n"
	}
	return strings.Join(lines, "\n") + "\n"
}
