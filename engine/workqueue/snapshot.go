package workqueue

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Checkpoint is a Queue's whole mutable state at one moment: the FIFO, the
// dirty set with its reasons, the processing set, the delayed keys, the
// backoff bookkeeping and the rate limiter's state (failure counts, token
// bucket). Everything is copied: entries and reasons change in place.
type Checkpoint struct {
	items        []string
	dirty        map[string]*pending
	processing   map[string]struct{}
	waiting      waitHeap
	waitSeq      uint64
	lastBackoff  map[string]time.Duration
	limiterState any
}

// Checkpoint saves the queue's state.
func (q *Queue) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		items:        slices.Clone(q.items),
		dirty:        clonePending(q.dirty),
		processing:   maps.Clone(q.processing),
		waiting:      cloneWaiting(q.waiting),
		waitSeq:      q.waitSeq,
		lastBackoff:  maps.Clone(q.lastBackoff),
		limiterState: checkpointLimiter(q.rl),
	}
	return cp
}

// Restore puts the queue back in the saved state; the checkpoint can be
// restored again.
func (q *Queue) Restore(cp *Checkpoint) {
	q.items = slices.Clone(cp.items)
	q.dirty = clonePending(cp.dirty)
	q.processing = maps.Clone(cp.processing)
	q.waiting = cloneWaiting(cp.waiting)
	q.waitingByKey = make(map[string]*waitEntry, len(q.waiting))
	for _, e := range q.waiting {
		q.waitingByKey[e.key] = e
	}
	q.waitSeq = cp.waitSeq
	q.lastBackoff = maps.Clone(cp.lastBackoff)
	restoreLimiter(q.rl, cp.limiterState)
}

func clonePending(m map[string]*pending) map[string]*pending {
	out := make(map[string]*pending, len(m))
	for k, p := range m {
		out[k] = &pending{reasons: slices.Clone(p.reasons), omitted: p.omitted}
	}
	return out
}

// cloneWaiting copies the heap entry by entry (positions included).
func cloneWaiting(h waitHeap) waitHeap {
	out := make(waitHeap, len(h))
	for i, e := range h {
		c := *e
		out[i] = &c
	}
	return out
}

// bucketState is a token bucket's balance and when it was last taken from.
type bucketState struct {
	tokens float64
	last   time.Time
}

// checkpointLimiter saves the state of the limiters this package defines;
// any other limiter cannot be rewound.
func checkpointLimiter(rl RateLimiter) any {
	switch l := rl.(type) {
	case *ItemExponential:
		return maps.Clone(l.failures)
	case *Bucket:
		return bucketState{tokens: l.tokens, last: l.last}
	case *MaxOf:
		states := make([]any, len(l.limiters))
		for i, inner := range l.limiters {
			states[i] = checkpointLimiter(inner)
		}
		return states
	}
	panic(fmt.Sprintf("workqueue: cannot checkpoint rate limiter %T", rl))
}

func restoreLimiter(rl RateLimiter, state any) {
	switch l := rl.(type) {
	case *ItemExponential:
		l.failures = maps.Clone(state.(map[string]int))
	case *Bucket:
		s := state.(bucketState)
		l.tokens, l.last = s.tokens, s.last
	case *MaxOf:
		for i, inner := range l.limiters {
			restoreLimiter(inner, state.([]any)[i])
		}
	}
}
