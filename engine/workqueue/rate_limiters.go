package workqueue

import (
	"math"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// Defaults of client-go's DefaultControllerRateLimiter, used by the
// ReplicaSet, Deployment and garbage-collector queues.
const (
	// DefaultBaseDelay is the per-item backoff of the first failure.
	DefaultBaseDelay = 5 * time.Millisecond
	// DefaultMaxDelay caps the per-item backoff.
	DefaultMaxDelay = 1000 * time.Second
	// DefaultQPS is the refill rate of the shared token bucket, per second.
	DefaultQPS = 10.0
	// DefaultBurst is the capacity of the shared token bucket.
	DefaultBurst = 100
)

// RateLimiter decides how long a failed key waits before its retry.
type RateLimiter interface {
	// When returns how long key should wait now. Limiters that count
	// failures count this call as one.
	When(key string) time.Duration
	// Forget stops tracking key: its retries are over, whether it
	// succeeded or was dropped.
	Forget(key string)
	// NumRequeues returns how many failures are counted for key.
	NumRequeues(key string) int
}

// Explainer is implemented by limiters that combine others (MaxOf): it is
// When, plus the name of the limiter whose delay was returned.
type Explainer interface {
	WhenExplained(key string) (backoff time.Duration, winner string)
}

// ClockBinder is implemented by limiters that read virtual time. New binds
// the queue's clock into the limiter it is given.
type ClockBinder interface {
	BindClock(c *clock.Clock)
}

// named limiters report which of them won in a MaxOf.
type named interface {
	Name() string
}

func nameOf(l RateLimiter) string {
	if n, ok := l.(named); ok {
		return n.Name()
	}
	return ""
}

// DefaultControllerRateLimiter returns client-go's default controller
// limiter: the larger of a per-key exponential backoff (5ms·2^failures,
// capped at 1000s) and a token bucket shared by all keys (10 qps, burst
// 100). Each queue needs its own: the bucket is per limiter. Its clock is
// bound by New.
func DefaultControllerRateLimiter() RateLimiter {
	return NewMaxOf(
		NewItemExponential(DefaultBaseDelay, DefaultMaxDelay),
		NewBucket(DefaultQPS, DefaultBurst),
	)
}

// ItemExponential backs off each key exponentially: the n-th When since the
// key's last Forget returns baseDelay·2^(n-1), capped at maxDelay.
//
// Worked example with base 5ms and max 1000s (the controller default):
//
//	call   1    2     3     4     ...  15       18        19
//	delay  5ms  10ms  20ms  40ms  ...  1m21.92s 10m55.36s 16m40s (capped)
//
// The 15th failure waits 5ms·2^14 = 81.92s; from the 19th on the cap holds.
type ItemExponential struct {
	// baseDelay is the first backoff; > 0 for a useful limiter.
	baseDelay time.Duration
	// maxDelay caps every backoff.
	maxDelay time.Duration
	// failures counts When calls per key since its last Forget. Keys with
	// no failures are absent. Only looked up, never iterated.
	failures map[string]int
}

// NewItemExponential returns a per-key exponential limiter.
func NewItemExponential(baseDelay, maxDelay time.Duration) *ItemExponential {
	return &ItemExponential{baseDelay: baseDelay, maxDelay: maxDelay, failures: map[string]int{}}
}

// When counts a failure of key and returns its backoff.
func (r *ItemExponential) When(key string) time.Duration {
	exp := r.failures[key]
	r.failures[key] = exp + 1
	return r.Backoff(exp)
}

// Backoff returns the delay after exp earlier failures, without counting
// one: baseDelay·2^exp, or maxDelay when that is larger or overflows.
func (r *ItemExponential) Backoff(exp int) time.Duration {
	ns := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(exp))
	if ns >= math.MaxInt64 {
		return r.maxDelay
	}
	if d := time.Duration(ns); d <= r.maxDelay {
		return d
	}
	return r.maxDelay
}

// Forget resets key's failure count.
func (r *ItemExponential) Forget(key string) { delete(r.failures, key) }

// NumRequeues returns key's failure count.
func (r *ItemExponential) NumRequeues(key string) int { return r.failures[key] }

// Name is "per-item".
func (r *ItemExponential) Name() string { return "per-item" }

// MaxOf returns the largest delay of its limiters. Every limiter sees every
// call (so each counts its failures); on a tie the earlier limiter wins.
//
// Worked example, DefaultControllerRateLimiter, 101 distinct keys each
// failing once at the same instant: keys 1..100 get max(5ms, 0) = 5ms from
// the per-item limiter; key 101 gets max(5ms, 100ms) = 100ms from the bucket.
type MaxOf struct {
	// limiters are consulted in order; never empty.
	limiters []RateLimiter
}

// NewMaxOf combines limiters (at least one).
func NewMaxOf(limiters ...RateLimiter) *MaxOf {
	if len(limiters) == 0 {
		panic("workqueue: NewMaxOf needs a limiter")
	}
	return &MaxOf{limiters: append([]RateLimiter(nil), limiters...)}
}

// When returns the largest delay of the limiters.
func (m *MaxOf) When(key string) time.Duration {
	d, _ := m.WhenExplained(key)
	return d
}

// WhenExplained is When plus the name of the limiter that gave the delay.
func (m *MaxOf) WhenExplained(key string) (time.Duration, string) {
	var best time.Duration
	winner := ""
	for i, l := range m.limiters {
		if d := l.When(key); i == 0 || d > best {
			best, winner = d, nameOf(l)
		}
	}
	return best, winner
}

// Forget forgets key in every limiter.
func (m *MaxOf) Forget(key string) {
	for _, l := range m.limiters {
		l.Forget(key)
	}
}

// NumRequeues returns the largest count among the limiters.
func (m *MaxOf) NumRequeues(key string) int {
	n := 0
	for _, l := range m.limiters {
		n = max(n, l.NumRequeues(key))
	}
	return n
}

// BindClock binds c into every limiter that reads time.
func (m *MaxOf) BindClock(c *clock.Clock) {
	for _, l := range m.limiters {
		if b, ok := l.(ClockBinder); ok {
			b.BindClock(c)
		}
	}
}

// Name is "max-of".
func (m *MaxOf) Name() string { return "max-of" }

// Compile-time interface checks.
var (
	_ RateLimiter = (*ItemExponential)(nil)
	_ RateLimiter = (*Bucket)(nil)
	_ RateLimiter = (*MaxOf)(nil)
	_ Explainer   = (*MaxOf)(nil)
	_ ClockBinder = (*MaxOf)(nil)
	_ ClockBinder = (*Bucket)(nil)
)
