// Package workqueue reproduces client-go's rate-limited workqueue
// (k8s.io/client-go/util/workqueue, v0.36.3) on virtual time, and records
// every operation in the trace.
//
// One job: decide which controller key is handed to a worker next, and when a
// key that failed may be retried.
//
// Contract (the properties upstream's package doc promises, kept here):
//
//   - Fair: keys are handed out in the order they were first added.
//   - Stingy: a key added many times before it is processed is processed
//     once; Add on a key that is already queued does not move it.
//   - One at a time: a key handed out by Get is never handed out again until
//     Done. Adds made meanwhile collapse into a single re-run after Done.
//   - Delayed adds: AddAfter(k, d) with d <= 0 is a plain Add. Otherwise k
//     waits until now+d; a second AddAfter only ever moves it earlier, and a
//     waiting key does not block an immediate Add.
//   - Retries: AddRateLimited(k) is AddAfter(k, When(k)) where When comes
//     from a RateLimiter; Forget ends the retry bookkeeping of k.
//
// What differs from upstream, on purpose: nothing waits and no goroutine
// runs. Time is the engine's virtual clock; the simulator asks NextReadyAt,
// advances the clock and calls PromoteDue, which does what upstream's waiting
// loop does when its timer fires. The token bucket reimplements
// golang.org/x/time/rate's reservation arithmetic on that clock. There is no
// ShutDown: a simulation simply stops stepping. Keys waiting with the same
// ready time are promoted in the order they were scheduled (upstream's wall
// clock would have given the earlier call the earlier time).
//
// Every state change is recorded as a QueueOp payload (trace.KindQueue):
// add, add-deduped, add-while-processing, get, done, done-requeued,
// done-ignored, add-after, promote, rate-limited, forget. Reads (Len,
// NumRequeues, NextReadyAt, Snapshot), a Get on an empty queue and a Forget
// with nothing to clear change nothing and are not recorded.
//
// Every key also carries its reasons: each Add says why (for the UI), the
// reasons pile up while the key is dirty, and Get hands them out together.
//
// The Queue is not safe for concurrent use; the engine is single-threaded.
package workqueue
