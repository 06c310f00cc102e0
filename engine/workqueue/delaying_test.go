package workqueue

import (
	"testing"
	"time"
)

func TestAddAfterNonPositiveIsPlainAdd(t *testing.T) {
	h := newHarness(t, nil)
	h.addAfter("ns/a", "now", 0)
	h.addAfter("ns/b", "", -time.Second)
	h.addAfter("ns/a", "again", 0)
	if h.q.Len() != 2 {
		t.Fatalf("Len = %d, want 2", h.q.Len())
	}
	if _, ok := h.q.NextReadyAt(); ok {
		t.Fatal("a non-positive delay left a waiting entry")
	}
	h.wantLines(
		"replicaset add-after ns/a (now) delay 0s -> no delay: queued, len=1",
		"replicaset add-after ns/b delay -1s -> no delay: queued, len=2",
		"replicaset add-after ns/a (again) delay 0s -> no delay: deduped (already queued)",
	)
}

func TestAddAfterKeepsEarliest(t *testing.T) {
	h := newHarness(t, nil)
	h.addAfter("ns/a", "slow", 2*time.Second)
	h.addAfter("ns/a", "fast", time.Second)     // moves earlier
	h.addAfter("ns/a", "slower", 3*time.Second) // kept
	h.addAfter("ns/a", "same", time.Second)     // equal: kept, with its reason
	h.wantLines(
		"replicaset add-after ns/a (slow) delay 2s -> waiting until +2.000s",
		"replicaset add-after ns/a (fast) delay 1s -> moved earlier (ready +1.000s, was +2.000s)",
		"replicaset add-after ns/a (slower) delay 3s -> kept earlier entry (ready +1.000s, not +3.000s)",
		"replicaset add-after ns/a (same) delay 1s -> kept earlier entry (ready +1.000s, not +1.000s)",
	)
	if at, ok := h.q.NextReadyAt(); !ok || !at.Equal(h.c.Start().Add(time.Second)) {
		t.Fatalf("NextReadyAt = %v %v", at, ok)
	}
	if n := h.advance(999 * time.Millisecond); n != 0 {
		t.Fatalf("promoted %d keys before they were due", n)
	}
	if n := h.advance(time.Millisecond); n != 1 {
		t.Fatalf("promoted %d keys at the ready time, want 1", n)
	}
	h.wantLines("replicaset promote ns/a (fast) (ready +1.000s) -> queued, len=1")
	if n := h.advance(5 * time.Second); n != 0 {
		t.Fatalf("the later duplicates survived: %d promoted", n)
	}
	if _, ok := h.q.NextReadyAt(); ok {
		t.Fatal("heap not empty")
	}
}

func TestWaitingDoesNotBlockAdd(t *testing.T) {
	h := newHarness(t, nil)
	h.addAfter("ns/a", "retry", time.Second)
	h.add("ns/a", "event")
	if h.q.Len() != 1 {
		t.Fatal("a waiting key blocked an immediate Add")
	}
	if r := h.mustGet("ns/a"); len(r) != 1 || r[0] != "event" {
		t.Fatalf("reasons = %q", r)
	}
	h.done("ns/a")
	h.advance(time.Second)
	if r := h.mustGet("ns/a"); len(r) != 1 || r[0] != "retry" {
		t.Fatalf("the waiting entry was lost or lost its reason: %q", r)
	}
}

func TestPromoteWhileProcessingMarksDirty(t *testing.T) {
	h := newHarness(t, nil)
	h.addAfter("ns/a", "retry", time.Second)
	h.add("ns/a", "")
	h.mustGet("ns/a")
	h.lines()
	h.advance(time.Second)
	h.wantLines("replicaset promote ns/a (retry) (ready +1.000s) -> marked dirty (processing; re-queued on done)")
	h.done("ns/a")
	h.mustGet("ns/a")
}

func TestPromoteOrderByReadyTimeThenScheduling(t *testing.T) {
	h := newHarness(t, nil)
	h.addAfter("ns/b", "", time.Second)
	h.addAfter("ns/a", "", time.Second)
	h.addAfter("ns/c", "", 500*time.Millisecond)
	h.addAfter("ns/d", "", 3*time.Second)
	h.addAfter("ns/d", "", time.Second) // moved: scheduled last among the 1s keys
	st := h.q.Snapshot()
	var waiting []string
	for _, w := range st.Waiting {
		waiting = append(waiting, w.Key)
	}
	if got := len(waiting); got != 4 || waiting[0] != "ns/c" || waiting[1] != "ns/a" || waiting[2] != "ns/b" || waiting[3] != "ns/d" {
		t.Fatalf("Snapshot.Waiting order = %q (want ready time, then key)", waiting)
	}
	if n := h.advance(2 * time.Second); n != 4 {
		t.Fatalf("promoted %d, want 4", n)
	}
	for _, want := range []string{"ns/c", "ns/b", "ns/a", "ns/d"} {
		h.mustGet(want)
	}
}
