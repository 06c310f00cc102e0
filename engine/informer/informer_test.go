package informer

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

type fixture struct {
	clock  *clock.Clock
	rec    *trace.Recorder
	server *apiserver.Server
	inf    *Informer
	events []string
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	root := rng.New(1)
	f := &fixture{clock: c, rec: rec, server: apiserver.New(c, root.Stream("apiserver"), rec)}
	if cfg.Indexers == nil {
		cfg.Indexers = map[string]IndexFunc{PodControllerIndex: PodControllerIndexFunc}
	}
	f.inf = New(apiserver.Pods, f.server, c, rec, root.Stream("informer"), cfg)
	f.inf.AddHandler(Handler{
		Name: "test",
		OnAdd: func(obj apiserver.Object) {
			// The store is updated before handlers run.
			if f.inf.Store().Get(KeyOf(obj)) == nil {
				t.Errorf("add handler ran before the store had %s", KeyOf(obj))
			}
			f.events = append(f.events, "add "+obj.GetName())
		},
		OnUpdate: func(o, n apiserver.Object) {
			f.events = append(f.events, "update "+n.GetName()+" rv "+o.GetResourceVersion()+"->"+n.GetResourceVersion())
		},
		OnDelete: func(obj any) {
			switch o := obj.(type) {
			case Tombstone:
				f.events = append(f.events, "delete tombstone "+o.Key)
			case apiserver.Object:
				f.events = append(f.events, "delete "+o.GetName())
			}
		},
	})
	return f
}

func pod(name string, lbls map[string]string) *corev1.Pod {
	p := &corev1.Pod{}
	p.Namespace, p.Name, p.Labels = "default", name, lbls
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx:1.25"}}
	return p
}

func (f *fixture) drain() int {
	f.inf.Observe()
	n := 0
	for f.inf.DeliverNext() {
		n++
	}
	return n
}

func TestLagDelaysDelivery(t *testing.T) {
	f := newFixture(t, Config{Lag: 500 * time.Millisecond})
	if _, err := f.server.CreatePod("test", pod("a", map[string]string{"app": "web"})); err != nil {
		t.Fatal(err)
	}
	f.inf.Observe()
	if f.inf.DeliverNext() {
		t.Fatal("delivered before the lag elapsed")
	}
	if at, ok := f.inf.NextDue(); !ok || !at.Equal(clock.Epoch.Add(500*time.Millisecond)) {
		t.Fatalf("NextDue = %v %v", at, ok)
	}
	if f.inf.Store().Len() != 0 {
		t.Fatal("cache changed before delivery")
	}
	f.clock.Advance(500 * time.Millisecond)
	if !f.inf.DeliverNext() {
		t.Fatal("not delivered at the due time")
	}
	if got := f.inf.Store().LastAppliedRV(); got == "" {
		t.Fatal("last applied RV not tracked")
	}
	if len(f.events) != 1 || f.events[0] != "add a" {
		t.Fatalf("events = %v", f.events)
	}
}

func TestAddUpdateDeleteAndIndexes(t *testing.T) {
	f := newFixture(t, Config{})
	p, err := f.server.CreatePod("test", pod("a", map[string]string{"app": "web"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.server.CreatePod("test", pod("b", map[string]string{"app": "db"})); err != nil {
		t.Fatal(err)
	}
	f.drain()
	if got := len(f.inf.Store().ByIndex(PodControllerIndex, "default")); got != 2 {
		t.Fatalf("orphans in index = %d, want 2", got)
	}
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	if got := f.inf.Store().List("default", sel); len(got) != 1 || got[0].GetName() != "a" {
		t.Fatalf("List(app=web) = %v", got)
	}
	// Give pod a a controller: it leaves the orphan bucket.
	p2 := p.DeepCopy()
	tr := true
	p2.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "u1", Controller: &tr, BlockOwnerDeletion: &tr}}
	if _, err := f.server.UpdatePod("test", p2); err != nil {
		t.Fatal(err)
	}
	f.drain()
	if got := f.inf.Store().ByIndex(PodControllerIndex, PodControllerKey("default", "ReplicaSet", "rs", "u1")); len(got) != 1 {
		t.Fatalf("controller bucket = %v", got)
	}
	if got := len(f.inf.Store().ByIndex(PodControllerIndex, "default")); got != 1 {
		t.Fatalf("orphans after adoption = %d, want 1", got)
	}
	zero := int64(0)
	if err := f.server.DeletePod("test", "default", "b", apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	f.drain()
	want := []string{"add a", "add b"}
	if len(f.events) != 4 || f.events[0] != want[0] || f.events[1] != want[1] || f.events[3] != "delete b" {
		t.Fatalf("events = %v", f.events)
	}
	if f.inf.Store().Get("default/b") != nil || f.inf.Store().Len() != 1 {
		t.Fatal("deleted pod still cached")
	}
}

func TestInsertionOrderSurvivesChurn(t *testing.T) {
	f := newFixture(t, Config{})
	zero := int64(0)
	names := []string{"p5", "p1", "p9", "p3"}
	for i := 0; i < 40; i++ {
		n := "x" + itoa(i)
		if _, err := f.server.CreatePod("test", pod(n, nil)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		if _, err := f.server.CreatePod("test", pod(n, nil)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 40; i++ {
		if err := f.server.DeletePod("test", "default", "x"+itoa(i), apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
			t.Fatal(err)
		}
	}
	f.drain()
	got := f.inf.Store().List("", nil)
	if len(got) != len(names) {
		t.Fatalf("len = %d", len(got))
	}
	for i, obj := range got {
		if obj.GetName() != names[i] {
			t.Fatalf("order %d = %s, want %s", i, obj.GetName(), names[i])
		}
	}
}

func TestTombstoneFault(t *testing.T) {
	f := newFixture(t, Config{TombstonePercent: 100})
	if _, err := f.server.CreatePod("test", pod("a", nil)); err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	if err := f.server.DeletePod("test", "default", "a", apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	f.drain()
	if f.events[len(f.events)-1] != "delete tombstone default/a" {
		t.Fatalf("events = %v", f.events)
	}
	last := f.rec.Records()[f.rec.Len()-1]
	if w, ok := last.Data.(WatchDelivery); !ok || !w.Tombstone {
		t.Fatalf("last record = %+v", last)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
