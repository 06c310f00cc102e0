package deployment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// The oracle files hold the RS Update calls (and deletes) the real upstream
// controller functions issued against a fake clientset. These tests replay
// each case through this controller against the real in-memory API server:
// the ReplicaSets are created through the API (spec and annotations), and
// the controller is handed cached copies carrying the oracle's status,
// creation time and generation (state the cache could hold; the API server
// would not accept some of those statuses from a client).

type oracleFile struct {
	Function string       `json:"function"`
	Cases    []oracleCase `json:"cases"`
}

type oracleCase struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
}

type oracleRS struct {
	Name                 string            `json:"name"`
	Replicas             int32             `json:"replicas"`
	CreationTimestamp    string            `json:"creationTimestamp"`
	Annotations          map[string]string `json:"annotations"`
	Generation           int64             `json:"generation"`
	DeletionTimestampSet bool              `json:"deletionTimestampSet"`
	Status               struct {
		Replicas           int32 `json:"replicas"`
		AvailableReplicas  int32 `json:"availableReplicas"`
		ReadyReplicas      int32 `json:"readyReplicas"`
		ObservedGeneration int64 `json:"observedGeneration"`
	} `json:"status"`
}

type oracleUpdate struct {
	Name                      string `json:"name"`
	Replicas                  int32  `json:"replicas"`
	DesiredReplicasAnnotation string `json:"desiredReplicasAnnotation"`
	MaxReplicasAnnotation     string `json:"maxReplicasAnnotation"`
}

func loadOracle(t *testing.T, file string) oracleFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var f oracleFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	return f
}

// oracleIntOrString decodes a JSON int, a percent string or null.
func oracleIntOrString(raw json.RawMessage) *intstr.IntOrString {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		v := intstr.FromInt32(int32(n))
		return &v
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	v := intstr.FromString(s)
	return &v
}

// oracleDeployment builds the in-memory Deployment the oracle functions take.
// It is never written, so unset fenceposts stay unset (0) as in upstream's
// tests.
func oracleDeployment(replicas int32, strategy string, surge, unavailable json.RawMessage) *appsv1.Deployment {
	d := newDeployment("foo", replicas, "0", "0", "img")
	d.UID = "deployment-foo-uid"
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.DeploymentStrategyType(strategy)}
	if d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType {
		d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{
			MaxSurge:       oracleIntOrString(surge),
			MaxUnavailable: oracleIntOrString(unavailable),
		}
	}
	return d
}

// load creates the oracle ReplicaSets through the API server and returns the
// controller's view of them: cached copies with the oracle's status,
// creation time, generation and deletion mark.
func (f *fixture) load(in []oracleRS) []*appsv1.ReplicaSet {
	f.t.Helper()
	for _, o := range in {
		n := o.Replicas
		rs := &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: "default", Labels: map[string]string{"app": "foo"}, Annotations: o.Annotations},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: &n,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "foo"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "foo"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "img"}}},
				},
			},
		}
		if _, err := f.server.CreateReplicaSet("test", rs); err != nil {
			f.t.Fatalf("create %s: %v", o.Name, err)
		}
	}
	f.deliver()
	out := make([]*appsv1.ReplicaSet, 0, len(in))
	for _, o := range in {
		cached := f.rsInf.Store().Get("default/" + o.Name).(*appsv1.ReplicaSet)
		rs := cached.DeepCopy()
		rs.Status.Replicas = o.Status.Replicas
		rs.Status.AvailableReplicas = o.Status.AvailableReplicas
		rs.Status.ReadyReplicas = o.Status.ReadyReplicas
		rs.Status.ObservedGeneration = o.Status.ObservedGeneration
		rs.Generation = o.Generation
		rs.CreationTimestamp = metav1.Time{}
		if o.CreationTimestamp != "" {
			ts, err := time.Parse(time.RFC3339, o.CreationTimestamp)
			if err != nil {
				f.t.Fatal(err)
			}
			rs.CreationTimestamp = metav1.NewTime(ts)
		}
		if o.DeletionTimestampSet {
			now := metav1.NewTime(f.clock.Now())
			rs.DeletionTimestamp = &now
		}
		out = append(out, rs)
	}
	return out
}

// rsWrites returns the ReplicaSet updates stored since watch-log index from,
// in order, and the names deleted.
func (f *fixture) rsWrites(from int) (updates []oracleUpdate, deleted []string) {
	for _, ev := range f.server.WatchLog()[from:] {
		if ev.Resource != apiserver.ReplicaSets {
			continue
		}
		rs := ev.Object.(*appsv1.ReplicaSet)
		switch ev.Type {
		case apiserver.Modified:
			updates = append(updates, oracleUpdate{
				Name:                      rs.Name,
				Replicas:                  *rs.Spec.Replicas,
				DesiredReplicasAnnotation: rs.Annotations[deployutil.DesiredReplicasAnnotation],
				MaxReplicasAnnotation:     rs.Annotations[deployutil.MaxReplicasAnnotation],
			})
		case apiserver.Deleted:
			deleted = append(deleted, rs.Name)
		}
	}
	return updates, deleted
}

// finalReplicas is spec.replicas of every stored ReplicaSet.
func (f *fixture) finalReplicas() map[string]int32 {
	out := map[string]int32{}
	for _, rs := range f.server.ListReplicaSets("default", nil) {
		out[rs.Name] = *rs.Spec.Replicas
	}
	return out
}

func sameUpdates(got, want []oracleUpdate) bool {
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	return reflect.DeepEqual(got, want)
}

func TestOracleScale(t *testing.T) {
	file := loadOracle(t, "scale.json")
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var in struct {
				Deployment struct {
					Replicas       int32           `json:"replicas"`
					Strategy       string          `json:"strategy"`
					MaxSurge       json.RawMessage `json:"maxSurge"`
					MaxUnavailable json.RawMessage `json:"maxUnavailable"`
				} `json:"deployment"`
				StatusReplicas int32      `json:"deploymentStatusReplicas"`
				NewRS          *oracleRS  `json:"newRS"`
				OldRSs         []oracleRS `json:"oldRSs"`
			}
			var want struct {
				Updates       []oracleUpdate   `json:"updates"`
				FinalReplicas map[string]int32 `json:"final_replicas"`
			}
			mustUnmarshal(t, c.Input, &in)
			mustUnmarshal(t, c.Expected, &want)
			f := newFixture(t)
			d := oracleDeployment(in.Deployment.Replicas, in.Deployment.Strategy, in.Deployment.MaxSurge, in.Deployment.MaxUnavailable)
			d.Status.Replicas = in.StatusReplicas
			all := in.OldRSs
			if in.NewRS != nil {
				all = append([]oracleRS{*in.NewRS}, all...)
			}
			rss := f.load(all)
			var newRS *appsv1.ReplicaSet
			oldRSs := rss
			if in.NewRS != nil {
				newRS, oldRSs = rss[0], rss[1:]
			}
			from := len(f.server.WatchLog())
			if err := f.dc.scale(d, newRS, oldRSs); err != nil {
				t.Fatalf("scale: %v", err)
			}
			got, _ := f.rsWrites(from)
			if !sameUpdates(got, want.Updates) {
				t.Errorf("updates\n got %+v\nwant %+v", got, want.Updates)
			}
			if fin := f.finalReplicas(); !reflect.DeepEqual(fin, want.FinalReplicas) {
				t.Errorf("final replicas %v, want %v", fin, want.FinalReplicas)
			}
		})
	}
}

// reconcileInput is the shared input of the reconcile_* files.
type reconcileInput struct {
	Replicas       int32           `json:"replicas"`
	Strategy       string          `json:"strategy"`
	MaxSurge       json.RawMessage `json:"maxSurge"`
	MaxUnavailable json.RawMessage `json:"maxUnavailable"`
	NewRS          oracleRS        `json:"newRS"`
	OldRSs         []oracleRS      `json:"oldRSs"`
}

func TestOracleReconcileNewReplicaSet(t *testing.T) {
	file := loadOracle(t, "reconcile_new_replica_set.json")
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var in reconcileInput
			var want struct {
				Scaled  bool           `json:"scaled"`
				Updates []oracleUpdate `json:"updates"`
			}
			mustUnmarshal(t, c.Input, &in)
			mustUnmarshal(t, c.Expected, &want)
			f := newFixture(t)
			d := oracleDeployment(in.Replicas, in.Strategy, in.MaxSurge, in.MaxUnavailable)
			rss := f.load(append([]oracleRS{in.NewRS}, in.OldRSs...))
			from := len(f.server.WatchLog())
			scaled, err := f.dc.reconcileNewReplicaSet(rss, rss[0], d)
			if err != nil {
				t.Fatalf("reconcileNewReplicaSet: %v", err)
			}
			got, _ := f.rsWrites(from)
			if scaled != want.Scaled || !sameUpdates(got, want.Updates) {
				t.Errorf("scaled %t updates %+v, want %t %+v", scaled, got, want.Scaled, want.Updates)
			}
		})
	}
}

func TestOracleReconcileOldReplicaSets(t *testing.T) {
	file := loadOracle(t, "reconcile_old_replica_sets.json")
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var in reconcileInput
			var want struct {
				Scaled        bool             `json:"scaled"`
				Updates       []oracleUpdate   `json:"updates"`
				FinalReplicas map[string]int32 `json:"final_replicas"`
			}
			mustUnmarshal(t, c.Input, &in)
			mustUnmarshal(t, c.Expected, &want)
			f := newFixture(t)
			d := oracleDeployment(in.Replicas, in.Strategy, in.MaxSurge, in.MaxUnavailable)
			rss := f.load(append(append([]oracleRS(nil), in.OldRSs...), in.NewRS))
			oldRSs, newRS := rss[:len(rss)-1], rss[len(rss)-1]
			from := len(f.server.WatchLog())
			scaled, err := f.dc.reconcileOldReplicaSets(rss, oldRSs, newRS, d)
			if err != nil {
				t.Fatalf("reconcileOldReplicaSets: %v", err)
			}
			got, _ := f.rsWrites(from)
			if scaled != want.Scaled || !sameUpdates(got, want.Updates) {
				t.Errorf("scaled %t updates %+v, want %t %+v", scaled, got, want.Scaled, want.Updates)
			}
			if want.FinalReplicas != nil {
				if fin := f.finalReplicas(); !reflect.DeepEqual(fin, want.FinalReplicas) {
					t.Errorf("final replicas %v, want %v", fin, want.FinalReplicas)
				}
			}
		})
	}
}

func TestOracleCleanupDeployment(t *testing.T) {
	file := loadOracle(t, "cleanup_deployment.json")
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var in struct {
				Limit  *int32     `json:"revisionHistoryLimit"`
				OldRSs []oracleRS `json:"oldRSs"`
			}
			var want struct {
				Deleted []string `json:"deleted"`
			}
			mustUnmarshal(t, c.Input, &in)
			mustUnmarshal(t, c.Expected, &want)
			f := newFixture(t)
			d := oracleDeployment(1, "RollingUpdate", nil, nil)
			d.Spec.RevisionHistoryLimit = in.Limit
			rss := f.load(in.OldRSs)
			from := len(f.server.WatchLog())
			if err := f.dc.cleanupDeployment(rss, d); err != nil {
				t.Fatalf("cleanupDeployment: %v", err)
			}
			_, deleted := f.rsWrites(from)
			if len(deleted) != 0 || len(want.Deleted) != 0 {
				if !reflect.DeepEqual(deleted, want.Deleted) {
					t.Errorf("deleted %v, want %v", deleted, want.Deleted)
				}
			}
			// Every survivor is still stored.
			left := f.finalReplicas()
			names := make([]string, 0, len(left))
			for n := range left {
				names = append(names, n)
			}
			sort.Strings(names)
			if len(names)+len(want.Deleted) != len(in.OldRSs) {
				t.Errorf("stored %v after deleting %v of %d", names, want.Deleted, len(in.OldRSs))
			}
		})
	}
}

func mustUnmarshal(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}
