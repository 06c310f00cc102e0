package gc

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// queueName says which worker handles an item.
type queueName uint8

const (
	// attemptToDelete checks an object's owners and deletes it when none
	// is solid; for an owner in foreground deletion it waits for the
	// blocking dependents and then removes the finalizer.
	attemptToDelete queueName = iota + 1
	// attemptToOrphan strips an owner from its dependents and then
	// removes its "orphan" finalizer.
	attemptToOrphan
)

// String returns the upstream queue name.
func (q queueName) String() string {
	switch q {
	case attemptToDelete:
		return "attemptToDelete"
	case attemptToOrphan:
		return "attemptToOrphan"
	}
	return "unknown"
}

// item is one unit of work: a queue and the UID of a graph node.
type item struct {
	queue queueName
	uid   types.UID
}

// delayed is an item waiting for its retry time.
type delayed struct {
	item item
	due  time.Time
	// seq orders items with the same due time by insertion.
	seq uint64
}

// workQueue is a FIFO of items with a dirty set and a list of delayed items.
type workQueue struct {
	// fifo holds the ready items in order. Invariant: every element of
	// fifo is in queued, and queued holds nothing else.
	fifo   []item
	queued map[item]bool
	// waiting is kept sorted by (due, seq).
	waiting []delayed
	seq     uint64
}

func newWorkQueue() *workQueue { return &workQueue{queued: map[item]bool{}} }

// add appends it unless it is already queued; it reports whether it was
// added.
func (q *workQueue) add(it item) bool {
	if q.queued[it] {
		return false
	}
	q.queued[it] = true
	q.fifo = append(q.fifo, it)
	return true
}

// addAt schedules it to be added at due.
func (q *workQueue) addAt(it item, due time.Time) {
	q.seq++
	q.waiting = append(q.waiting, delayed{item: it, due: due, seq: q.seq})
	sort.Slice(q.waiting, func(i, j int) bool {
		a, b := q.waiting[i], q.waiting[j]
		if !a.due.Equal(b.due) {
			return a.due.Before(b.due)
		}
		return a.seq < b.seq
	})
}

// promote moves every delayed item due at or before now into the FIFO.
func (q *workQueue) promote(now time.Time) {
	n := 0
	for n < len(q.waiting) && !q.waiting[n].due.After(now) {
		q.add(q.waiting[n].item)
		n++
	}
	q.waiting = q.waiting[n:]
}

// ready reports whether an item is ready at now.
func (q *workQueue) ready(now time.Time) bool {
	return len(q.fifo) > 0 || (len(q.waiting) > 0 && !q.waiting[0].due.After(now))
}

// pop removes and returns the first ready item.
func (q *workQueue) pop() (item, bool) {
	if len(q.fifo) == 0 {
		return item{}, false
	}
	it := q.fifo[0]
	q.fifo = q.fifo[1:]
	delete(q.queued, it)
	return it, true
}

// nextDue returns the earliest retry time.
func (q *workQueue) nextDue() (time.Time, bool) {
	if len(q.waiting) == 0 {
		return time.Time{}, false
	}
	return q.waiting[0].due, true
}
