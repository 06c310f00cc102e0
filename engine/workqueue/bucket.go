package workqueue

import (
	"math"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// InfDuration is the delay of a request the bucket can never grant (a burst
// of 0, or no refill with the bucket in debt), as in golang.org/x/time/rate.
const InfDuration = time.Duration(math.MaxInt64)

// Bucket is a token bucket shared by every key, on virtual time. It
// reimplements the reservation arithmetic of golang.org/x/time/rate's
// Limiter.Reserve().Delay(), which client-go's BucketRateLimiter uses: the
// bucket starts full, refills at qps tokens per second up to burst, and every
// When takes one token, going into debt when none is left. A request that
// finds the bucket in debt d (tokens < 0 after taking its own) waits
// d/qps seconds, i.e. until the refill has paid the debt.
//
// Worked example, 10 qps, burst 100, all at one instant:
//
//	requests 1..100  -> 0 each (the burst)
//	request  101     -> 100ms (1 token short)
//	request  102     -> 200ms
//	one second later, request 103 -> 0: the bucket refilled 10 tokens and
//	                                    holds 8 - 1 = 7
//
// Forget and NumRequeues do nothing: the bucket does not count per key.
type Bucket struct {
	// clock gives "now"; bound once by BindClock (New does it).
	clock *clock.Clock
	// qps is the refill rate in tokens per second; <= 0 never refills,
	// +Inf grants everything at once.
	qps float64
	// burst is the capacity; tokens never exceeds it.
	burst int
	// tokens is the balance at last; negative when requests reserved
	// tokens not yet refilled.
	tokens float64
	// last is the instant tokens was brought up to date (zero: never, in
	// which case the bucket counts as full).
	last time.Time
}

// NewBucket returns a full bucket. It must be bound to a clock (BindClock,
// or by passing it, alone or inside MaxOf, to New) before When is called.
func NewBucket(qps float64, burst int) *Bucket {
	return &Bucket{qps: qps, burst: burst, tokens: float64(burst)}
}

// BindClock sets the clock the bucket reads. Binding a second, different
// clock panics: one bucket serves one simulation.
func (b *Bucket) BindClock(c *clock.Clock) {
	if b.clock != nil && b.clock != c {
		panic("workqueue: Bucket is already bound to another clock")
	}
	b.clock = c
}

// When takes a token now and returns how long the caller must wait for it.
func (b *Bucket) When(string) time.Duration {
	if b.clock == nil {
		panic("workqueue: Bucket used before BindClock")
	}
	return b.reserve(b.clock.Now())
}

// reserve takes one token at now and returns the wait, updating the state
// only when the reservation can be granted.
func (b *Bucket) reserve(now time.Time) time.Duration {
	if math.IsInf(b.qps, 1) {
		return 0
	}
	tokens := b.tokensAt(now) - 1
	var wait time.Duration
	if tokens < 0 {
		wait = b.durationFor(-tokens)
	}
	if b.burst < 1 {
		return InfDuration
	}
	b.last = now
	b.tokens = tokens
	return wait
}

// tokensAt is the balance at now: the stored balance plus the refill since
// last, capped at burst. It does not change the bucket.
func (b *Bucket) tokensAt(now time.Time) float64 {
	last := b.last
	if now.Before(last) {
		last = now
	}
	t := b.tokens + b.tokensFor(now.Sub(last))
	return min(t, float64(b.burst))
}

// Tokens returns the balance at the clock's now (negative while in debt).
func (b *Bucket) Tokens() float64 {
	if b.clock == nil {
		panic("workqueue: Bucket used before BindClock")
	}
	return b.tokensAt(b.clock.Now())
}

// tokensFor is the refill over d.
func (b *Bucket) tokensFor(d time.Duration) float64 {
	if b.qps <= 0 {
		return 0
	}
	return d.Seconds() * b.qps
}

// durationFor is the time the refill takes to produce n tokens.
func (b *Bucket) durationFor(n float64) time.Duration {
	if b.qps <= 0 {
		return InfDuration
	}
	ns := n / b.qps * float64(time.Second)
	if ns > math.MaxInt64 {
		return InfDuration
	}
	return time.Duration(ns)
}

// Forget does nothing: the bucket is not per key.
func (b *Bucket) Forget(string) {}

// NumRequeues is always 0: the bucket is not per key.
func (b *Bucket) NumRequeues(string) int { return 0 }

// Name is "bucket".
func (b *Bucket) Name() string { return "bucket" }
