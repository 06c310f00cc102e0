package main

import (
	"encoding/json"
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/session"
)

// samplesSent remembers what "samplesSince" last returned, so that the next
// call returns only the samples after the unchanged prefix. A 100,000-step
// run has 100,000 samples; encoding all of them for every chart refresh cost
// the Worker seconds under js/wasm (and the page waited behind it), while
// between two refreshes only the new steps' samples change.
type samplesSent struct {
	// of is the session the samples were sent for; another session (a new
	// load) starts over from nothing. A successful load resets the whole
	// struct, so a replaced session is not kept alive through it.
	of *session.Session
	// samples are the samples sent, in order (copies of the stored values,
	// whose point slices are read-only once stored: session.Sample). The
	// backing array beyond len holds only zero values.
	samples []session.Sample
}

// samplesDelta is the value of "samplesSince".
type samplesDelta struct {
	// Keep is how many leading samples of the previous answer are unchanged
	// (0 after a load or on the first call).
	Keep int `json:"keep"`
	// Tail is the samples after them, up to the run's last step.
	Tail []session.Sample `json:"tail"`
}

// sameSample reports whether two samples hold the same step, time and
// points. A replay (a seek) stores new but equal samples, so slices are
// compared by content; sharing a slice (session.shareUnchanged) makes most
// comparisons a pointer check.
func sameSample(a, b session.Sample) bool {
	return a.Step == b.Step && a.At == b.At && samePoints(a.ReplicaSets, b.ReplicaSets) && samePoints(a.Deployments, b.Deployments)
}

// samePoints reports whether a and b hold equal points, in order.
func samePoints[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// samplesSince returns the samples that changed since its last call, as
// {keep, tail}: the caller keeps the first keep samples it was given and
// appends tail. It costs a comparison per step (most are pointer checks)
// plus the tail's encoding.
//
// Its optional argument {have} is how many samples the caller holds: keep
// is never more, so a caller that lost its copy (it failed to parse an
// answer and holds none) gets the samples it lacks, not a prefix it no
// longer has.
func (b *bridge) samplesSince(args json.RawMessage) (any, error) {
	var a struct {
		Have *int `json:"have"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		cur := s.Samples()
		keep := 0
		if b.sent.of == s {
			n := min(len(cur), len(b.sent.samples))
			if a.Have != nil {
				n = min(n, max(0, *a.Have))
			}
			for keep < n && sameSample(cur[keep], b.sent.samples[keep]) {
				// Hold the session's copy: a replay's equal copy replaces
				// the old one, which can then be collected.
				b.sent.samples[keep] = cur[keep]
				keep++
			}
		}
		b.sent.of = s
		old := len(b.sent.samples)
		b.sent.samples = append(b.sent.samples[:keep], cur[keep:]...)
		if n := len(b.sent.samples); n < old {
			// The array was reused and is now shorter: drop the discarded
			// samples it still holds beyond the new length, so that they
			// (and their point slices) can be collected.
			clear(b.sent.samples[n:old])
		}
		tail := cur[keep:]
		if tail == nil {
			tail = []session.Sample{} // [] on the wire, not null
		}
		return samplesDelta{Keep: keep, Tail: tail}, nil
	})
}
