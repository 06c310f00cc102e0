package workqueue

import (
	"errors"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// TestItemExponentialWorkedExample is the table in ItemExponential's doc.
func TestItemExponentialWorkedExample(t *testing.T) {
	r := NewItemExponential(DefaultBaseDelay, DefaultMaxDelay)
	want := map[int]time.Duration{
		1: 5 * time.Millisecond, 2: 10 * time.Millisecond, 3: 20 * time.Millisecond, 4: 40 * time.Millisecond,
		15: 81920 * time.Millisecond, 18: 655360 * time.Millisecond, 19: 1000 * time.Second,
	}
	for call := 1; call <= 19; call++ {
		got := r.When("ns/a")
		if w, ok := want[call]; ok && got != w {
			t.Errorf("call %d: %v, want %v", call, got, w)
		}
		if got > DefaultMaxDelay {
			t.Errorf("call %d: %v above the cap", call, got)
		}
		if n := r.NumRequeues("ns/a"); n != call {
			t.Errorf("after call %d NumRequeues = %d", call, n)
		}
	}
	if got := r.When("ns/b"); got != 5*time.Millisecond {
		t.Errorf("another key shares the count: %v", got)
	}
}

func TestItemExponentialDoublesUntilCapAndNeverOverflows(t *testing.T) {
	r := NewItemExponential(DefaultBaseDelay, DefaultMaxDelay)
	prev := time.Duration(0)
	for call := 1; call <= 200; call++ {
		d := r.When("k")
		switch {
		case d < prev:
			t.Fatalf("call %d: backoff went down from %v to %v", call, prev, d)
		case d < DefaultMaxDelay && prev != 0 && d != 2*prev:
			t.Fatalf("call %d: %v is not twice %v", call, d, prev)
		}
		prev = d
	}
	if prev != DefaultMaxDelay {
		t.Fatalf("call 200: %v, want the cap", prev)
	}
	huge := NewItemExponential(time.Hour, time.Duration(math.MaxInt64))
	if got := huge.Backoff(100); got != time.Duration(math.MaxInt64) {
		t.Fatalf("overflow not capped: %v", got)
	}
}

func TestItemExponentialForget(t *testing.T) {
	r := NewItemExponential(DefaultBaseDelay, DefaultMaxDelay)
	r.When("k")
	r.When("k")
	r.Forget("k")
	if r.NumRequeues("k") != 0 {
		t.Fatal("Forget kept the count")
	}
	if got := r.When("k"); got != 5*time.Millisecond {
		t.Fatalf("after Forget: %v, want 5ms", got)
	}
}

func boundBucket(qps float64, burst int) (*Bucket, *clock.Clock) {
	c := clock.New(clock.Epoch)
	b := NewBucket(qps, burst)
	b.BindClock(c)
	return b, c
}

// TestBucketWorkedExample is the example in Bucket's doc.
func TestBucketWorkedExample(t *testing.T) {
	b, c := boundBucket(DefaultQPS, DefaultBurst)
	for i := 1; i <= 100; i++ {
		if d := b.When("k" + strconv.Itoa(i)); d != 0 {
			t.Fatalf("request %d within the burst delayed %v", i, d)
		}
	}
	if d := b.When("k101"); d != 100*time.Millisecond {
		t.Fatalf("101st request: %v, want 100ms", d)
	}
	if d := b.When("k102"); d != 200*time.Millisecond {
		t.Fatalf("102nd request: %v, want 200ms", d)
	}
	c.Advance(time.Second)
	if d := b.When("k103"); d != 0 {
		t.Fatalf("after 1s: %v, want 0", d)
	}
	if got := b.Tokens(); math.Abs(got-7) > 1e-9 {
		t.Fatalf("tokens = %v, want 7", got)
	}
}

func TestBucketRefillsAtQPSOnVirtualTime(t *testing.T) {
	b, c := boundBucket(DefaultQPS, DefaultBurst)
	for range 100 {
		b.When("k")
	}
	if got := b.Tokens(); got != 0 {
		t.Fatalf("drained bucket holds %v", got)
	}
	c.Advance(350 * time.Millisecond)
	if got := b.Tokens(); math.Abs(got-3.5) > 1e-9 {
		t.Fatalf("after 350ms: %v tokens, want 3.5", got)
	}
	for i := range 3 {
		if d := b.When("k"); d != 0 {
			t.Fatalf("refilled token %d delayed %v", i, d)
		}
	}
	// 0.5 left: the next request is half a token short.
	if d := b.When("k"); d != 50*time.Millisecond {
		t.Fatalf("half a token short: %v, want 50ms", d)
	}
	c.Advance(time.Hour)
	if got := b.Tokens(); got != DefaultBurst {
		t.Fatalf("refill exceeded the burst: %v", got)
	}
}

func TestBucketCannotGrantWithoutBurst(t *testing.T) {
	b, _ := boundBucket(10, 0)
	if d := b.When("k"); d != InfDuration {
		t.Fatalf("burst 0: %v, want InfDuration", d)
	}
	nr, _ := boundBucket(0, 1)
	if d := nr.When("k"); d != 0 {
		t.Fatalf("first token: %v", d)
	}
	if d := nr.When("k"); d != InfDuration {
		t.Fatalf("no refill, in debt: %v, want InfDuration", d)
	}
	inf, _ := boundBucket(math.Inf(1), 0)
	if d := inf.When("k"); d != 0 {
		t.Fatalf("infinite rate: %v", d)
	}
}

func TestBucketClockBinding(t *testing.T) {
	b := NewBucket(1, 1)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("an unbound bucket did not panic")
			}
		}()
		b.When("k")
	}()
	c := clock.New(clock.Epoch)
	b.BindClock(c)
	b.BindClock(c) // same clock: fine
	defer func() {
		if recover() == nil {
			t.Error("rebinding to another clock did not panic")
		}
	}()
	b.BindClock(clock.New(clock.Epoch))
}

// TestMaxOfWorkedExample is the example in MaxOf's doc.
func TestMaxOfWorkedExample(t *testing.T) {
	rl := DefaultControllerRateLimiter()
	rl.(ClockBinder).BindClock(clock.New(clock.Epoch))
	m := rl.(*MaxOf)
	for i := 1; i <= 100; i++ {
		if d, w := m.WhenExplained("k" + strconv.Itoa(i)); d != 5*time.Millisecond || w != "per-item" {
			t.Fatalf("key %d: %v %s", i, d, w)
		}
	}
	if d, w := m.WhenExplained("k101"); d != 100*time.Millisecond || w != "bucket" {
		t.Fatalf("key 101: %v %s, want 100ms bucket", d, w)
	}
}

func TestMaxOfPicksLargerAndTiesGoFirst(t *testing.T) {
	c := clock.New(clock.Epoch)
	slow := NewItemExponential(time.Second, time.Hour)
	fast := NewItemExponential(time.Millisecond, time.Hour)
	m := NewMaxOf(fast, slow)
	m.BindClock(c) // no bucket inside: binding is a no-op
	if d := m.When("k"); d != time.Second {
		t.Fatalf("When = %v, want the larger 1s", d)
	}
	same := NewMaxOf(NewItemExponential(time.Second, time.Hour), NewBucket(1, 0))
	same.BindClock(c)
	if d, w := same.WhenExplained("k"); d != InfDuration || w != "bucket" {
		t.Fatalf("%v %s", d, w)
	}
	tie := NewMaxOf(NewItemExponential(time.Second, time.Hour), NewItemExponential(time.Second, time.Hour))
	if _, w := tie.WhenExplained("k"); w != "per-item" {
		t.Fatalf("tie winner %q", w)
	}
	if n := m.NumRequeues("k"); n != 1 {
		t.Fatalf("NumRequeues = %d, want 1 (the max over limiters)", n)
	}
}

func TestForgetResetsItemExponentNotBucket(t *testing.T) {
	rl := DefaultControllerRateLimiter()
	c := clock.New(clock.Epoch)
	rl.(ClockBinder).BindClock(c)
	for i := range 99 {
		rl.When("other" + strconv.Itoa(i))
	}
	rl.When("k") // token 100: per-item 5ms wins
	if d := rl.When("k"); d != 100*time.Millisecond {
		t.Fatalf("second failure: %v, want bucket 100ms (per-item 10ms)", d)
	}
	rl.Forget("k")
	if rl.NumRequeues("k") != 0 {
		t.Fatal("Forget kept the per-item count")
	}
	if d := rl.When("k"); d != 200*time.Millisecond {
		t.Fatalf("after Forget: %v, want 200ms: the bucket keeps its debt", d)
	}
}

func TestInvariantErrorsWrapSentinel(t *testing.T) {
	h := newHarness(t, nil)
	h.q.dirty["x"] = &pending{}
	if err := h.q.CheckInvariants(); !errors.Is(err, ErrInvariant) {
		t.Fatalf("error %v does not wrap ErrInvariant", err)
	}
}
