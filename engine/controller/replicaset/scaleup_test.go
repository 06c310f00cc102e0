package replicaset

import (
	"testing"
)

// A new ReplicaSet creates its pods in slow-start batches, with one
// SuccessfulCreate Event per pod, expecting the creations first.
func TestScaleUpSlowStart(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 5, 0)
	e.deliver()
	e.resetMark()
	if key := e.sync(); key != "default/web" {
		t.Fatalf("synced %q", key)
	}
	got := e.since(decisions)
	want := []string{
		"sync default/web start (reasons: replicaset default/web added)",
		"expectations default/web: no record add=0 del=0 -> sync",
		"claim ReplicaSet default/web (env=prod): 0 of 0 claimed; kept 0, adopted 0, released 0, other owner 0, skipped 0, failed 0",
		"manage default/web: active 0, desired 5, diff -5 -> create 5 (slow start batches 1 2 2)",
	}
	expectLines(t, "first records", got[:4], want)
	if n := countPrefix(got, "Normal SuccessfulCreate ReplicaSet default/web: Created pod: web-"); n != 5 {
		t.Errorf("%d SuccessfulCreate records, want 5:\n%v", n, got)
	}
	tail := got[len(got)-3:]
	expectLines(t, "last records", tail, []string{
		"manage default/web: create 5 of 5 succeeded",
		"status default/web: replicas 0, ready 0, available 0, terminating 0 -> written rv=12",
		"sync default/web done: ok",
	})
	if add, del, _ := e.rc.Expectations().Get("default/web"); add != 5 || del != 0 {
		t.Errorf("expectations add=%d del=%d, want 5/0", add, del)
	}
	pods := e.srv.ListPods("default", nil)
	if len(pods) != 5 {
		t.Fatalf("%d pods, want 5", len(pods))
	}
	p := pods[0]
	ref := p.OwnerReferences
	if p.GenerateName != "web-" || len(p.Name) != len("web-")+5 || len(ref) != 1 || ref[0].Name != "web" || ref[0].Kind != "ReplicaSet" ||
		ref[0].APIVersion != "apps/v1" || !*ref[0].Controller || !*ref[0].BlockOwnerDeletion || p.Labels["env"] != "prod" || p.Annotations["note"] != "x" {
		t.Errorf("created pod %s: generateName %q refs %+v labels %v annotations %v", p.Name, p.GenerateName, ref, p.Labels, p.Annotations)
	}

	// Every pod add observed: expectations fulfilled, status catches up.
	e.settle()
	if add, _, _ := e.rc.Expectations().Get("default/web"); add != 0 {
		t.Errorf("expectations add=%d after the adds, want 0", add)
	}
	if st := e.liveRS("web").Status; st.Replicas != 5 || st.ObservedGeneration != 1 {
		t.Errorf("status %+v", st)
	}
	if len(e.srv.ListPods("default", nil)) != 5 {
		t.Error("settling created more pods")
	}
}

// Expectations block a second sync until the creations are observed (the
// stale-cache gate is off here so that only expectations hold it back).
func TestExpectationsBlockSecondSync(t *testing.T) {
	cfg := DefaultConfig()
	cfg.StaleCacheGate = false
	e := newEnv(t, cfg)
	e.createRS("web", 2, 0)
	e.deliver()
	e.sync()
	// The status write re-enqueues the key (RS update); the pod adds are
	// not delivered yet, so the cache still shows no pods.
	e.rss.Observe()
	for e.rss.DeliverNext() {
	}
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	expectLines(t, "blocked sync", got[1:4], []string{
		"expectations default/web: pending add=2 del=0 -> wait",
		"claim ReplicaSet default/web (env=prod): 0 of 0 claimed; kept 0, adopted 0, released 0, other owner 0, skipped 0, failed 0",
		"manage default/web: skipped (expectations pending: expectations default/web: pending add=2 del=0 -> wait)",
	})
	if n := len(e.srv.ListPods("default", nil)); n != 2 {
		t.Fatalf("%d pods, want 2", n)
	}
	// Delivering the pod adds observes both creations.
	e.deliver()
	e.resetMark()
	e.sync()
	got = e.since(decisions)
	expectLines(t, "unblocked sync", got[1:4], []string{
		"expectations default/web: fulfilled add=0 del=0 -> sync",
		"claim ReplicaSet default/web (env=prod): 2 of 2 claimed; kept 2, adopted 0, released 0, other owner 0, skipped 0, failed 0",
		"manage default/web: active 2, desired 2, diff 0 -> nothing to do",
	})
}

// Scaling up by more than the burst creates at most BurstReplicas per sync.
func TestBurstReplicasCapsCreates(t *testing.T) {
	cfg := DefaultConfig()
	cfg.BurstReplicas = 3
	e := newEnv(t, cfg)
	e.createRS("web", 5, 0)
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	if got[3] != "manage default/web: active 0, desired 5, diff -5 -> create 3 (capped by burst 3) (slow start batches 1 2)" {
		t.Errorf("decision %q", got[3])
	}
	e.settle()
	if n := len(e.srv.ListPods("default", nil)); n != 5 {
		t.Errorf("%d pods after settling, want 5", n)
	}
}

func TestPlannedBatches(t *testing.T) {
	cases := []struct {
		count int
		want  string
	}{{0, ""}, {1, "1"}, {2, "1 1"}, {3, "1 2"}, {10, "1 2 4 3"}, {500, "1 2 4 8 16 32 64 128 245"}}
	for _, c := range cases {
		if got := joinInts(plannedBatches(c.count, 1)); got != c.want {
			t.Errorf("plannedBatches(%d) = %q, want %q", c.count, got, c.want)
		}
	}
}

func TestPodNamePrefix(t *testing.T) {
	if got := podNamePrefix("web-7c5d"); got != "web-7c5d-" {
		t.Errorf("prefix %q", got)
	}
	if got := podNamePrefix("Web"); got != "Web" {
		t.Errorf("invalid name prefix %q, want the name itself", got)
	}
}
