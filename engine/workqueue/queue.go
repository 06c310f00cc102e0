package workqueue

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Queue is a controller's rate-limited workqueue: a FIFO of ready keys with
// dirty and processing sets (this file), a heap of keys waiting for a ready
// time (delaying.go) and retry bookkeeping through a RateLimiter
// (rate_limiting.go).
type Queue struct {
	// name labels every record, e.g. "replicaset".
	name string
	// source is the component the records are emitted as, e.g.
	// "replicaset-controller".
	source string
	// clock is the virtual clock; ready times are read from it.
	clock *clock.Clock
	// rec receives one record per state change; nil records nothing.
	rec *trace.Recorder
	// rl computes backoffs; never nil.
	rl RateLimiter

	// items is the FIFO of keys ready to be handed out. Every element is in
	// dirty and not in processing, and appears once.
	items []string
	// dirty holds every key that needs a (re-)run: each key of items, plus
	// the keys added again while processing (which are not in items). Its
	// value collects the reasons given since the key became dirty.
	dirty map[string]*pending
	// processing holds the keys handed out by Get and not yet Done. A key
	// that is processing is never in items.
	processing map[string]struct{}

	// waiting is a min-heap of delayed keys ordered by (readyAt, seq); each
	// key appears at most once. A waiting key may also be dirty or
	// processing: waiting does not block Add.
	waiting waitHeap
	// waitingByKey indexes waiting by key: same entries, same count.
	waitingByKey map[string]*waitEntry
	// waitSeq numbers scheduled entries; it only increases.
	waitSeq uint64

	// lastBackoff is the backoff of each key's latest AddRateLimited. A key
	// enters on AddRateLimited and leaves on Forget.
	lastBackoff map[string]time.Duration
}

// New returns an empty queue named name (e.g. "replicaset") whose records
// are emitted by source (e.g. "replicaset-controller"). It reads time from c
// and records to rec (nil records nothing). rl computes retry backoffs; nil
// means DefaultControllerRateLimiter(). If rl needs a clock (ClockBinder, like
// Bucket and MaxOf), it is bound to c here.
func New(name string, c *clock.Clock, rec *trace.Recorder, source string, rl RateLimiter) *Queue {
	if c == nil {
		panic("workqueue: New needs a clock")
	}
	if rl == nil {
		rl = DefaultControllerRateLimiter()
	}
	if b, ok := rl.(ClockBinder); ok {
		b.BindClock(c)
	}
	return &Queue{
		name:         name,
		source:       source,
		clock:        c,
		rec:          rec,
		rl:           rl,
		dirty:        map[string]*pending{},
		processing:   map[string]struct{}{},
		waitingByKey: map[string]*waitEntry{},
		lastBackoff:  map[string]time.Duration{},
	}
}

// Name returns the queue's name.
func (q *Queue) Name() string { return q.name }

// Add marks key as needing a run, for reason (kept for the UI; "" adds
// none). A key that is not dirty is appended to the queue, unless a worker
// holds it, in which case Done will append it. A key that is already dirty
// keeps its place; only the reason is collected.
func (q *Queue) Add(key, reason string) { q.AddBecause(key, Reason{Prefix: reason}) }

// AddBecause is Add with a reason kept in parts (see Reason), which
// builds no string.
func (q *Queue) AddBecause(key string, why Reason) {
	out := q.add(key, why)
	q.emitBecause(QueueOp{Op: out.op(), Key: key, Added: out}, why)
}

// add is AddBecause without the record.
func (q *Queue) add(key string, reason Reason) AddOutcome {
	_, busy := q.processing[key]
	if p, ok := q.dirty[key]; ok {
		p.note(reason)
		if busy {
			return AddDedupedPending
		}
		return AddDedupedQueued
	}
	p := &pending{}
	p.note(reason)
	q.dirty[key] = p
	if busy {
		return AddMarkedDirty
	}
	q.items = append(q.items, key)
	return AddQueued
}

// Get pops the head of the queue and hands it to the caller, who must call
// Done(key) when finished. reasons are every reason collected while the key
// was dirty, in arrival order, without duplicates. ok is false (and nothing
// is recorded) when no key is ready.
func (q *Queue) Get() (key string, reasons []string, ok bool) {
	if len(q.items) == 0 {
		return "", nil, false
	}
	key = q.items[0]
	q.items[0] = ""
	q.items = q.items[1:]
	if p := q.dirty[key]; p != nil {
		reasons = p.list()
	}
	delete(q.dirty, key)
	q.processing[key] = struct{}{}
	rec := QueueOp{Op: OpGet, Key: key}
	if len(reasons) > 0 && q.rec != nil {
		rec.Reasons = reasons
	}
	q.emit(rec)
	return key, reasons, true
}

// Done tells the queue the worker has finished key. If key was added again
// while it was processing, it is appended to the queue now. Done on a key no
// worker holds is a caller bug; it is recorded and otherwise ignored.
func (q *Queue) Done(key string) {
	if _, ok := q.processing[key]; !ok {
		q.emit(QueueOp{Op: OpDoneIgnored, Key: key})
		return
	}
	delete(q.processing, key)
	if _, dirty := q.dirty[key]; dirty {
		q.items = append(q.items, key)
		q.emit(QueueOp{Op: OpDoneRequeued, Key: key})
		return
	}
	q.emit(QueueOp{Op: OpDone, Key: key})
}

// Len returns the number of keys ready to be handed out.
func (q *Queue) Len() int { return len(q.items) }

// emit stamps p with the queue's name and length and records it.
func (q *Queue) emit(p QueueOp) { q.emitBecause(p, Reason{Prefix: p.Reason}) }

// emitBecause is emit for a record whose Reason is why's text.
func (q *Queue) emitBecause(p QueueOp, why Reason) {
	if q.rec == nil {
		return
	}
	p.Queue = q.name
	p.Len = len(q.items)
	p.emit(q.rec, q.source, why)
}
