package apiserver

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// eventLog holds the stored Events in creation order, in chunks of
// eventChunk: a long run's Events are never copied to grow the storage, as
// one growing slice would copy them at every doubling. Events are never
// changed or removed once stored.
type eventLog struct {
	// chunks hold the events in order: event i is
	// chunks[i/eventChunk][i%eventChunk]. Every chunk but the last is full
	// (len eventChunk). Snapshot: yes (the headers, see checkpoint).
	chunks [][]storedEvent
	// n is the number of events.
	n int
}

// eventChunk is the number of events per chunk.
const eventChunk = 256

// len returns the number of events.
func (l *eventLog) len() int { return l.n }

// at returns event i (0 <= i < len).
func (l *eventLog) at(i int) *storedEvent { return &l.chunks[i/eventChunk][i%eventChunk] }

// add appends e.
func (l *eventLog) add(e storedEvent) {
	l.chunks = inplace.AppendChunk(l.chunks, eventChunk, e)
	l.n++
}

// checkpoint returns the log as it is now: a copy of the chunk headers
// (each chunk's length now), sharing the events.
func (l *eventLog) checkpoint() eventLog {
	return eventLog{chunks: slices.Clone(l.chunks), n: l.n}
}

// restore puts back the log of cp (inplace.Chunks: the last chunk is
// clipped, so checkpoints can be shared between servers, a fork's and its
// parent's, without copying).
func (l *eventLog) restore(cp eventLog) {
	l.chunks = inplace.Chunks(l.chunks, cp.chunks)
	l.n = cp.n
}

// eventKey identifies a stored Event: its namespace and name (kept apart,
// so that indexing an Event builds no "namespace/name" string).
type eventKey struct{ ns, name string }
