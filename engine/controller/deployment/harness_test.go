package deployment

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// fixture is a real API server, three zero-lag informers and the controller,
// in the sample-controller style: the test writes through the API server,
// delivers every watch event, then runs worker iterations.
type fixture struct {
	t      testing.TB
	clock  *clock.Clock
	rec    *trace.Recorder
	server *apiserver.Server
	dInf   *informer.Informer
	rsInf  *informer.Informer
	podInf *informer.Informer
	dc     *Controller
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	root := rng.New(1)
	srv := apiserver.New(c, root.Stream("apiserver"), rec)
	f := &fixture{t: t, clock: c, rec: rec, server: srv}
	f.dInf = informer.New(apiserver.Deployments, srv, c, rec, nil, informer.Config{})
	f.rsInf = informer.New(apiserver.ReplicaSets, srv, c, rec, nil, informer.Config{
		Indexers: map[string]informer.IndexFunc{informer.ControllerUIDIndex: informer.ControllerUIDIndexFunc},
	})
	f.podInf = informer.New(apiserver.Pods, srv, c, rec, nil, informer.Config{
		Indexers: map[string]informer.IndexFunc{informer.PodControllerIndex: informer.PodControllerIndexFunc},
	})
	f.dc = New(srv, f.dInf, f.rsInf, f.podInf, c, rec, DefaultConfig())
	return f
}

// deliver hands every pending watch event to the informers.
func (f *fixture) deliver() {
	for {
		moved := false
		for _, inf := range []*informer.Informer{f.dInf, f.rsInf, f.podInf} {
			inf.Observe()
			for inf.DeliverNext() {
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}

// step delivers events and runs one worker iteration; it fails the test if
// no key is ready.
func (f *fixture) step() string {
	f.t.Helper()
	f.deliver()
	f.dc.Queue().PromoteDue()
	key, ok := f.dc.ProcessNextWorkItem()
	if !ok {
		f.t.Fatalf("no key ready")
	}
	f.deliver()
	return key
}

// drain runs worker iterations until the queue has nothing ready (bounded).
func (f *fixture) drain() int {
	f.t.Helper()
	n := 0
	for ; n < 50; n++ {
		f.deliver()
		f.dc.Queue().PromoteDue()
		if _, ok := f.dc.ProcessNextWorkItem(); !ok {
			return n
		}
	}
	f.t.Fatalf("queue did not drain in 50 syncs")
	return n
}

// advance moves virtual time forward.
func (f *fixture) advance(d time.Duration) { f.clock.Advance(d) }

func intOrStr(v string) *intstr.IntOrString {
	x := intstr.Parse(v)
	return &x
}

// newDeployment is a RollingUpdate Deployment "web" in namespace default.
func newDeployment(name string, replicas int32, surge, unavailable, image string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{
				Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{
					MaxSurge:       intOrStr(surge),
					MaxUnavailable: intOrStr(unavailable),
				},
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
			},
		},
	}
}

func (f *fixture) create(d *appsv1.Deployment) *appsv1.Deployment {
	f.t.Helper()
	out, err := f.server.CreateDeployment("kubectl", d)
	if err != nil {
		f.t.Fatalf("create deployment: %v", err)
	}
	return out
}

// mutate applies fn to a copy of the stored Deployment and Updates it.
func (f *fixture) mutate(name string, fn func(d *appsv1.Deployment)) {
	f.t.Helper()
	cur, err := f.server.GetDeployment("default", name)
	if err != nil {
		f.t.Fatal(err)
	}
	d := cur.DeepCopy()
	fn(d)
	if _, err := f.server.UpdateDeployment("kubectl", d); err != nil {
		f.t.Fatalf("update deployment: %v", err)
	}
}

func (f *fixture) deployment(name string) *appsv1.Deployment {
	f.t.Helper()
	d, err := f.server.GetDeployment("default", name)
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

// replicaSets returns the stored ReplicaSets of namespace default, oldest
// first.
func (f *fixture) replicaSets() []*appsv1.ReplicaSet {
	rss := f.server.ListReplicaSets("default", nil)
	out := append([]*appsv1.ReplicaSet(nil), rss...)
	deployutil.SortByCreation(out)
	return out
}

// sizes returns spec.replicas of every stored ReplicaSet, oldest first.
func (f *fixture) sizes() []int32 {
	var out []int32
	for _, rs := range f.replicaSets() {
		out = append(out, *rs.Spec.Replicas)
	}
	return out
}

// setAvailable simulates the ReplicaSet controller and kubelet: the named
// ReplicaSet reports replicas = spec, of which available are ready and
// available.
func (f *fixture) setAvailable(name string, available int32) {
	f.t.Helper()
	cur, err := f.server.GetReplicaSet("default", name)
	if err != nil {
		f.t.Fatal(err)
	}
	rs := cur.DeepCopy()
	rs.Status.Replicas = *rs.Spec.Replicas
	rs.Status.FullyLabeledReplicas = rs.Status.Replicas
	rs.Status.ReadyReplicas = available
	rs.Status.AvailableReplicas = available
	rs.Status.ObservedGeneration = rs.Generation
	zero := int32(0)
	rs.Status.TerminatingReplicas = &zero
	if _, err := f.server.UpdateReplicaSetStatus("test", rs); err != nil {
		f.t.Fatalf("update rs status: %v", err)
	}
}

// settle marks every ReplicaSet fully available at its current size.
func (f *fixture) settle() {
	for _, rs := range f.replicaSets() {
		f.setAvailable(rs.Name, *rs.Spec.Replicas)
	}
}

// events returns "Type Reason: message" of every stored event.
func (f *fixture) events() []string {
	var out []string
	for _, e := range f.server.ListEvents("default") {
		out = append(out, e.Type+" "+e.Reason+": "+e.Message)
	}
	return out
}

// records returns the Text of every record from source of the given type
// name.
func (f *fixture) records(typeName string) []string {
	var out []string
	for _, r := range f.rec.Records() {
		if trace.TypeName(r.Data) == typeName {
			out = append(out, r.Data.Text())
		}
	}
	return out
}

func (f *fixture) lastSync() SyncFinished {
	f.t.Helper()
	recs := f.rec.Records()
	for i := len(recs) - 1; i >= 0; i-- {
		if s, ok := recs[i].Data.(SyncFinished); ok {
			return s
		}
	}
	f.t.Fatal("no SyncFinished record")
	return SyncFinished{}
}

func condition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	return deployutil.GetDeploymentCondition(&d.Status, t)
}

func hasEvent(events []string, want string) bool {
	for _, e := range events {
		if e == want {
			return true
		}
	}
	return false
}

func mustContain(t testing.TB, list []string, want string) {
	t.Helper()
	for _, s := range list {
		if strings.Contains(s, want) {
			return
		}
	}
	t.Fatalf("no entry contains %q in:\n%s", want, strings.Join(list, "\n"))
}

// orphanDelete deletes Deployment name with propagation Orphan and plays the
// garbage collector: it strips the Deployment's reference from its
// ReplicaSets and removes the orphan finalizer. Nothing is delivered.
func (f *fixture) orphanDelete(name string) {
	f.t.Helper()
	d := f.deployment(name)
	p := metav1.DeletePropagationOrphan
	if err := f.server.DeleteDeployment("kubectl", "default", name, apiserver.DeleteOptions{PropagationPolicy: &p}); err != nil {
		f.t.Fatal(err)
	}
	for _, rs := range f.replicaSets() {
		if podutil.IsControlledBy(rs, d.UID) {
			if _, err := f.server.ReleaseObject("garbage-collector", apiserver.ReplicaSets, "default", rs.Name, rs.UID, d.UID); err != nil {
				f.t.Fatal(err)
			}
		}
	}
	if _, err := f.server.RemoveFinalizer("garbage-collector", apiserver.Deployments, "default", name, metav1.FinalizerOrphanDependents); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.server.GetDeployment("default", name); err == nil {
		f.t.Fatalf("deployment %s still stored after orphan delete", name)
	}
}
