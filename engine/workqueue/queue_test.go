package workqueue

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestFairFIFO(t *testing.T) {
	h := newHarness(t, nil)
	for _, k := range []string{"ns/c", "ns/a", "ns/b"} {
		h.add(k, "")
	}
	for _, want := range []string{"ns/c", "ns/a", "ns/b"} {
		h.mustGet(want)
	}
	if _, _, ok := h.get(); ok {
		t.Fatal("Get on an empty queue returned a key")
	}
}

func TestStingyDedupeKeepsPlaceAndCollectsReasons(t *testing.T) {
	h := newHarness(t, nil)
	h.add("default/web-abc", "pod web-abc-x1 created")
	h.add("default/other", "rs update")
	h.add("default/web-abc", "pod web-abc-x2 created")
	h.add("default/web-abc", "pod web-abc-x1 created") // same reason: kept once
	h.add("default/web-abc", "")                       // no reason: nothing to keep
	if got := h.q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
	h.wantLines(
		"replicaset add default/web-abc (pod web-abc-x1 created) -> queued, len=1",
		"replicaset add default/other (rs update) -> queued, len=2",
		"replicaset add default/web-abc (pod web-abc-x2 created) -> deduped (already queued)",
		"replicaset add default/web-abc (pod web-abc-x1 created) -> deduped (already queued)",
		"replicaset add default/web-abc -> deduped (already queued)",
	)
	r := h.mustGet("default/web-abc")
	if want := []string{"pod web-abc-x1 created", "pod web-abc-x2 created"}; !slices.Equal(r, want) {
		t.Fatalf("reasons = %q, want %q", r, want)
	}
	h.wantLines("replicaset get default/web-abc -> processing (reasons: pod web-abc-x1 created; pod web-abc-x2 created), len=1")
	h.mustGet("default/other")
}

func TestAddWhileProcessingRerunsOnceAfterDone(t *testing.T) {
	h := newHarness(t, nil)
	h.add("ns/a", "first")
	h.mustGet("ns/a")
	h.add("ns/a", "second")
	h.add("ns/a", "third")
	if h.q.Len() != 0 {
		t.Fatal("a processing key was queued: it could run concurrently")
	}
	if _, _, ok := h.get(); ok {
		t.Fatal("Get handed out a key that is processing")
	}
	h.lines()
	h.done("ns/a")
	h.wantLines("replicaset done ns/a -> re-queued (dirtied while processing), len=1")
	if r := h.mustGet("ns/a"); !slices.Equal(r, []string{"second", "third"}) {
		t.Fatalf("reasons of the re-run = %q", r)
	}
	h.done("ns/a")
	if h.q.Len() != 0 {
		t.Fatal("the adds made during processing ran more than once")
	}
	ops := h.ops()
	if len(ops) != 2 || ops[1].Op != OpDone {
		t.Fatalf("ops = %+v", ops)
	}
}

func TestAddWhileProcessingRecords(t *testing.T) {
	h := newHarness(t, nil)
	h.add("ns/a", "")
	h.mustGet("ns/a")
	h.lines()
	h.add("ns/a", "x")
	h.add("ns/a", "y")
	h.wantLines(
		"replicaset add ns/a (x) -> marked dirty (processing; re-queued on done)",
		"replicaset add ns/a (y) -> deduped (re-run after done already pending)",
	)
	st := h.q.Snapshot()
	if !slices.Equal(st.Dirty, []string{"ns/a"}) || !slices.Equal(st.Processing, []string{"ns/a"}) || len(st.Queue) != 0 {
		t.Fatalf("state = %+v", st)
	}
}

func TestDoneOnUnheldKeyIsIgnored(t *testing.T) {
	h := newHarness(t, nil)
	h.add("ns/a", "")
	h.done("ns/a") // queued, not processing: must not duplicate it
	h.done("ns/zzz")
	if h.q.Len() != 1 {
		t.Fatalf("Len = %d, want 1", h.q.Len())
	}
	h.wantLines(
		"replicaset add ns/a -> queued, len=1",
		"replicaset done ns/a -> ignored (not processing)",
		"replicaset done ns/zzz -> ignored (not processing)",
	)
}

func TestReasonsAreCapped(t *testing.T) {
	h := newHarness(t, nil)
	for i := range maxReasons + 3 {
		h.add("ns/a", "pod "+strconv.Itoa(i))
	}
	h.add("ns/a", "pod 0")
	r := h.mustGet("ns/a")
	if len(r) != maxReasons+1 || r[0] != "pod 0" || r[maxReasons] != "+3 more" {
		t.Fatalf("reasons = %q", r)
	}
}

func TestGetOnEmptyRecordsNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.get()
	if n := h.rec.Len(); n != 0 {
		t.Fatalf("%d records for an empty Get", n)
	}
}

func TestNilRecorder(t *testing.T) {
	q := New("deployment", newHarness(t, nil).c, nil, "deployment-controller", nil)
	q.Add("ns/a", "x")
	q.AddRateLimited("ns/b", "err")
	if k, r, ok := q.Get(); !ok || k != "ns/a" || !slices.Equal(r, []string{"x"}) {
		t.Fatalf("Get = %q %q %v", k, r, ok)
	}
	if err := q.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
}

func TestQueueOpJSON(t *testing.T) {
	h := newHarness(t, nil)
	h.rateLimited("ns/a", "sync error: boom")
	b, err := json.Marshal(h.rec.Records()[0])
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`"kind":"queue"`, `"type":"QueueOp"`, `"queue":"replicaset"`, `"op":"rate-limited"`,
		`"key":"ns/a"`, `"reason":"sync error: boom"`, `"delayNs":5000000`, `"waited":"scheduled"`,
		`"readyAtNs":5000000`, `"requeues":1`, `"limiter":"per-item"`, `"len":0`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON %s lacks %s", s, want)
		}
	}
	if strings.Contains(s, `"added"`) {
		t.Errorf("JSON %s carries an add outcome for a scheduled key", s)
	}
}

func TestEnumStrings(t *testing.T) {
	seen := map[string]bool{}
	for o := OpNone; o <= OpForget; o++ {
		if s := o.String(); s == "unknown" || seen[s] {
			t.Errorf("Op %d has name %q", o, s)
		} else {
			seen[s] = true
		}
	}
	if Op(200).String() != "unknown" || AddOutcome(200).String() != "unknown" || WaitOutcome(200).String() != "unknown" {
		t.Error("out-of-range enums must render as unknown")
	}
	for a := AddNone; a <= AddMarkedDirty; a++ {
		if a.String() == "unknown" {
			t.Errorf("AddOutcome %d unnamed", a)
		}
	}
	for w := WaitNone; w <= WaitMovedEarlier; w++ {
		if w.String() == "unknown" {
			t.Errorf("WaitOutcome %d unnamed", w)
		}
	}
}

func TestCheckInvariantsCatchesCorruption(t *testing.T) {
	h := newHarness(t, nil)
	h.add("ns/a", "")
	h.q.items = append(h.q.items, "ns/a")
	if err := h.q.CheckInvariants(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("duplicate not caught: %v", err)
	}
	h = newHarness(t, nil)
	h.add("ns/a", "")
	h.q.processing["ns/a"] = struct{}{}
	if err := h.q.CheckInvariants(); err == nil {
		t.Fatal("queued+processing not caught")
	}
	h = newHarness(t, nil)
	h.q.dirty["ns/b"] = &pending{}
	if err := h.q.CheckInvariants(); err == nil {
		t.Fatal("lost dirty key not caught")
	}
}
