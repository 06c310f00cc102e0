package workqueue

import (
	"errors"
	"fmt"
)

// ErrInvariant is wrapped by every error CheckInvariants returns.
var ErrInvariant = errors.New("workqueue: invariant violated")

// CheckInvariants verifies the invariants written on Queue's fields and
// returns the first violation found (checked in a fixed order, so the same
// state always reports the same error), wrapping ErrInvariant. Tests call it
// after every operation; the simulator's checker may too.
func (q *Queue) CheckInvariants() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: queue %s: %s", ErrInvariant, q.name, fmt.Sprintf(format, args...))
	}
	inItems := make(map[string]bool, len(q.items))
	for i, k := range q.items {
		if inItems[k] {
			return fail("key %q appears twice in the queue (position %d)", k, i)
		}
		inItems[k] = true
		if _, ok := q.dirty[k]; !ok {
			return fail("queued key %q is not dirty", k)
		}
		if _, ok := q.processing[k]; ok {
			return fail("queued key %q is processing", k)
		}
	}
	for _, k := range sortedKeys(q.dirty) {
		_, busy := q.processing[k]
		if !busy && !inItems[k] {
			return fail("dirty key %q is neither queued nor processing", k)
		}
		if p := q.dirty[k]; p == nil {
			return fail("dirty key %q has no reason list", k)
		} else if len(p.reasons) > maxReasons {
			return fail("dirty key %q keeps %d reasons (max %d)", k, len(p.reasons), maxReasons)
		}
	}
	if len(q.waiting) != len(q.waitingByKey) {
		return fail("waiting heap has %d entries, index has %d", len(q.waiting), len(q.waitingByKey))
	}
	for i, e := range q.waiting {
		if e.index != i {
			return fail("waiting entry %q at %d records index %d", e.key, i, e.index)
		}
		if q.waitingByKey[e.key] != e {
			return fail("waiting entry %q is not the indexed one", e.key)
		}
		if i > 0 && q.waiting.Less(i, (i-1)/2) {
			return fail("waiting heap order broken at %q", e.key)
		}
		if e.seq > q.waitSeq {
			return fail("waiting entry %q has seq %d beyond %d", e.key, e.seq, q.waitSeq)
		}
	}
	return nil
}
