package workqueue

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestAddRateLimitedRecordsBackoffAndWinner(t *testing.T) {
	h := newHarness(t, nil)
	for range 3 {
		h.rateLimited("default/web", "sync error: boom")
	}
	h.wantLines(
		"replicaset rate-limited default/web (sync error: boom) [requeue #1, backoff 5ms, per-item] -> waiting until +0.005s",
		"replicaset rate-limited default/web (sync error: boom) [requeue #2, backoff 10ms, per-item] -> kept earlier entry (ready +0.005s, not +0.010s)",
		"replicaset rate-limited default/web (sync error: boom) [requeue #3, backoff 20ms, per-item] -> kept earlier entry (ready +0.005s, not +0.020s)",
	)
	if n := h.q.NumRequeues("default/web"); n != 3 {
		t.Fatalf("NumRequeues = %d", n)
	}
	st := h.q.Snapshot()
	if len(st.Requeues) != 1 || st.Requeues[0] != (Requeue{Key: "default/web", Count: 3, LastBackoff: 20 * time.Millisecond}) {
		t.Fatalf("Requeues = %+v", st.Requeues)
	}
	h.advance(5 * time.Millisecond)
	h.mustGet("default/web")
}

func TestRetryLoopBacksOffExponentially(t *testing.T) {
	h := newHarness(t, nil)
	h.add("ns/a", "created")
	var waits []time.Duration
	for range 5 {
		h.mustGet("ns/a")
		h.rateLimited("ns/a", "sync error")
		h.done("ns/a")
		at, ok := h.q.NextReadyAt()
		if !ok {
			t.Fatal("nothing waiting after AddRateLimited")
		}
		d := at.Sub(h.c.Now())
		waits = append(waits, d)
		h.c.AdvanceTo(at)
		if h.q.PromoteDue() != 1 {
			t.Fatal("retry not promoted at its ready time")
		}
		h.check()
	}
	want := []time.Duration{5, 10, 20, 40, 80}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if !slices.Equal(waits, want) {
		t.Fatalf("waits = %v, want %v", waits, want)
	}
	h.mustGet("ns/a")
	h.forget("ns/a")
	h.done("ns/a")
	h.lines()
	h.add("ns/a", "")
	h.mustGet("ns/a")
	h.rateLimited("ns/a", "")
	if got := h.ops()[2].Delay; got != 5*time.Millisecond {
		t.Fatalf("after Forget the backoff is %v, want 5ms", got)
	}
}

func TestForgetRecordsOnlyWhenSomethingIsCleared(t *testing.T) {
	h := newHarness(t, nil)
	h.forget("ns/a")
	if h.rec.Len() != 0 {
		t.Fatal("a Forget with nothing to clear was recorded")
	}
	h.rateLimited("ns/a", "")
	h.rateLimited("ns/a", "")
	h.lines()
	h.forget("ns/a")
	h.wantLines("replicaset forget ns/a -> requeues reset from 2 to 0")
	if h.q.NumRequeues("ns/a") != 0 || len(h.q.Snapshot().Requeues) != 0 {
		t.Fatal("Forget kept bookkeeping")
	}
	if len(h.q.Snapshot().Waiting) != 1 {
		t.Fatal("Forget removed the waiting retry; upstream keeps it")
	}
}

func TestRateLimitedBucketWinsAfterBurst(t *testing.T) {
	h := newHarness(t, nil)
	for i := range 101 {
		h.rateLimited("ns/k"+strconv.Itoa(i), "")
	}
	ops := h.ops()
	last := ops[len(ops)-1]
	if last.Limiter != "bucket" || last.Delay != 100*time.Millisecond || last.Requeues != 1 {
		t.Fatalf("101st: %+v", last)
	}
	if got := last.Text(); got != "replicaset rate-limited ns/k100 [requeue #1, backoff 100ms, bucket] -> waiting until +0.100s" {
		t.Fatalf("text %q", got)
	}
}

// custom is a limiter without Name or WhenExplained.
type custom struct{ n int }

func (c *custom) When(string) time.Duration { c.n++; return 0 }
func (c *custom) Forget(string)             { c.n = 0 }
func (c *custom) NumRequeues(string) int    { return c.n }

func TestCustomLimiterZeroBackoffIsPlainAdd(t *testing.T) {
	h := newHarness(t, &custom{})
	h.rateLimited("ns/a", "err")
	h.wantLines("replicaset rate-limited ns/a (err) [requeue #1, backoff 0s] -> no delay: queued, len=1")
}
