package replicaset

import (
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// With pod events arriving late, the sync after a scale-up is refused by
// the stale-cache gate with upstream's error, makes no API call and is
// retried rate-limited; once the pod informer catches up the retry passes.
func TestStaleCacheGateRefusesUntilInformerCatchesUp(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	seed := e.createPod("seed", map[string]string{"app": "other"}, nil)
	e.deliver()
	e.createRS("web", 2, 0)
	e.deliver()
	e.pods.SetLag(5 * time.Second)
	e.sync() // creates two pods and writes status
	e.deliver()
	var newest string
	for _, p := range e.srv.ListPods("default", nil) {
		if p.Name != "seed" && len(p.ResourceVersion) >= len(newest) && p.ResourceVersion > newest {
			newest = p.ResourceVersion
		}
	}

	e.resetMark()
	e.sync() // the status write's RS update re-enqueued the key
	all := e.since(func(trace.Payload) bool { return true })
	var refusals, requests []string
	for _, r := range e.rec.Records()[len(e.rec.Records())-len(all):] {
		switch p := r.Data.(type) {
		case StaleRefusal:
			refusals = append(refusals, p.Text())
		case apiserver.Request:
			requests = append(requests, p.Text())
		}
	}
	want := "stale cache: sync of default/web refused: read version: " + seed.ResourceVersion +
		" is not as new as written version: " + newest + " for group resource pods (stale skips 1)"
	expectLines(t, "refusal", refusals, []string{want})
	if len(requests) != 0 {
		t.Errorf("a refused sync made API requests: %v", requests)
	}
	if n := e.rc.Queue().NumRequeues("default/web"); n != 1 {
		t.Errorf("requeues %d, want 1", n)
	}
	if e.rc.StaleSyncSkips() != 1 {
		t.Errorf("stale skips %d", e.rc.StaleSyncSkips())
	}

	// The pod adds arrive: the gate passes, nothing more is created, and the
	// success forgets the retries.
	e.advance(5 * time.Second)
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	if got[1] != "expectations default/web: fulfilled add=0 del=0 -> sync" || got[len(got)-1] != "sync default/web done: ok" {
		t.Errorf("retry records:\n%v", got)
	}
	if n := e.rc.Queue().NumRequeues("default/web"); n != 0 {
		t.Errorf("requeues %d after success, want 0", n)
	}
	if n := len(e.livePods()); n != 3 {
		t.Errorf("%d pods, want seed + 2", n)
	}
	// The pod writes were cleared by the passing gate; the record now holds
	// only this sync's status write.
	snap := e.rc.Consistency().Snapshot()
	if len(snap) != 1 || snap[0].PodsRV != "" || snap[0].ReplicaSetsRV != e.liveRS("web").ResourceVersion {
		t.Errorf("consistency records %+v", snap)
	}
}

// With the gate off the same lag only meets expectations.
func TestStaleCacheGateOff(t *testing.T) {
	cfg := DefaultConfig()
	cfg.StaleCacheGate = false
	e := newEnv(t, cfg)
	e.createPod("seed", map[string]string{"app": "other"}, nil)
	e.createRS("web", 2, 0)
	e.deliver()
	e.pods.SetLag(5 * time.Second)
	e.sync()
	e.deliver()
	e.sync()
	if e.rc.StaleSyncSkips() != 0 || e.rc.Queue().NumRequeues("default/web") != 0 {
		t.Error("gate off must not refuse")
	}
	if n := len(e.livePods()); n != 3 {
		t.Errorf("%d pods, want seed + 2", n)
	}
}
