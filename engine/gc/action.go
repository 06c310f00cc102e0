package gc

import "github.com/rolloutlab/rolloutlab/engine/trace"

// traceSource is the trace source of every garbage-collector record.
const traceSource = "garbage-collector"

// Action is the trace payload of one garbage-collector decision.
type Action struct {
	// Queue is attemptToDelete, deletingDependents, attemptToOrphan, or
	// graph for bookkeeping that enqueues work.
	Queue string `json:"queue"`
	// Object is "resource namespace/name".
	Object string `json:"object"`
	// Verdict is the classification of the object's ownerReferences, e.g.
	// "solid=0 dangling=1 waiting=0", or a short state such as "absent".
	Verdict string `json:"verdict,omitempty"`
	// Do is what the collector did: "delete propagation=Background",
	// "enqueue (owner deleted)", "retry in 1s: <error>", ...
	Do string `json:"do"`
}

// Kind implements trace.Payload.
func (Action) Kind() trace.Kind { return trace.KindGC }

// Text renders e.g.
// "attemptToDelete pods default/web-1: solid=0 dangling=1 waiting=0 -> delete propagation=Background".
func (a Action) Text() string {
	s := a.Queue + " " + a.Object
	if a.Verdict != "" {
		s += ": " + a.Verdict
	}
	return s + " -> " + a.Do
}
