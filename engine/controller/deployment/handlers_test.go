package deployment

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/informer"
)

// fakeLog is a watch log the test writes directly, for cache states the API
// server would refuse to produce (an empty selector).
type fakeLog struct{ events []apiserver.WatchEvent }

func (l *fakeLog) WatchSince(cursor int) []apiserver.WatchEvent { return l.events[cursor:] }

func TestSelectingAll(t *testing.T) {
	f := newFixture(t)
	log := &fakeLog{}
	f.dInf = informer.New(apiserver.Deployments, log, f.clock, f.rec, nil, informer.Config{})
	f.dc = New(f.server, f.dInf, f.rsInf, f.podInf, f.clock, f.rec, DefaultConfig())
	d := newDeployment("web", 1, "1", "0", "nginx:1")
	d.Spec.Selector = &metav1.LabelSelector{}
	d.Generation, d.ResourceVersion, d.UID = 2, "1", "uid-web"
	log.events = append(log.events, apiserver.WatchEvent{Type: apiserver.Added, Resource: apiserver.Deployments, Key: "default/web", Object: d, RV: 1})
	f.step()
	if fin := f.lastSync(); fin.Result != ResultOK || fin.Path != PathSelectingAll {
		t.Fatalf("sync %+v", fin)
	}
	if !hasEvent(f.events(), "Warning SelectingAll: This deployment is selecting all pods. A non-empty selector is required.") {
		t.Fatalf("events %q", f.events())
	}
	// observedGeneration < generation: an UpdateStatus was attempted (it
	// fails with NotFound here, and the error is ignored as upstream does).
	mustContain(t, apiTexts(f), "deployment-controller update deployments/status default/web -> 404")
	if len(f.replicaSets()) != 0 {
		t.Errorf("a selecting-all deployment must not create ReplicaSets")
	}
}

func apiTexts(f *fixture) []string {
	var out []string
	for _, r := range f.rec.Records() {
		if r.Source == "apiserver" {
			out = append(out, r.Data.Text())
		}
	}
	return out
}

func TestDeletingDeploymentOnlySyncsStatus(t *testing.T) {
	f := completed(t, newDeployment("web", 2, "1", "0", "nginx:1"))
	p := metav1.DeletePropagationForeground
	if err := f.server.DeleteDeployment("kubectl", "default", "web", apiserver.DeleteOptions{PropagationPolicy: &p}); err != nil {
		t.Fatal(err)
	}
	f.drain()
	if fin := f.lastSync(); fin.Path != PathStatusOnly || fin.Result != ResultOK {
		t.Fatalf("sync of a deployment being deleted: %+v", fin)
	}
	// Even a template change creates nothing while the Deployment is being
	// deleted.
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.drain()
	if n := len(f.replicaSets()); n != 1 {
		t.Fatalf("%d ReplicaSets, want 1", n)
	}
	if fin := f.lastSync(); fin.Path != PathStatusOnly {
		t.Fatalf("path %s", fin.Path)
	}
}

func TestReplicaSetHandlers(t *testing.T) {
	f := completed(t, newDeployment("web", 2, "1", "0", "nginx:1"))
	rs := f.replicaSets()[0]
	q := f.dc.Queue()
	if q.Len() != 0 {
		t.Fatalf("queue not empty")
	}
	// A resync (same resourceVersion) is ignored.
	f.dc.updateReplicaSet(rs, rs)
	if q.Len() != 0 {
		t.Errorf("RS resync enqueued")
	}
	// A tombstone delete resolves the owner.
	f.dc.deleteReplicaSet(informer.Tombstone{Key: "default/" + rs.Name, Obj: rs})
	if q.Len() != 1 {
		t.Errorf("tombstone delete did not enqueue")
	}
	f.drain()
	// An RS controlled by another UID enqueues nothing.
	other := rs.DeepCopy()
	other.OwnerReferences[0].UID = "someone-else"
	f.dc.addReplicaSet(other)
	if q.Len() != 0 {
		t.Errorf("foreign RS enqueued")
	}
	// An orphan RS enqueues every Deployment whose selector matches its labels.
	orphan := rs.DeepCopy()
	orphan.OwnerReferences = nil
	f.dc.addReplicaSet(orphan)
	if q.Len() != 1 {
		t.Errorf("matching orphan did not enqueue")
	}
	f.drain()
	orphan.Labels = map[string]string{"app": "nope"}
	f.dc.addReplicaSet(orphan)
	if q.Len() != 0 {
		t.Errorf("non-matching orphan enqueued")
	}
	// An RS that shows up already being deleted is treated as a delete.
	deleting := rs.DeepCopy()
	now := metav1.NewTime(f.clock.Now())
	deleting.DeletionTimestamp = &now
	f.dc.addReplicaSet(deleting)
	if q.Len() != 1 {
		t.Errorf("RS added with deletionTimestamp did not enqueue its owner")
	}
	f.drain()
	// Pod deletes matter only to Recreate Deployments.
	f.createPod(rs, "web-pod", "")
	f.deliver()
	if err := f.server.DeletePod("test", "default", "web-pod", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.deliver()
	if q.Len() != 0 {
		t.Errorf("pod delete enqueued a RollingUpdate deployment")
	}
}

func TestSyncErrors(t *testing.T) {
	f := newFixture(t)
	if err := f.dc.syncDeployment("a/b/c"); !errors.Is(err, ErrBadKey) {
		t.Errorf("bad key: %v", err)
	}
	log := &fakeLog{}
	f.dInf = informer.New(apiserver.Deployments, log, f.clock, f.rec, nil, informer.Config{})
	f.dc = New(f.server, f.dInf, f.rsInf, f.podInf, f.clock, f.rec, DefaultConfig())
	d := newDeployment("web", 1, "1", "0", "nginx:1")
	d.Spec.Strategy.Type = "BlueGreen"
	d.ResourceVersion, d.UID = "1", "uid-web"
	log.events = append(log.events, apiserver.WatchEvent{Type: apiserver.Added, Resource: apiserver.Deployments, Key: "default/web", Object: d, RV: 1})
	f.deliver()
	err := f.dc.syncDeployment("default/web")
	if !errors.Is(err, ErrUnexpectedStrategy) || err.Error() != "unexpected deployment strategy type: BlueGreen" {
		t.Errorf("unknown strategy: %v", err)
	}
}

// TestTraceJSON checks that every record the controller emits marshals to
// JSON (the UI reads the JSON trace) and renders a single line.
func TestTraceJSON(t *testing.T) {
	f := completed(t, newDeployment("web", 3, "1", "1", "nginx:1"))
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.finish()
	n := 0
	for _, r := range f.rec.Records() {
		if r.Source != source {
			continue
		}
		n++
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%T: %v", r.Data, err)
		}
		if strings.Contains(r.Data.Text(), "\n") || !strings.Contains(string(b), `"source":"deployment-controller"`) {
			t.Fatalf("bad record %s", b)
		}
	}
	if n == 0 {
		t.Fatal("no controller records")
	}
}
