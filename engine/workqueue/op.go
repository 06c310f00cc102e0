package workqueue

import (
	"strconv"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Op names one recorded queue operation.
type Op uint8

const (
	// OpNone is the zero value; it is never recorded.
	OpNone Op = iota
	// OpAdd is an Add that appended the key to the queue.
	OpAdd
	// OpAddDeduped is an Add on a key that was already dirty: only its
	// reason is kept, the queue order does not change.
	OpAddDeduped
	// OpAddWhileProcessing is an Add on a key that a worker holds: the key
	// is marked dirty and will be queued again by Done.
	OpAddWhileProcessing
	// OpGet handed the head of the queue to a worker.
	OpGet
	// OpDone released a key that was not dirtied meanwhile.
	OpDone
	// OpDoneRequeued released a key that was dirtied while processing, and
	// appended it to the queue again.
	OpDoneRequeued
	// OpDoneIgnored is a Done on a key that no worker holds: a caller bug,
	// ignored so the queue's invariants survive it.
	OpDoneIgnored
	// OpAddAfter is a delayed add; Waited says what happened to it.
	OpAddAfter
	// OpPromote is a waiting key whose delay elapsed being added.
	OpPromote
	// OpRateLimited is an AddRateLimited: the backoff came from the rate
	// limiter, then the key was handled as by AddAfter.
	OpRateLimited
	// OpForget cleared the retry bookkeeping of a key.
	OpForget
)

var opNames = [...]string{
	OpNone:               "none",
	OpAdd:                "add",
	OpAddDeduped:         "add-deduped",
	OpAddWhileProcessing: "add-while-processing",
	OpGet:                "get",
	OpDone:               "done",
	OpDoneRequeued:       "done-requeued",
	OpDoneIgnored:        "done-ignored",
	OpAddAfter:           "add-after",
	OpPromote:            "promote",
	OpRateLimited:        "rate-limited",
	OpForget:             "forget",
}

// String returns the operation's name as it appears in JSON.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "unknown"
}

// MarshalText renders the operation by name in JSON.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// AddOutcome is what an add (plain, promoted or immediate) did.
type AddOutcome uint8

const (
	// AddNone means no add happened (the key went to the waiting heap).
	AddNone AddOutcome = iota
	// AddQueued appended the key to the end of the queue.
	AddQueued
	// AddDedupedQueued found the key already queued; it keeps its place.
	AddDedupedQueued
	// AddDedupedPending found the key processing and already dirty: a
	// re-run after Done was already pending.
	AddDedupedPending
	// AddMarkedDirty found the key processing and marked it dirty, so
	// Done will queue it again.
	AddMarkedDirty
)

var addNames = [...]string{
	AddNone:           "none",
	AddQueued:         "queued",
	AddDedupedQueued:  "deduped-queued",
	AddDedupedPending: "deduped-pending",
	AddMarkedDirty:    "marked-dirty",
}

// String returns the outcome's name as it appears in JSON.
func (a AddOutcome) String() string {
	if int(a) < len(addNames) {
		return addNames[a]
	}
	return "unknown"
}

// MarshalText renders the outcome by name in JSON.
func (a AddOutcome) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// op is the operation a plain Add with this outcome is recorded as.
func (a AddOutcome) op() Op {
	switch a {
	case AddQueued:
		return OpAdd
	case AddDedupedQueued, AddDedupedPending:
		return OpAddDeduped
	case AddMarkedDirty:
		return OpAddWhileProcessing
	}
	return OpNone
}

// WaitOutcome is what a delayed add (AddAfter, AddRateLimited) did.
type WaitOutcome uint8

const (
	// WaitNone is the zero value: not a delayed add.
	WaitNone WaitOutcome = iota
	// WaitImmediate: the delay was <= 0, so it was a plain add (see
	// AddOutcome).
	WaitImmediate
	// WaitScheduled: the key was not waiting; it now waits until ReadyAt.
	WaitScheduled
	// WaitKeptEarlier: the key already waited until an earlier (or equal)
	// time, which is kept; the requested time is DroppedReadyAt.
	WaitKeptEarlier
	// WaitMovedEarlier: the key waited until a later time (DroppedReadyAt);
	// it now waits until ReadyAt.
	WaitMovedEarlier
)

var waitNames = [...]string{
	WaitNone:         "none",
	WaitImmediate:    "immediate",
	WaitScheduled:    "scheduled",
	WaitKeptEarlier:  "kept-earlier",
	WaitMovedEarlier: "moved-earlier",
}

// String returns the outcome's name as it appears in JSON.
func (w WaitOutcome) String() string {
	if int(w) < len(waitNames) {
		return waitNames[w]
	}
	return "unknown"
}

// MarshalText renders the outcome by name in JSON.
func (w WaitOutcome) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// QueueOp is the trace payload of every queue operation. Fields that do not
// apply to an operation are left zero (and omitted from JSON).
type QueueOp struct {
	// Queue is the queue's name, e.g. "replicaset".
	Queue string `json:"queue"`
	// Op is the operation.
	Op Op `json:"op"`
	// Key is the object key, "namespace/name".
	Key string `json:"key"`
	// Reason is why the caller added the key (adds, promote, rate-limited).
	Reason string `json:"reason,omitempty"`
	// Reasons are the reasons handed to the worker with the key (get).
	Reasons []string `json:"reasons,omitempty"`
	// Added is what the add did (add ops, promote, immediate delayed adds).
	Added AddOutcome `json:"added,omitempty"`
	// Delay is the requested delay (add-after) or the computed backoff
	// (rate-limited).
	Delay time.Duration `json:"delayNs,omitempty"`
	// Waited is what a delayed add did (add-after, rate-limited).
	Waited WaitOutcome `json:"waited,omitempty"`
	// ReadyAt is when the key becomes ready after the operation, as an
	// offset from the start of the simulation (delayed adds, promote).
	ReadyAt time.Duration `json:"readyAtNs,omitempty"`
	// DroppedReadyAt is the ready time that lost to ReadyAt: the requested
	// one (kept-earlier) or the previous one (moved-earlier).
	DroppedReadyAt time.Duration `json:"droppedReadyAtNs,omitempty"`
	// Requeues is the key's retry count after the operation (rate-limited)
	// or before it was cleared (forget).
	Requeues int `json:"requeues,omitempty"`
	// Limiter names the limiter whose delay won (rate-limited), e.g.
	// "per-item" or "bucket".
	Limiter string `json:"limiter,omitempty"`
	// Len is the number of ready keys after the operation.
	Len int `json:"len"`
}

var _ trace.Payload = QueueOp{}

// Kind implements trace.Payload.
func (QueueOp) Kind() trace.Kind { return trace.KindQueue }

// Text implements trace.Payload: one short, stable line, e.g.
//
//	replicaset add default/web-abc (pod web-abc-x1 created) -> queued, len=1
//	replicaset add default/web-abc (pod web-abc-x2 created) -> deduped (already queued)
//	replicaset rate-limited default/web (sync error: conflict) [requeue #3, backoff 20ms, per-item] -> waiting until +0.035s
//
// (from testdata/fifo_dedupe and testdata/rate_limited).
func (p QueueOp) Text() string {
	var b strings.Builder
	b.WriteString(p.Queue)
	b.WriteByte(' ')
	b.WriteString(p.verb())
	b.WriteByte(' ')
	b.WriteString(p.Key)
	if p.Reason != "" {
		b.WriteString(" (")
		b.WriteString(p.Reason)
		b.WriteByte(')')
	}
	switch p.Op {
	case OpAddAfter:
		b.WriteString(" delay ")
		b.WriteString(p.Delay.String())
	case OpPromote:
		b.WriteString(" (ready ")
		b.WriteString(clock.FormatOffset(p.ReadyAt))
		b.WriteByte(')')
	case OpRateLimited:
		b.WriteString(" [requeue #")
		b.WriteString(strconv.Itoa(p.Requeues))
		b.WriteString(", backoff ")
		b.WriteString(p.Delay.String())
		if p.Limiter != "" {
			b.WriteString(", ")
			b.WriteString(p.Limiter)
		}
		b.WriteByte(']')
	}
	b.WriteString(" -> ")
	b.WriteString(p.result())
	return b.String()
}

// verb is the word after the queue name: plain adds all read "add".
func (p QueueOp) verb() string {
	switch p.Op {
	case OpAdd, OpAddDeduped, OpAddWhileProcessing:
		return "add"
	case OpDone, OpDoneRequeued, OpDoneIgnored:
		return "done"
	}
	return p.Op.String()
}

func (p QueueOp) result() string {
	switch p.Op {
	case OpAdd, OpAddDeduped, OpAddWhileProcessing, OpPromote:
		return p.addResult()
	case OpGet:
		s := "processing"
		if len(p.Reasons) > 0 {
			s += " (reasons: " + strings.Join(p.Reasons, "; ") + ")"
		}
		return s + ", len=" + strconv.Itoa(p.Len)
	case OpDone:
		return "finished, len=" + strconv.Itoa(p.Len)
	case OpDoneRequeued:
		return "re-queued (dirtied while processing), len=" + strconv.Itoa(p.Len)
	case OpDoneIgnored:
		return "ignored (not processing)"
	case OpAddAfter, OpRateLimited:
		return p.waitResult()
	case OpForget:
		return "requeues reset from " + strconv.Itoa(p.Requeues) + " to 0"
	}
	return p.Op.String()
}

func (p QueueOp) addResult() string {
	switch p.Added {
	case AddQueued:
		return "queued, len=" + strconv.Itoa(p.Len)
	case AddDedupedQueued:
		return "deduped (already queued)"
	case AddDedupedPending:
		return "deduped (re-run after done already pending)"
	case AddMarkedDirty:
		return "marked dirty (processing; re-queued on done)"
	}
	return p.Added.String()
}

func (p QueueOp) waitResult() string {
	switch p.Waited {
	case WaitImmediate:
		return "no delay: " + p.addResult()
	case WaitScheduled:
		return "waiting until " + clock.FormatOffset(p.ReadyAt)
	case WaitKeptEarlier:
		return "kept earlier entry (ready " + clock.FormatOffset(p.ReadyAt) + ", not " + clock.FormatOffset(p.DroppedReadyAt) + ")"
	case WaitMovedEarlier:
		return "moved earlier (ready " + clock.FormatOffset(p.ReadyAt) + ", was " + clock.FormatOffset(p.DroppedReadyAt) + ")"
	}
	return p.Waited.String()
}
