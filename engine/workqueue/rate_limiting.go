package workqueue

import "time"

// AddRateLimited schedules a retry of key: AddAfter(key, When(key)) with the
// backoff from the queue's RateLimiter, which counts the failure. reason says
// why (e.g. "sync error: ..."). The record names the requeue number, the
// backoff and the limiter that set it (e.g. "per-item" or "bucket").
func (q *Queue) AddRateLimited(key, reason string) {
	backoff, limiter := q.when(key)
	q.lastBackoff[key] = backoff
	rec := q.addAfter(key, reason, backoff)
	rec.Op = OpRateLimited
	rec.Requeues = q.rl.NumRequeues(key)
	rec.Limiter = limiter
	q.emit(rec)
}

// when asks the limiter for key's backoff and which limiter gave it.
func (q *Queue) when(key string) (time.Duration, string) {
	if e, ok := q.rl.(Explainer); ok {
		return e.WhenExplained(key)
	}
	return q.rl.When(key), nameOf(q.rl)
}

// Forget ends key's retries: the limiter stops counting its failures (the
// shared bucket is not refunded). It does not remove key from the queue or
// the waiting heap. Controllers call it after every successful sync, so a
// Forget that clears nothing (no failures counted, no rate-limited add since
// the last Forget) changes nothing and is not recorded.
func (q *Queue) Forget(key string) {
	n := q.rl.NumRequeues(key)
	_, limited := q.lastBackoff[key]
	q.rl.Forget(key)
	delete(q.lastBackoff, key)
	if n > 0 || limited {
		q.emit(QueueOp{Op: OpForget, Key: key, Requeues: n})
	}
}

// NumRequeues returns how many failures the limiter counts for key since its
// last Forget.
func (q *Queue) NumRequeues(key string) int { return q.rl.NumRequeues(key) }
