package workqueue

import (
	"container/heap"
	"time"
)

// waitEntry is one key waiting for its ready time.
type waitEntry struct {
	key string
	// reason is the reason of the AddAfter that set readyAt; it is given
	// to the Add made when the entry is promoted.
	reason string
	// readyAt is the virtual instant at which the key is added.
	readyAt time.Time
	// seq orders entries with equal readyAt: the one scheduled (or moved)
	// first is promoted first.
	seq uint64
	// index is the entry's position in the heap, kept by Swap/Push.
	index int
}

// waitHeap implements heap.Interface, earliest (readyAt, seq) first.
type waitHeap []*waitEntry

func (h waitHeap) Len() int { return len(h) }

func (h waitHeap) Less(i, j int) bool {
	if !h[i].readyAt.Equal(h[j].readyAt) {
		return h[i].readyAt.Before(h[j].readyAt)
	}
	return h[i].seq < h[j].seq
}

func (h waitHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *waitHeap) Push(x any) {
	e := x.(*waitEntry)
	e.index = len(*h)
	*h = append(*h, e)
}

func (h *waitHeap) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.index = -1
	*h = old[:n-1]
	return e
}

// AddAfter adds key once d has elapsed on the virtual clock. d <= 0 is a
// plain Add. If key is already waiting, only the earlier of the two ready
// times is kept (with its reason). A waiting key does not block Add: it may
// be queued, processed and done meanwhile, and is still added when due.
func (q *Queue) AddAfter(key, reason string, d time.Duration) {
	rec := q.addAfter(key, reason, d)
	rec.Op = OpAddAfter
	q.emit(rec)
}

// addAfter is AddAfter without the record; it returns the record's fields.
func (q *Queue) addAfter(key, reason string, d time.Duration) QueueOp {
	rec := QueueOp{Key: key, Reason: reason, Delay: d}
	if d <= 0 {
		rec.Waited = WaitImmediate
		rec.Added = q.add(key, Reason{Prefix: reason})
		return rec
	}
	readyAt := q.clock.Now().Add(d)
	q.waitSeq++
	if e, ok := q.waitingByKey[key]; ok {
		if !e.readyAt.After(readyAt) {
			rec.Waited = WaitKeptEarlier
			rec.ReadyAt = q.offset(e.readyAt)
			rec.DroppedReadyAt = q.offset(readyAt)
			return rec
		}
		rec.Waited = WaitMovedEarlier
		rec.DroppedReadyAt = q.offset(e.readyAt)
		rec.ReadyAt = q.offset(readyAt)
		e.readyAt, e.reason, e.seq = readyAt, reason, q.waitSeq
		heap.Fix(&q.waiting, e.index)
		return rec
	}
	e := &waitEntry{key: key, reason: reason, readyAt: readyAt, seq: q.waitSeq}
	heap.Push(&q.waiting, e)
	q.waitingByKey[key] = e
	rec.Waited = WaitScheduled
	rec.ReadyAt = q.offset(readyAt)
	return rec
}

// NextReadyAt returns the earliest ready time among waiting keys; ok is
// false when none waits. The simulator advances the clock to it and calls
// PromoteDue.
func (q *Queue) NextReadyAt() (time.Time, bool) {
	if len(q.waiting) == 0 {
		return time.Time{}, false
	}
	return q.waiting[0].readyAt, true
}

// PromoteDue adds every waiting key whose ready time is at or before the
// clock's now, earliest first, each with the reason stored with it (one
// "promote" record each). It returns how many keys it promoted.
func (q *Queue) PromoteDue() int {
	now := q.clock.Now()
	n := 0
	for len(q.waiting) > 0 && !q.waiting[0].readyAt.After(now) {
		e := heap.Pop(&q.waiting).(*waitEntry)
		delete(q.waitingByKey, e.key)
		out := q.add(e.key, Reason{Prefix: e.reason})
		q.emit(QueueOp{Op: OpPromote, Key: e.key, Reason: e.reason, Added: out, ReadyAt: q.offset(e.readyAt)})
		n++
	}
	return n
}

// offset expresses an instant as time since the start of the simulation,
// the way records show times.
func (q *Queue) offset(t time.Time) time.Duration { return t.Sub(q.clock.Start()) }
