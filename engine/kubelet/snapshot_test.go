package kubelet

import (
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// savedValues copies the pod states a checkpoint holds.
func savedValues(cp *Checkpoint) map[string]podState {
	out := make(map[string]podState, cp.pods.Len())
	cp.pods.Range(func(key string, p *podState) bool {
		out[key] = *p
		return true
	})
	return out
}

// A pod state a checkpoint holds is never written afterwards: not by the
// model running on (every kind of transition, node failure and recovery,
// deletion), nor after the checkpoint is restored and run on again.
func TestCheckpointedPodStatesAreNeverWritten(t *testing.T) {
	cfg := Defaults()
	cfg.Nodes = []string{"node-1", "node-2"}
	cfg.Images = map[string]ImageProfile{"crash:1": {CrashLoop: true}}
	f := newFixture(t, cfg)
	var cps []*Checkpoint
	var want []map[string]podState
	var clocks []clock.Checkpoint
	var recs []trace.Checkpoint
	var servers []*apiserver.Checkpoint
	save := func() {
		clocks, recs, servers = append(clocks, f.clock.Checkpoint()), append(recs, f.rec.Checkpoint()), append(servers, f.server.Checkpoint())
		cp := f.k.Checkpoint()
		cps, want = append(cps, cp), append(want, savedValues(cp))
	}
	f.createPod("a", "nginx:1.25")
	f.createPod("b", "crash:1")
	f.createPod("c", "nginx:1.25")
	save()
	f.runFor(2 * time.Second)
	save()
	f.runFor(5 * time.Second)
	save()
	if err := f.k.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	f.runFor(50 * time.Second)
	save()
	if err := f.server.DeletePod("test", "default", "c", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.runFor(time.Second)
	save()
	if err := f.k.RecoverNode("node-1"); err != nil {
		t.Fatal(err)
	}
	f.runFor(30 * time.Second)
	// Back to the third checkpoint (the clock, log and server too), and on.
	f.clock.Restore(clocks[2])
	f.rec.Restore(recs[2])
	f.server.Restore(servers[2])
	f.k.Restore(cps[2])
	f.runFor(60 * time.Second)
	for i, cp := range cps {
		got := savedValues(cp)
		if len(got) != len(want[i]) {
			t.Fatalf("checkpoint %d: %d pod states, saved %d", i, len(got), len(want[i]))
		}
		for key, p := range want[i] {
			if got[key] != p {
				t.Errorf("checkpoint %d: pod %s was written after it was saved: %+v, saved %+v", i, key, got[key], p)
			}
		}
	}
	if len(want[1]) == 0 {
		t.Fatal("no pod states saved")
	}
}
