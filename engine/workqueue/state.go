package workqueue

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// State is a copy of the queue's contents for the UI. Every list is in a
// fixed order, so equal queues give equal states.
type State struct {
	// Queue holds the ready keys in FIFO order, with their reasons.
	Queue []ItemState `json:"queue"`
	// Dirty holds every dirty key (queued, or re-added while processing),
	// sorted.
	Dirty []string `json:"dirty"`
	// Processing holds the keys workers hold, sorted.
	Processing []string `json:"processing"`
	// Waiting holds the delayed keys by ready time, then key.
	Waiting []Waiting `json:"waiting"`
	// Requeues holds the keys with retry bookkeeping (rate-limited since
	// their last Forget), sorted by key.
	Requeues []Requeue `json:"requeues"`
}

// ItemState is one ready key.
type ItemState struct {
	Key string `json:"key"`
	// Reasons are the reasons Get will hand out with the key.
	Reasons []string `json:"reasons,omitempty"`
}

// Waiting is one delayed key.
type Waiting struct {
	Key string `json:"key"`
	// ReadyAt is the virtual instant at which the key is added.
	ReadyAt time.Time `json:"readyAt"`
	// Reason is the reason it will be added with.
	Reason string `json:"reason,omitempty"`
}

// Requeue is one key's retry bookkeeping.
type Requeue struct {
	Key string `json:"key"`
	// Count is NumRequeues(Key).
	Count int `json:"count"`
	// LastBackoff is the backoff of the key's latest AddRateLimited.
	LastBackoff time.Duration `json:"lastBackoffNs"`
}

// Snapshot copies the queue's state; it shares nothing with the queue.
func (q *Queue) Snapshot() State {
	var s State
	for _, k := range q.items {
		it := ItemState{Key: k}
		if p := q.dirty[k]; p != nil && len(p.reasons) > 0 {
			it.Reasons = p.list()
		}
		s.Queue = append(s.Queue, it)
	}
	s.Dirty = sortedKeys(q.dirty)
	s.Processing = sortedKeys(q.processing)
	for _, e := range q.waiting {
		s.Waiting = append(s.Waiting, Waiting{Key: e.key, ReadyAt: e.readyAt, Reason: e.reason})
	}
	slices.SortFunc(s.Waiting, func(a, b Waiting) int {
		if c := a.ReadyAt.Compare(b.ReadyAt); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	for _, k := range sortedKeys(q.lastBackoff) {
		s.Requeues = append(s.Requeues, Requeue{Key: k, Count: q.rl.NumRequeues(k), LastBackoff: q.lastBackoff[k]})
	}
	return s
}

// sortedKeys returns m's keys in sorted order, so that map order never
// reaches an output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Text renders the state in five stable lines, with times as offsets from
// start (the simulation's start), e.g.
//
//	queue: a (x; y), b
//	dirty: a, b, c
//	processing: c
//	waiting: d @+1.000s (retry)
//	requeues: d=2 (last 10ms)
func (s State) Text(start time.Time) string {
	var b strings.Builder
	line := func(name string, items []string) {
		b.WriteString(name)
		b.WriteString(":")
		if len(items) == 0 {
			b.WriteString(" -")
		} else {
			b.WriteString(" ")
			b.WriteString(strings.Join(items, ", "))
		}
		b.WriteString("\n")
	}
	var items []string
	for _, it := range s.Queue {
		t := it.Key
		if len(it.Reasons) > 0 {
			t += " (" + strings.Join(it.Reasons, "; ") + ")"
		}
		items = append(items, t)
	}
	line("queue", items)
	line("dirty", s.Dirty)
	line("processing", s.Processing)
	items = nil
	for _, w := range s.Waiting {
		t := w.Key + " @" + clock.FormatOffset(w.ReadyAt.Sub(start))
		if w.Reason != "" {
			t += " (" + w.Reason + ")"
		}
		items = append(items, t)
	}
	line("waiting", items)
	items = nil
	for _, r := range s.Requeues {
		items = append(items, r.Key+"="+strconv.Itoa(r.Count)+" (last "+r.LastBackoff.String()+")")
	}
	line("requeues", items)
	return b.String()
}
