package workqueue

import (
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// harness drives one queue and checks its invariants after every operation.
type harness struct {
	t   testing.TB
	c   *clock.Clock
	rec *trace.Recorder
	q   *Queue
	// seen is the sequence number of the last record returned by lines.
	seen uint64
}

func newHarness(t testing.TB, rl RateLimiter) *harness {
	t.Helper()
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	return &harness{t: t, c: c, rec: rec, q: New("replicaset", c, rec, "replicaset-controller", rl)}
}

func (h *harness) check() {
	h.t.Helper()
	if err := h.q.CheckInvariants(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) add(key, reason string) { h.t.Helper(); h.q.Add(key, reason); h.check() }
func (h *harness) done(key string)        { h.t.Helper(); h.q.Done(key); h.check() }
func (h *harness) forget(key string)      { h.t.Helper(); h.q.Forget(key); h.check() }

func (h *harness) addAfter(key, reason string, d time.Duration) {
	h.t.Helper()
	h.q.AddAfter(key, reason, d)
	h.check()
}

func (h *harness) rateLimited(key, reason string) {
	h.t.Helper()
	h.q.AddRateLimited(key, reason)
	h.check()
}

func (h *harness) get() (string, []string, bool) {
	h.t.Helper()
	k, r, ok := h.q.Get()
	h.check()
	return k, r, ok
}

// mustGet pops and expects key.
func (h *harness) mustGet(want string) []string {
	h.t.Helper()
	k, r, ok := h.get()
	if !ok || k != want {
		h.t.Fatalf("Get = %q, %v; want %q", k, ok, want)
	}
	return r
}

// advance moves the clock and promotes what became due.
func (h *harness) advance(d time.Duration) int {
	h.t.Helper()
	h.c.Advance(d)
	n := h.q.PromoteDue()
	h.check()
	return n
}

// ops returns the payloads recorded since the previous call.
func (h *harness) ops() []QueueOp {
	var out []QueueOp
	for _, r := range h.rec.Since(h.seen) {
		out = append(out, r.Data.(QueueOp))
	}
	h.seen = uint64(h.rec.Len())
	return out
}

// lines returns the text of the records since the previous call.
func (h *harness) lines() []string {
	var out []string
	for _, p := range h.ops() {
		out = append(out, p.Text())
	}
	return out
}

func (h *harness) wantLines(want ...string) {
	h.t.Helper()
	got := h.lines()
	if len(got) != len(want) {
		h.t.Fatalf("records:\n%q\nwant:\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			h.t.Errorf("record %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}
}
