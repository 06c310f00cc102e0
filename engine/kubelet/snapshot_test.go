package kubelet

import (
	"fmt"
	"slices"
	"strings"
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

// A fork (a server and a kubelet made on a slot table of their own that
// restore another pair's checkpoints) moves onto the original's table,
// where the pod states it restores read their pods by slot (storedPod):
// from the checkpoint on, it makes the original's transitions, and its
// pods end as the original's.
func TestForkMakesTheOriginalsTransitions(t *testing.T) {
	cfg := Defaults()
	cfg.Nodes = []string{"node-1", "node-2"}
	f := newFixture(t, cfg)
	for _, name := range []string{"a", "b", "c", "d"} {
		f.createPod(name, "nginx:1.25")
	}
	f.runFor(2 * time.Second)
	clk, rec, srv, kub, rnd := f.clock.Checkpoint(), f.rec.Checkpoint(), f.server.Checkpoint(), f.k.Checkpoint(), f.k.rand.Checkpoint()
	then := func(x *fixture) ([]string, string) {
		t.Helper()
		if err := x.server.DeletePod("test", "default", "b", apiserver.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		x.createPod("e", "nginx:1.25")
		got := x.runFor(60 * time.Second)
		var pods []string
		for _, p := range x.server.ListPods("", nil) {
			pods = append(pods, fmt.Sprintf("%s %s %s ready=%v", p.Name, p.Spec.NodeName, p.Status.Phase, ready(p)))
		}
		return got, strings.Join(pods, "; ")
	}
	want, wantPods := then(f)

	g := newFixture(t, cfg)
	g.createPod("z", "nginx:1.25") // the fork's own table: z's key takes slot 0
	g.createPod("a", "nginx:1.25")
	g.runFor(time.Second)
	if g.server.KeySlots() == f.server.KeySlots() {
		t.Fatal("the fork is on the original's slot table before it restores")
	}
	g.clock.Restore(clk)
	g.rec.Restore(rec)
	g.server.Restore(srv)
	g.k.Restore(kub)
	g.k.rand.Restore(rnd)
	if g.server.KeySlots() != f.server.KeySlots() || g.k.pods.SlotTable() != f.server.KeySlots() {
		t.Fatal("the fork's server and kubelet are not on the checkpoint's slot table")
	}
	got, gotPods := then(g)
	if !slices.Equal(got, want) || gotPods != wantPods {
		t.Fatalf("the fork:\n%s\n%s\nthe original:\n%s\n%s", strings.Join(got, "\n"), gotPods, strings.Join(want, "\n"), wantPods)
	}
	// a, c and d (restored states) turn ready, b terminates, e is bound,
	// runs and turns ready.
	if len(want) < 7 || !strings.Contains(wantPods, "ready=true") {
		t.Fatalf("too little happened after the checkpoint: %d transitions; %s", len(want), wantPods)
	}
}
